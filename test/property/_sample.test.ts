import fc from 'fast-check';
import { it } from 'vitest';
import { printFilter, printSort } from '../../src/index.js';
import { filterAstArb, filterTextArb, sortTextArb } from '../support/arbitraries.js';
it('sample', () => {
  for (const a of fc.sample(filterAstArb(), 8)) console.log(JSON.stringify(printFilter(a)));
  for (const a of fc.sample(filterTextArb(), 4)) console.log(JSON.stringify(a.text));
  for (const a of fc.sample(sortTextArb(), 4)) console.log(JSON.stringify(a.text));
  const s = fc.sample(filterAstArb(), 1000).map((a) => printFilter(a));
  const stat = (re: RegExp) => s.filter((x) => re.test(x)).length;
  console.log({ groups: stat(/(And|Or)\(/), deep: stat(/(And|Or)\([^;]*(And|Or)\([^;]*(And|Or)\(/), inFieldsQuotedHead: stat(/'\.\w+InFields/), lf: stat(/\n/), emptyQ: stat(/''/), empty: stat(/^$/) });
});
