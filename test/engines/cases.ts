/**
 * The random cases of the engines suites (test/engines): records, filters
 * and sorts from the shared generators, with values substituted from the
 * edges where engines have differed — letters newer than an engine's
 * Unicode tables, a leading U+FEFF, final sigma, İ, and datetimes in years
 * 0001–0099, 0100 and 9999.
 */
import fc from 'fast-check';
import type { TypedFilter, TypedFilterNode, TypedScalar, TypedSort } from '../../src/index.js';
import { recordsArb, testSchema, typedFilterArb, typedSortArb } from '../support/typed-arbitraries.js';

/** Cases per engine: 30 in `npm test`, `npm run test:engines` sets 700. */
export const ENGINES_RUNS = Number(process.env.WEPQL_ENGINES_RUNS ?? 30);
/** The fast-check seed of every engines suite. */
export const ENGINES_SEED = Number(process.env.WEPQL_ENGINES_SEED ?? 20261124);

/** Strings where engines have differed: newer letters (U+A7CB Ɤ, U+1C89, U+10D50, U+16EA0), a leading U+FEFF, final sigma, İ. */
export const EDGE_STRINGS: readonly string[] = [
  '\uFEFF;(',
  ']i',
  '\uFEFFa',
  'a\uFEFF',
  '\uA7CB',
  '\u0264',
  '\u1C89',
  '\u1C8A',
  '\u{10D50}',
  '\u{10D70}',
  '\u{16EA0}',
  '\u{16EBB}',
  'ΟΔΟΣ',
  'οδος',
  'οδοσ',
  'İ',
  'i\u0307',
  '\uA7CBa',
  'ɤa',
];

/** Instants in the years where PGlite's client misread timestamps, and the ends of the range. */
export const EDGE_INSTANTS: readonly number[] = [
  Date.parse('0001-01-01T00:00:00.000Z'),
  Date.parse('0050-06-15T12:30:00.000Z'),
  Date.parse('0099-12-31T23:59:59.999Z'),
  Date.parse('0100-01-01T00:00:00.000Z'),
  Date.parse('9999-12-31T23:59:59.999Z'),
];

/** A small deterministic generator for the substitutions (a case's own seed keeps shrinking meaningful). */
function chooser(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

function edgeScalar(value: TypedScalar, pick: (n: number) => number): TypedScalar {
  if (pick(3) !== 0) return value;
  if (typeof value === 'string') return EDGE_STRINGS[pick(EDGE_STRINGS.length)]!;
  if (value instanceof Date) return new Date(EDGE_INSTANTS[pick(EDGE_INSTANTS.length)]!);
  return value;
}

function edgeNode(node: TypedFilterNode, pick: (n: number) => number): TypedFilterNode {
  switch (node.kind) {
    case 'comparison':
      return { ...node, value: edgeScalar(node.value, pick) };
    case 'list':
      return { ...node, values: node.values.map((v) => edgeScalar(v, pick)) };
    case 'in-fields': {
      const value = edgeScalar(node.values[0]!, pick);
      return { ...node, values: node.values.map(() => value) };
    }
    case 'group':
      return { ...node, children: node.children.map((c) => edgeNode(c, pick)) };
    case 'null-check':
      return node;
  }
}

function edgeRecords(records: readonly Record<string, unknown>[], pick: (n: number) => number): Record<string, unknown>[] {
  return records.map((record) => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(record)) {
      const value = record[key];
      const field = testSchema.fields.find((f) => f.path.length === 1 && f.name === key);
      let next = value;
      if (field?.type === 'string' && typeof value === 'string' && pick(3) === 0) next = EDGE_STRINGS[pick(EDGE_STRINGS.length)];
      if (field?.type === 'datetime' && pick(3) === 0) next = new Date(EDGE_INSTANTS[pick(EDGE_INSTANTS.length)]!).toISOString();
      Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
    }
    return out;
  });
}

export interface Case {
  readonly records: Record<string, unknown>[];
  readonly filter: TypedFilter;
  readonly sort: TypedSort | null;
  readonly caseSensitive: boolean;
}

export const caseArb: fc.Arbitrary<Case> = fc
  .record({
    records: recordsArb({ jsonOnly: true, maxLength: 20 }),
    filter: typedFilterArb(),
    sort: fc.option(typedSortArb(), { nil: null }),
    caseSensitive: fc.boolean(),
    seed: fc.integer(),
  })
  .map(({ records, filter, sort, caseSensitive, seed }) => {
    const pick = chooser(seed);
    return {
      records: edgeRecords(records, pick),
      filter: { ...filter, clauses: filter.clauses.map((c) => edgeNode(c, pick)) },
      sort,
      caseSensitive,
    };
  });

/** The values of a filter node (for the fold-table check). */
export function valuesOf(node: TypedFilterNode): unknown {
  switch (node.kind) {
    case 'comparison':
      return [node.value];
    case 'list':
    case 'in-fields':
      return node.values;
    case 'group':
      return node.children.map(valuesOf);
    case 'null-check':
      return [];
  }
}
