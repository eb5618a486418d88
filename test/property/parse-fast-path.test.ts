/**
 * parseFilter reads well-formed text on a hand-written fast path
 * (src/syntax/filter-fast-path.ts); the Chevrotain parser is the definition
 * of the language. Wherever the fast path answers, both must give the same
 * tree, spans included, and the same diagnostics (warnings and infos: the
 * fast path answers only texts without errors); wherever the parser reports
 * no error, the fast path must answer (so it is never silently the slow
 * one). Runs: `WEPQL_FAST_PATH_RUNS` texts per property (2,000 by default;
 * a twentieth of that from filterTextArb, whose texts cost more to make).
 * Run once with WEPQL_FAST_PATH_RUNS=1000000 on the seeded-noise property:
 * 10^6 texts (250,000 trees, four texts each) agreed, in 2,371 s on a busy
 * 2-core machine.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FilterAst, FilterNode } from '../../src/ast/nodes.js';
import { quoteValue } from '../../src/ast/lexical.js';
import { DEFAULT_LIMITS, resolveLimits, type Limits } from '../../src/diagnostics/limits.js';
import { needsQuoting } from '../../src/print/quote.js';
import { readWellFormedFilter } from '../../src/syntax/filter-fast-path.js';
import { parseFilter, parseFilterWithChevrotain, type ParseFilterResult } from '../../src/syntax/parse-filter.js';
import { filterAstArb, filterTextArb, TRICKY_PIECES } from '../support/arbitraries.js';

const RUNS = Number(process.env.WEPQL_FAST_PATH_RUNS ?? 2000);

/** The fast path as parseFilter calls it: only on strings within the length limit. */
function fastPath(text: string, limits: Limits): ParseFilterResult | undefined {
  return text.length <= limits.maxLength ? readWellFormedFilter(text, limits) : undefined;
}

const hasError = (result: ParseFilterResult) => result.diagnostics.some((d) => d.severity === 'error');

/** The same answer: equal values and the same keys in the same order (what JSON, the printer and snapshots see). */
const same = (a: unknown, b: unknown) => isDeepStrictEqual(a, b) && JSON.stringify(a) === JSON.stringify(b);

/**
 * Checks the fast path against the Chevrotain parser on one text: where it
 * answers, the same tree and diagnostics; where it does not, the parser
 * reports an error; and parseFilter answers what the parser does. Plain
 * comparisons first (a million runs), `expect` only to show a difference.
 */
function agree(text: string, partial?: Partial<Limits>): void {
  const options = partial === undefined ? undefined : { limits: partial };
  const slow = parseFilterWithChevrotain(text, options);
  const fast = fastPath(text, resolveLimits(partial));
  if (fast === undefined) {
    if (!hasError(slow)) expect.fail(`the fast path refused ${JSON.stringify(text)}, which the parser reads without an error`);
  } else if (!same(fast, slow)) {
    expect(fast).toStrictEqual(slow);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(slow));
  }
  const result = parseFilter(text, options);
  if (!same(result, slow)) expect(result).toStrictEqual(slow);
}

// --- noisy texts of generated trees, cheaply ---------------------------------
// filterTextArb (test/support/arbitraries.ts) spends most of its time in
// fc.gen; for a million runs, the same kinds of noise are drawn here from a
// seeded generator: keyword case, whitespace between any two tokens (around
// the dots of field paths too), needless quotes, bare dotted InFields heads,
// empty clauses.

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SPACES = ['', '', '', '', ' ', '  ', '\t', '\n', '\r\n'];
const HEAD_SEGMENT = /^[^.;(),'\s]+$/;

function noisyText(ast: FilterAst, random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const sp = () => pick(SPACES);
  const word = (w: string) => (random() < 0.6 ? w : [...w].map((c) => (random() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join(''));
  const path = (names: readonly string[]) => names.map((n) => sp() + n + sp()).join('.');
  const argument = (value: string) => sp() + (needsQuoting(value, 'argument') || random() < 0.3 ? quoteValue(value) : value) + sp();
  const head = (value: string) =>
    value.split('.').every((s) => HEAD_SEGMENT.test(s)) && random() < 0.5
      ? value
          .split('.')
          .map((s) => sp() + s + sp())
          .join('.')
      : sp() + quoteValue(value) + sp();
  const clause = (node: FilterNode): string => {
    switch (node.kind) {
      case 'group':
        return `${word(node.operator)}${sp()}(${clauses(node.children)})`;
      case 'comparison':
        return `${path(node.field.path)}.${sp()}${word(node.operator)}${sp()}(${argument(node.value.value)})`;
      case 'null-check':
        return `${path(node.field.path)}.${word(node.operator)}(${sp()})`;
      case 'list':
        return `${path(node.field.path)}.${word(node.operator)}(${node.values.map((v) => argument(v.value)).join(',')})`;
      case 'in-fields':
        return `${head(node.value.value)}.${word(node.operator)}(${node.fields.map((f) => path(f.path)).join(',')})`;
    }
  };
  const clauses = (nodes: readonly FilterNode[]): string => {
    let out = random() < 0.05 ? ';' : '';
    nodes.forEach((node, i) => {
      if (i > 0) out += sp() + (random() < 0.1 ? ';;' : ';') + sp();
      out += sp() + clause(node) + sp();
    });
    return out + (random() < 0.1 ? ';' : '');
  };
  return clauses(ast.clauses);
}

const cheapText = fc.tuple(filterAstArb(), fc.integer()).map(([ast, seed]) => noisyText(ast, seeded(seed)));

// Pieces of the language and of its values, to break valid texts in every place.
const BREAKERS = ['.', ';', '(', ')', ',', "'", "''", ' ', '\n', 'Or(', 'And', 'x', 'Equal', '\u0000', '\uD800', ...TRICKY_PIECES];

/** A text with one edit: a piece inserted, a stretch deleted, or both. */
const edited = (texts: fc.Arbitrary<string>) =>
  fc.tuple(texts, fc.nat(), fc.nat(3), fc.constantFrom(...BREAKERS)).map(([text, at, cut, piece]) => {
    const i = at % (text.length + 1);
    return text.slice(0, i) + piece + text.slice(i + cut);
  });

const pieceText = fc.array(fc.constantFrom(...BREAKERS), { maxLength: 30 }).map((a) => a.join(''));

describe('the fast path of parseFilter equals the Chevrotain parser', () => {
  it('on noisy texts of generated trees (filterTextArb)', () => {
    fc.assert(
      fc.property(filterTextArb(), ({ text }) => agree(text)),
      { numRuns: Math.ceil(RUNS / 20) },
    );
  });

  // A million texts take about half an hour on a busy machine: the timeout grows with the runs.
  it(
    'on noisy texts of generated trees (filterAstArb with seeded noise, four texts a tree)',
    { timeout: Math.max(60_000, RUNS * 20) },
    () => {
      fc.assert(
        fc.property(filterAstArb(), fc.integer(), (ast, seed) => {
          for (let k = 0; k < 4; k++) agree(noisyText(ast, seeded(seed + k)));
        }),
        { numRuns: Math.ceil(RUNS / 4) },
      );
    },
  );

  it('on those texts with one edit, and on strings of language pieces', () => {
    fc.assert(
      fc.property(fc.oneof(edited(cheapText), pieceText), (text) => agree(text)),
      { numRuns: RUNS },
    );
  });

  it('under tight limits', () => {
    const limits = fc.record(
      {
        maxDepth: fc.nat(4),
        maxConditions: fc.nat(6),
        maxListValues: fc.nat(4),
        maxInFields: fc.nat(3),
        maxErrors: fc.nat(3),
        maxLength: fc.nat(120),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(cheapText, limits, (text, partial) => agree(text, partial)),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  const corpus = (file: string) =>
    (
      JSON.parse(readFileSync(new URL(`../../grammar/corpus/${file}`, import.meta.url), 'utf8')) as {
        cases: { name: string; input: string }[];
      }
    ).cases;

  it.each(corpus('filter-valid.json').map((c) => [c.name, c.input]))('takes and equals the valid corpus case %s', (_name, input) => {
    expect(fastPath(input, DEFAULT_LIMITS)).toBeDefined();
    agree(input);
  });

  it.each(corpus('filter-invalid.json').map((c) => [c.name, c.input]))(
    'leaves the invalid corpus case %s to the parser',
    (_name, input) => {
      expect(fastPath(input, DEFAULT_LIMITS)).toBeUndefined();
      agree(input);
    },
  );

  const nest = (depth: number) => 'Or('.repeat(depth) + 'A.Equal(1);B.Equal(2)' + ';C.IsNull())'.repeat(depth);

  it.each([
    ['a group at the depth limit', nest(DEFAULT_LIMITS.maxDepth), undefined, true],
    ['a group past the depth limit', nest(DEFAULT_LIMITS.maxDepth + 1), undefined, false],
    ['a group past a raised limit, at the ceiling', nest(201), { maxDepth: 1e9, maxLength: 1e6 }, false],
    ['100,000 open groups', 'Or('.repeat(100_000), { maxLength: 1e6 }, false],
    ['conditions at the limit', Array.from({ length: 256 }, (_, i) => `A.Equal(${i})`).join(';'), undefined, true],
    ['one condition past the limit', Array.from({ length: 257 }, (_, i) => `A.Equal(${i})`).join(';'), { maxLength: 1e6 }, false],
    ['a list at the limit', `A.InArray(${'1,'.repeat(499)}1)`, undefined, true],
    ['a list past the limit', `A.InArray(${'1,'.repeat(500)}1)`, undefined, false],
    ['InFields at the limit', `1.EqualInFields(${'A,'.repeat(31)}A)`, undefined, true],
    ['InFields past the limit', `1.EqualInFields(${'A,'.repeat(32)}A)`, undefined, false],
    ['a text past maxLength', `A.Equal(${'x'.repeat(9000)})`, undefined, false],
    ['prototype names', "__proto__.Equal(1);constructor.__proto__.IsNull();'__proto__'.EqualInFields(__proto__,toString)", undefined, true],
    ['a spaced field path and InFields head', 'A . B .Equal( x y );5 . 5.GreaterThanInFields( C . D , E )', undefined, true],
    ['an operator named in another case', 'A.isnull();B.INARRAY(1)', undefined, true],
    ['Or as a field name', 'Or.Equal(1);or . And.IsNull()', undefined, true],
    ['a quoted head spaced from its dot', "'x' . EqualInFields(A)", undefined, true],
    ['empty clauses (warnings)', ';A.Equal(1);;B.IsNull(); ;', undefined, true],
    ['a lone separator', ' ; ', undefined, true],
    ['single-child groups (infos)', 'Or(And(A.Equal(1)));Or(B.IsNull();)', undefined, true],
    ['warnings past maxErrors', ';'.repeat(300), undefined, true],
    ['a field path of 100,000 segments', `${'a.'.repeat(100_000)}Equal(1)`, { maxLength: 1e6 }, true],
    ['an empty group', 'Or()', undefined, false],
    ['a stray )', 'A.Equal(1));B.IsNull()', undefined, false],
  ] as const)('%s', (_name, text, limits, takesFastPath) => {
    const resolved = resolveLimits(limits);
    expect(fastPath(text, resolved) !== undefined).toBe(takesFastPath);
    agree(text, limits);
  });

  it('leaves no prototype pollution through __proto__ field names', () => {
    const fast = fastPath('__proto__.Equal(1)', DEFAULT_LIMITS)!;
    expect(Object.getPrototypeOf(fast.ast.clauses[0])).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).kind).toBeUndefined();
  });
});
