/**
 * Compiles a validated filter to a predicate, choosing the back end.
 * Separate from `compile-filter.ts` so that code holding a typed tree does
 * not pull in the parser.
 */
import { WepqlError } from '../diagnostics/error.js';
import { resolveLimits } from '../diagnostics/limits.js';
import type { TypedFilter } from '../ast/typed-tree.js';
import { closurePredicate } from './filter-closures.js';
import { canGenerateCode, codegenPredicate } from './filter-codegen.js';
import type { EvaluateOptions, RecordPredicate } from './options.js';
import type { PlanNode } from './plan.js';
import { planFilter } from './plan.js';

/**
 * Compiles a typed filter (docs/reference.md §"Filter semantics"). `strategy` `auto`
 * (the default) starts
 * with closures and generates code once the predicate has been called 128
 * times, when the environment allows it. Throws `WepqlError` for an
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
  return tieredPredicate(plan);
}

/** Calls answered by closures before `auto` generates code for a predicate. */
const CALLS_BEFORE_CODEGEN = 128;

/**
 * `auto`: answer the first calls with closures, which cost little to build,
 * then switch to generated code, which costs a few microseconds to build and
 * runs about 1.6× faster. Short lists never pay for generation; long scans
 * run at generated speed. Where code generation is forbidden the closures
 * simply stay.
 */
function tieredPredicate(plan: PlanNode): RecordPredicate {
  let current = closurePredicate(plan);
  let left = CALLS_BEFORE_CODEGEN;
  return (record) => {
    if (left > 0 && --left === 0 && canGenerateCode()) current = codegenPredicate(plan);
    return current(record);
  };
}
