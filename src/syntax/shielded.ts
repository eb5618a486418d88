/**
 * Building Chevrotain lexers and parsers under a polluted `Object.prototype`.
 * Chevrotain's analysis keeps maps in plain objects (`map[charCode] ??= []`),
 * so an enumerable property such as `Object.prototype[0]` makes building
 * throw — at import time, for a module-level lexer. Building happens once,
 * synchronously, so the pollution can be set aside for exactly that long.
 */
import type { ILexingResult, Lexer } from 'chevrotain';

/**
 * Runs `build` with the configurable enumerable properties of
 * `Object.prototype` removed, and puts them back afterwards, whatever
 * happens. Nothing else can run in between: `build` is synchronous.
 *
 * @example
 * export const sortLexer = shielded(() => new Lexer(SORT_TOKENS, { positionTracking: 'onlyOffset' }));
 */
export function shielded<T>(build: () => T): T {
  const proto = Object.prototype as Record<string, unknown>;
  const hidden: [string, PropertyDescriptor][] = [];
  for (const key of Object.keys(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, key);
    if (descriptor?.configurable !== true) continue;
    delete proto[key];
    hidden.push([key, descriptor]);
  }
  try {
    return build();
  } finally {
    for (const [key, descriptor] of hidden) Object.defineProperty(proto, key, descriptor);
  }
}

/** What the parsers and tools use of a Chevrotain `Lexer`. */
export interface Tokenizer {
  tokenize(text: string): ILexingResult;
}

/**
 * A lexer built (shielded) on its first `tokenize`, not when its module
 * loads: a process that never lexes with it never pays for its analysis.
 *
 * @example
 * export const sortLexer = lazyLexer(() => new Lexer(SORT_TOKENS, { positionTracking: 'onlyOffset' }));
 */
export function lazyLexer(build: () => Lexer): Tokenizer {
  let lexer: Lexer | undefined;
  return { tokenize: (text) => (lexer ??= shielded(build)).tokenize(text) };
}
