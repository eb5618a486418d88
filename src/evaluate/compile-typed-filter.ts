/**
 * Compiles a validated filter to a predicate, choosing the back end.
 * Separate from `compile-filter.ts` so that code holding a typed tree does
 * not pull in the parser.
 */
import { WepqlError } from '../diagnostics/error.js';
import { resolveLimits } from '../diagnostics/limits.js';
import type { TypedFilter } from '../validate/typed-tree.js';
import { closurePredicate } from './filter-closures.js';
import { canGenerateCode, codegenPredicate } from './filter-codegen.js';
import type { EvaluateOptions, RecordPredicate } from './options.js';
import { planFilter } from './plan.js';

/**
 * Compiles a typed filter (SPEC §6). Throws `WepqlError` for an
 * inconsistent tree, one nested deeper than `limits.maxDepth`, or
 * `strategy: 'codegen'` where code generation is forbidden.
 *
 * @example
 * const matches = compileTypedFilter(analyzeFilterOrThrow('Gender.IsNull()', { schema }));
 * matches({}); // true
 */
export function compileTypedFilter(filter: TypedFilter, options: EvaluateOptions = {}): RecordPredicate {
  const plan = planFilter(filter, { caseSensitive: options.caseSensitive === true, limits: resolveLimits(options.limits) });
  const strategy = options.strategy ?? 'auto';
  if (strategy === 'closures') return closurePredicate(plan);
  if (strategy === 'codegen') {
    if (!canGenerateCode()) {
      throw new WepqlError('strategy "codegen" was requested but this environment forbids new Function (use "auto" or "closures")', []);
    }
    return codegenPredicate(plan);
  }
  return canGenerateCode() ? codegenPredicate(plan) : closurePredicate(plan);
}
