/**
 * Options shared by `parseFilter` and `parseSort`.
 */
import type { Limits } from '../diagnostics/limits.js';

/**
 * Options of a parse. Unset limits take the defaults of docs/reference.md §"Limits".
 *
 * @example
 * parseFilter(text, { limits: { maxDepth: 8 } });
 */
export interface ParseOptions {
  /** Bounds on the input; each unset field takes its default from `DEFAULT_LIMITS`. */
  readonly limits?: Partial<Limits>;
}
