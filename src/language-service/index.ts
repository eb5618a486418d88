/**
 * `wepql/service`: language services for editors and filter bars —
 * completion and explanations.
 *
 * This file only re-exports; nothing inside `src/` imports it.
 *
 * @packageDocumentation
 */
export { complete } from './complete.js';
export type { CompleteOptions, CompletionItem, CompletionKind, CompletionResult } from './complete.js';
export { explain } from './explain.js';
export type { ExplainOptions, ExplainResult } from './explain.js';
export { highlightTokens } from './tokens.js';
export type { HighlightOptions, HighlightToken, TokenKind } from './tokens.js';
export { hoverAt } from './hover.js';
export type { HoverInfo, HoverOptions } from './hover.js';
