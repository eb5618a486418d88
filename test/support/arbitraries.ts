/**
 * fast-check arbitraries for wepql trees and texts, shared by every
 * property test.
 *
 * - `filterAstArb` / `sortAstArb` build trees the way the canonical printer
 *   would write them back: spans are `NO_SPAN`, and each value's `quoted` /
 *   `raw` are what the printer writes, so `stripSpans(parse(print(t)))` must
 *   equal `stripSpans(t)` exactly.
 * - `filterTextArb` / `sortTextArb` pair a tree with a *noisy* source text
 *   for it: random keyword case, whitespace between tokens, needless quotes,
 *   bare dotted InFields heads, empty clauses, implicit `Asc`. Compare the
 *   parse of that text with `normalizeAst`, which also forgets how values
 *   were written.
 * - Values cover every character that matters to the lexer: `, ( ) ; '`,
 *   `.`, leading/trailing/inner space, tab, CR, LF, Unicode spaces that are
 *   NOT whitespace in wepql (U+00A0, U+2028, U+FEFF), astral characters and
 *   the empty string; never U+0000 or a lone surrogate (invalid by docs/reference.md §"Limits").
 */
import fc from 'fast-check';
import type {
  ComparisonNode,
  ConditionNode,
  FieldNode,
  FilterAst,
  FilterNode,
  GroupNode,
  InFieldsNode,
  ListNode,
  NullCheckNode,
  SortAst,
  SortItemNode,
  ValueNode,
} from '../../src/index.js';
import {
  GROUP_OPERATORS,
  IN_FIELDS_OPERATORS,
  LIST_OPERATORS,
  NO_VALUE_OPERATORS,
  SINGLE_VALUE_OPERATORS,
} from '../../src/ast/operators.js';
import { NO_SPAN, SORT_DIRECTIONS, quoteValue } from '../../src/index.js';
import { needsQuoting } from '../../src/print/format.js';

/** Pieces that stress the lexer; strings are built from them. */
export const TRICKY_PIECES: readonly string[] = [
  "'",
  "''",
  ',',
  '(',
  ')',
  ';',
  '.',
  '..',
  '=',
  '\\',
  '"',
  '%',
  '_',
  '*',
  '?',
  '[',
  ']',
  '{',
  '}',
  '<',
  '>',
  '&',
  '|',
  '!',
  '#',
  '/',
  ':',
  '+',
  '-',
  ' ',
  '  ',
  '\t',
  '\r',
  '\n',
  '\r\n',
  '\u000b',
  '\u000c',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\u3000',
  'a',
  'Z',
  'e',
  '0',
  '1',
  '9',
  'é',
  'ß',
  'İ',
  'Σ',
  '日本',
  '😀',
  '𝄞',
  '👩‍👩‍👧',
  'And',
  'Or',
  'Equal',
  'IsNull',
  'Asc',
  'Desc',
  'null',
  'true',
  '__proto__',
];

/** Values as the language sees them: strings with no U+0000 and no lone surrogate. */
export function valueStringArb(options: { maxLength?: number } = {}): fc.Arbitrary<string> {
  const maxLength = options.maxLength ?? 8;
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom(...TRICKY_PIECES), maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength }).map((s) => s.replaceAll('\u0000', '')) },
    { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.integer().map(String),
        fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
        fc.constantFrom('1e3', '5.5', '-0', '+1', '2024-01-01', '2024-01-01T00:00:00.000Z', '2024-01-01T10:00+02:00', 'TRUE', 'false'),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', "'", "''", ' x ', 'New York', 'a\tb', 'a\r\nb', "O'Brien", 'a,b', '(x)', 'x;y') },
  );
}

/** A value node written the canonical way for `position`. */
export function valueNodeArb(position: 'argument' | 'in-fields-head' = 'argument'): fc.Arbitrary<ValueNode> {
  return valueStringArb().map((value) => canonicalValue(value, position));
}

/** The value node the canonical printer writes for `value`. */
export function canonicalValue(value: string, position: 'argument' | 'in-fields-head' = 'argument'): ValueNode {
  const quoted = needsQuoting(value, position);
  return { kind: 'value', value, quoted, raw: quoted ? quoteValue(value) : value, span: NO_SPAN };
}

/** One field path segment: an identifier, often a keyword or a prototype name. */
export function fieldSegmentArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'And',
        'Or',
        'or',
        'AND',
        'Equal',
        'IsNull',
        'InArray',
        'EqualInFields',
        'Asc',
        'Desc',
        '__proto__',
        'constructor',
        'prototype',
        'toString',
        'hasOwnProperty',
        '_',
        'A1',
      ),
    },
  );
}

/** A field path of one to three segments. */
export function fieldNodeArb(): fc.Arbitrary<FieldNode> {
  return fc
    .array(fieldSegmentArb(), { minLength: 1, maxLength: 3 })
    .map((path): FieldNode => ({ kind: 'field', path, name: path.join('.'), span: NO_SPAN }));
}

/** Any condition, with all 26 operators in their four shapes. */
export function conditionArb(): fc.Arbitrary<ConditionNode> {
  const comparison = fc
    .record({ field: fieldNodeArb(), operator: fc.constantFrom(...SINGLE_VALUE_OPERATORS), value: valueNodeArb() })
    .map((r): ComparisonNode => ({ kind: 'comparison', ...r, operatorSpan: NO_SPAN, span: NO_SPAN }));
  const nullCheck = fc
    .record({ field: fieldNodeArb(), operator: fc.constantFrom(...NO_VALUE_OPERATORS) })
    .map((r): NullCheckNode => ({ kind: 'null-check', ...r, operatorSpan: NO_SPAN, span: NO_SPAN }));
  const list = fc
    .record({
      field: fieldNodeArb(),
      operator: fc.constantFrom(...LIST_OPERATORS),
      values: fc.array(valueNodeArb(), { minLength: 1, maxLength: 4 }),
    })
    .map((r): ListNode => ({ kind: 'list', ...r, operatorSpan: NO_SPAN, span: NO_SPAN }));
  const inFields = fc
    .record({
      value: valueNodeArb('in-fields-head'),
      operator: fc.constantFrom(...IN_FIELDS_OPERATORS),
      fields: fc.array(fieldNodeArb(), { minLength: 1, maxLength: 3 }),
    })
    .map((r): InFieldsNode => ({ kind: 'in-fields', ...r, operatorSpan: NO_SPAN, span: NO_SPAN }));
  return fc.oneof(comparison, nullCheck, list, inFields);
}

/** Options of `filterAstArb`. */
export interface FilterAstArbOptions {
  /** Deepest group nesting generated (0: no groups). Default 3. */
  readonly maxDepth?: number;
  /** Most top-level clauses. Default 4. */
  readonly maxClauses?: number;
  /** Most children of one group. Default 3. */
  readonly maxChildren?: number;
}

/** Filter trees: conditions and nested And/Or groups, possibly empty. */
export function filterAstArb(options: FilterAstArbOptions = {}): fc.Arbitrary<FilterAst> {
  const maxDepth = options.maxDepth ?? 3;
  const { clause } = fc.letrec<{ clause: FilterNode; group: GroupNode }>((tie) => ({
    clause: fc.oneof(
      { maxDepth, depthIdentifier: 'wepql-group' },
      { weight: 3, arbitrary: conditionArb() },
      { weight: 2, arbitrary: tie('group') },
    ),
    group: fc
      .record({
        operator: fc.constantFrom(...GROUP_OPERATORS),
        children: fc.array(tie('clause'), { minLength: 1, maxLength: options.maxChildren ?? 3 }),
      })
      .map((r): GroupNode => ({ kind: 'group', ...r, operatorSpan: NO_SPAN, span: NO_SPAN })),
  }));
  // An empty filter is one case; without the weighting it would be a fifth of all samples.
  const clauses = fc.oneof(
    { weight: 1, arbitrary: fc.constant([]) },
    { weight: 12, arbitrary: fc.array(clause, { minLength: 1, maxLength: options.maxClauses ?? 4 }) },
  );
  return clauses.map((list): FilterAst => ({ kind: 'filter', clauses: list, span: NO_SPAN }));
}

/** Sort trees of up to `maxItems` keys (duplicates included), every direction explicit. */
export function sortAstArb(options: { maxItems?: number } = {}): fc.Arbitrary<SortAst> {
  const item = fc
    .record({ field: fieldNodeArb(), direction: fc.constantFrom(...SORT_DIRECTIONS) })
    .map((r): SortItemNode => ({ kind: 'sort-item', ...r, explicitDirection: true, span: NO_SPAN }));
  return fc.array(item, { maxLength: options.maxItems ?? 8 }).map((items): SortAst => ({ kind: 'sort', items, span: NO_SPAN }));
}

const POSITION_KEYS: ReadonlySet<string> = new Set(['span', 'operatorSpan']);
const SOURCE_KEYS: ReadonlySet<string> = new Set(['span', 'operatorSpan', 'raw', 'quoted', 'explicitDirection']);

function withoutKeys(value: unknown, keys: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutKeys(v, keys));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!keys.has(k)) Object.defineProperty(out, k, { value: withoutKeys(v, keys), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A deep copy without `span` and `operatorSpan`: trees compared ignoring source positions. */
export function stripSpans(node: unknown): unknown {
  return withoutKeys(node, POSITION_KEYS);
}

/**
 * A deep copy without anything that records how the source was written:
 * `span`, `operatorSpan`, `raw`, `quoted` and `explicitDirection`. Two texts
 * that mean the same tree normalize equal.
 */
export function normalizeAst(node: unknown): unknown {
  return withoutKeys(node, SOURCE_KEYS);
}

// --- noisy source texts -------------------------------------------------

type Gen = fc.GeneratorValue;

const SPACES = ['', '', '', ' ', '  ', '\t', '\n', '\r\n', ' \n  '];

function space(g: Gen): string {
  return g(fc.constantFrom, ...SPACES);
}

function anyCase(g: Gen, word: string): string {
  const style = g(fc.constantFrom, 'as-is', 'as-is', 'lower', 'upper', 'mixed');
  if (style === 'lower') return word.toLowerCase();
  if (style === 'upper') return word.toUpperCase();
  if (style === 'mixed') {
    const flips = g(fc.array, fc.boolean(), { minLength: word.length, maxLength: word.length });
    return [...word].map((c, i) => (flips[i] ? c.toUpperCase() : c.toLowerCase())).join('');
  }
  return word;
}

function noisyArgument(g: Gen, value: string): string {
  const quote = needsQuoting(value, 'argument') || g(fc.boolean);
  return space(g) + (quote ? quoteValue(value) : value) + space(g);
}

// A head value may be written bare as dot-separated segments when each
// segment is a non-empty run of head characters (docs/reference.md §"Filter grammar": `5.5.Op(...)`).
const HEAD_SEGMENT = /^[^.;(),'\s]+$/;

function noisyHead(g: Gen, value: string): string {
  const segments = value.split('.');
  const bareOk = segments.every((s) => HEAD_SEGMENT.test(s));
  return bareOk && g(fc.boolean) ? value : quoteValue(value);
}

function noisyClauses(g: Gen, clauses: readonly FilterNode[]): string {
  let out = space(g);
  clauses.forEach((clause, i) => {
    if (i > 0) out += space(g) + (g(fc.integer, { min: 0, max: 5 }) === 0 ? ';;' : ';') + space(g);
    out += noisyClause(g, clause);
  });
  if (clauses.length > 0 && g(fc.integer, { min: 0, max: 5 }) === 0) out += ';';
  return out + space(g);
}

function noisyClause(g: Gen, node: FilterNode): string {
  switch (node.kind) {
    case 'group':
      return `${anyCase(g, node.operator)}(${noisyClauses(g, node.children)})`;
    case 'comparison':
      return `${node.field.name}.${anyCase(g, node.operator)}(${noisyArgument(g, node.value.value)})`;
    case 'null-check':
      return `${node.field.name}.${anyCase(g, node.operator)}(${space(g)})`;
    case 'list':
      return `${node.field.name}.${anyCase(g, node.operator)}(${node.values.map((v) => noisyArgument(g, v.value)).join(',')})`;
    case 'in-fields':
      return `${noisyHead(g, node.value.value)}.${anyCase(g, node.operator)}(${node.fields
        .map((f) => space(g) + f.name + space(g))
        .join(',')})`;
  }
}

/** A filter tree and a noisy text that parses to it (compare with `normalizeAst`). */
export function filterTextArb(options: FilterAstArbOptions = {}): fc.Arbitrary<{ ast: FilterAst; text: string }> {
  return fc.tuple(filterAstArb(options), fc.gen()).map(([ast, g]) => ({ ast, text: noisyClauses(g, ast.clauses) }));
}

/** A sort tree and a noisy text that parses to it (compare with `normalizeAst`). */
export function sortTextArb(options: { maxItems?: number } = {}): fc.Arbitrary<{ ast: SortAst; text: string }> {
  return fc.tuple(sortAstArb(options), fc.gen()).map(([ast, g]) => {
    const items = ast.items.map((item) => {
      const implicit = item.direction === 'Asc' && g(fc.boolean);
      return implicit ? item.field.name : `${item.field.name}${space(g)}=${space(g)}${anyCase(g, item.direction)}`;
    });
    return { ast, text: space(g) + items.join(`${space(g)};${space(g)}`) + space(g) };
  });
}
