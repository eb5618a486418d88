/** The corpus's simplified tree for the tests: the one in src/conformance/simplify.ts, which `wepql conformance --self` uses too. */
export { simpleClause, simpleValue, simplifyFilter, simplifySort } from '../../src/conformance/simplify.js';
export type { SimpleClause, SimpleSortItem, SimpleValue } from '../../src/conformance/simplify.js';
