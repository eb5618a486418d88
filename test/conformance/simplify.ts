/** The corpus's simplified tree for the tests: the one in src/conformance/simplify.ts, which `wepql conformance --self` uses too. */
export { simplifyFilter, simplifySort } from '../../src/conformance/simplify.js';
export type { SimpleClause, SimpleSortItem } from '../../src/conformance/simplify.js';
