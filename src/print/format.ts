/**
 * The printer's public face: print a tree, or format a text (parse, then
 * print) in canonical or pretty form (SPEC §8).
 */
export type { PrintOptions } from './printer.js';
export { printFilter, printSort } from './printer.js';
export type { ValuePosition } from './quote.js';
export { needsQuoting, quoteValue } from './quote.js';
