import fc from 'fast-check';
import { it } from 'vitest';
import { parseFilter, printFilter } from '../../src/index.js';
import { filterAstArb, stripSpans } from '../support/arbitraries.js';
import { isDeepStrictEqual } from 'node:util';
it('probe', () => {
  let n = 0; let worst = 0; let worstText = '';
  const r = fc.check(fc.property(filterAstArb(), (ast) => {
    const text = printFilter(ast);
    const t0 = performance.now();
    const p = parseFilter(text, { limits: { maxLength: 1e6 } });
    const dt = performance.now() - t0;
    if (dt > worst) { worst = dt; worstText = text; }
    n++;
    return isDeepStrictEqual(stripSpans(p.ast), stripSpans(ast));
  }), { numRuns: 400 });
  console.log(n, worst, JSON.stringify(worstText).slice(0, 300));
  console.log(r.failed, JSON.stringify(r.counterexample?.[0] && printFilter(r.counterexample[0] as never)), r.numShrinks);
}, 120000);
