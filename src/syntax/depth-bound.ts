/**
 * How deep the filter readers recurse into groups: the Chevrotain parser
 * and the fast path of `parseFilter` stop at the same depth.
 */
import { DEPTH_CEILING, type Limits } from '../diagnostics/limits.js';

/**
 * The deepest group nesting the parser will recurse into, whatever
 * `limits.maxDepth` says: deeper input is reported as `nesting-too-deep`
 * rather than risking the call stack.
 *
 * @example
 * parseFilter(deepText, { limits: { maxDepth: 1e9 } }); // still nesting-too-deep past 200 levels
 */
export const PARSER_DEPTH_CEILING = DEPTH_CEILING;

/**
 * The deepest group nesting a parse under `limits` enters: `limits.maxDepth`, at most `PARSER_DEPTH_CEILING`.
 *
 * @example
 * parserDepthBound({ ...DEFAULT_LIMITS, maxDepth: 1e9 }); // 200
 */
export function parserDepthBound(limits: Limits): number {
  // `!(x <= ceiling)` also catches NaN and undefined (a caller's spread of
  // an unset option), which Math.min would turn into "no bound at all".
  return limits.maxDepth <= PARSER_DEPTH_CEILING ? limits.maxDepth : PARSER_DEPTH_CEILING;
}
