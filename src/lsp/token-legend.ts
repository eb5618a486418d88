/**
 * The semantic token legend of `wepql lsp`, written once: `start.ts`
 * announces it in its answer to `initialize`, before the language loads, and
 * the highlighter (`semantic-tokens.ts`, `server.ts`) numbers its tokens by
 * it. It imports nothing, so the early path stays free of the parser
 * (test/lsp/early-path.test.ts).
 */

/**
 * The token types, in the order of the legend the server announces (the
 * standard LSP names, so every editor theme colours them).
 *
 * @example
 * SEMANTIC_TOKEN_TYPES.indexOf('property'); // 0
 */
export const SEMANTIC_TOKEN_TYPES = ['property', 'method', 'string', 'number', 'keyword', 'operator'] as const;

/**
 * What a span of an entry is: a field (`property`), an operator (`method`),
 * a value (`string` or `number`), `And`/`Or` or a sort direction
 * (`keyword`), or punctuation (`operator`).
 *
 * @example
 * const kind: SemanticTokenType = 'property';
 */
export type SemanticTokenType = (typeof SEMANTIC_TOKEN_TYPES)[number];
