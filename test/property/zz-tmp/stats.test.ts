import fc from 'fast-check';
import { it } from 'vitest';
import { recordArb, typedFilterArb, typedFilterText } from './typed-arbitraries.js';
import { referenceMatches } from './reference-evaluator.js';
it('stats', () => {
  let t = 0, n = 0;
  const fs = fc.sample(typedFilterArb(), 300); const rs = fc.sample(recordArb(), 50);
  for (const f of fs) for (const r of rs) { n++; if (referenceMatches(f, r)) t++; }
  console.log('true fraction', t / n);
  console.log(fs.slice(0, 5).map(typedFilterText));
  console.log(rs.slice(0, 3));
});
