/**
 * `wepql/policy`: per-endpoint policies on top of a schema — which fields
 * may be filtered (and with which operators), which may be sorted, and
 * tighter caps. Pass a policy to `handleListRequest`, a framework adapter's
 * `listHandler` or `lintText`.
 *
 * This file only re-exports; nothing inside `src/` imports it.
 *
 * @packageDocumentation
 */
export { definePolicy, policyLimits, PolicyDefinitionError } from './policy.js';
export type { FieldRule, Policy, PolicyCaps, PolicyDefinition, ResolvedFieldRule } from './policy.js';
export { checkFilterPolicy, checkSortPolicy } from './check-policy.js';
