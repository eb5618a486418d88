/**
 * Schema-aware generators for the validator's properties: a random schema,
 * filters whose every value suits its field, and a renderer that writes a
 * filter as text while building the syntax tree with the exact spans the
 * parser gives, so faults can be located in both.
 */
import fc from 'fast-check';
import type { FieldNode, FilterAst, FilterNode, ScalarType, Schema, SortAst, SortDirection, Span, ValueNode } from '../../src/index.js';
import type { GroupOperator, InFieldsOperator, ListOperator, NoValueOperator, SingleValueOperator } from '../../src/ast/operators.js';
import { defineSchema, isOperatorApplicable, operatorKind, operatorsForType } from '../../src/index.js';
import { parseNumberText } from '../../src/schema/values.js';

/** A filter clause before rendering: no spans, no quoting decisions. */
export type Draft =
  | { readonly kind: 'comparison'; readonly field: string; readonly operator: SingleValueOperator; readonly value: string }
  | { readonly kind: 'null-check'; readonly field: string; readonly operator: NoValueOperator }
  | { readonly kind: 'list'; readonly field: string; readonly operator: ListOperator; readonly values: readonly string[] }
  | { readonly kind: 'in-fields'; readonly operator: InFieldsOperator; readonly value: string; readonly fields: readonly string[] }
  | { readonly kind: 'group'; readonly operator: GroupOperator; readonly children: readonly Draft[] };

const TYPES: readonly ScalarType[] = ['string', 'number', 'integer', 'datetime', 'boolean'];

/** A schema of 1–7 scalar fields of random types, sometimes with a nested object. */
export function schemaArb(): fc.Arbitrary<Schema> {
  const names = fc.uniqueArray(fc.stringMatching(/^[A-Z][a-z]{1,6}$/), { minLength: 1, maxLength: 7, selector: (s) => s.toLowerCase() });
  return fc
    .record({
      names,
      types: fc.array(fc.constantFrom(...TYPES), { minLength: 7, maxLength: 7 }),
      nullables: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
      nested: fc.option(fc.constantFrom(...TYPES), { nil: undefined }),
    })
    .map(({ names, types, nullables, nested }) => {
      const fields: Record<string, unknown> = {};
      names.forEach((name, i) => (fields[name] = { type: types[i]!, nullable: nullables[i]! }));
      if (nested !== undefined) fields['Obj_'] = { type: 'object', fields: { Inner: { type: nested } } };
      return defineSchema({ fields } as never);
    });
}

/** Value texts that read as `type`, in the forms people write. */
export function validValueArb(type: ScalarType): fc.Arbitrary<string> {
  switch (type) {
    case 'string':
      return fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('', ' x ', "O'Brien", 'a,b', '(x);y', 'New York', '5.5', 'true'));
    case 'number':
      return fc.oneof(
        fc.integer().map(String),
        fc
          .double({ noNaN: true, noDefaultInfinity: true })
          .map(String)
          .filter((s) => parseNumberText(s) !== undefined),
        fc.constantFrom('1e3', '+1', '-0', '1.50', '2E-3'),
      );
    case 'integer':
      return fc.oneof(fc.maxSafeInteger().map(String), fc.constantFrom('1e3', '3.0', '-0', '+7', '9007199254740991'));
    case 'datetime':
      return fc.oneof(
        fc
          .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true })
          .map((d) => d.toISOString()),
        fc.constantFrom('2024-01-31', '2024-01-31T13:45', '2024-01-01T10:00+02:00', '2024-02-29T23:59:59.123456-05:30'),
      );
    case 'boolean':
      return fc.constantFrom('true', 'false', 'TRUE', 'False');
  }
}

/** Texts that do NOT read as `type` (never out of the integer range: that is its own code). */
export const INVALID_VALUES: Readonly<Record<Exclude<ScalarType, 'string'>, readonly string[]>> = {
  number: ['abc', '.5', '1e', 'NaN', 'Infinity', '0x10', '', '1,5', '1 000'],
  integer: ['abc', '1.5', '0x1', '', '2.000001', 'Infinity'],
  datetime: ['yesterday', '2023-02-30', '2024-13-01', '31/01/2024', '2024-01-31T24:00', ''],
  boolean: ['yes', '1', 'T', '', 'null'],
};

/** A filter of 1–4 clauses, nested at most 3 deep, every value suiting its field. */
export function draftFilterArb(schema: Schema): fc.Arbitrary<Draft[]> {
  const fields = schema.fields;
  const condition: fc.Arbitrary<Draft> = fc.constantFrom(...fields).chain((field) =>
    fc.constantFrom(...operatorsForType(field.type)).chain((operator): fc.Arbitrary<Draft> => {
      switch (operatorKind(operator)) {
        case 'single-value':
          return validValueArb(field.type).map((value) => ({
            kind: 'comparison',
            field: field.name,
            operator: operator as SingleValueOperator,
            value,
          }));
        case 'no-value':
          return fc.constant({ kind: 'null-check', field: field.name, operator: operator as NoValueOperator });
        case 'list':
          return fc
            .array(validValueArb(field.type), { minLength: 1, maxLength: 4 })
            .map((values) => ({ kind: 'list', field: field.name, operator: operator as ListOperator, values }));
        case 'in-fields': {
          // Same-typed fields, so one value suits all of them.
          const peers = fields.filter((f) => f.type === field.type).map((f) => f.name);
          return fc
            .record({ value: validValueArb(field.type), more: fc.subarray(peers, { maxLength: Math.min(3, peers.length) }) })
            .map(({ value, more }) => ({
              kind: 'in-fields',
              operator: operator as InFieldsOperator,
              value,
              fields: [field.name, ...more],
            }));
        }
      }
    }),
  );
  const { tree } = fc.letrec<{ tree: Draft }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', maxDepth: 6, withCrossShrink: true },
      { weight: 3, arbitrary: condition },
      {
        weight: 1,
        arbitrary: fc
          .record({
            operator: fc.constantFrom<GroupOperator>('And', 'Or'),
            children: fc.array(tie('tree'), { minLength: 1, maxLength: 3 }),
          })
          .map(({ operator, children }): Draft => ({ kind: 'group', operator, children })),
      },
    ),
  }));
  return fc.array(tree, { minLength: 1, maxLength: 4 });
}

/** A fault to inject into a valid filter, and the single diagnostic it must cause. */
export type FaultKind = 'unknown-field' | 'invalid-value' | 'operator-not-applicable' | 'integer-out-of-range';

/** Where in the rendered tree the fault's diagnostic must point. */
export interface Fault {
  readonly code: FaultKind;
  /** Child indexes from the top-level clauses down to the condition. */
  readonly path: readonly number[];
  /** Which part of the condition: its field (or InFields field `index`), its operator, or its value (list value `index`). */
  readonly part: 'field' | 'operator' | 'value';
  readonly index: number;
}

interface Target {
  readonly path: readonly number[];
  readonly draft: Exclude<Draft, { kind: 'group' }>;
}

function targets(clauses: readonly Draft[], prefix: readonly number[] = []): Target[] {
  const out: Target[] = [];
  clauses.forEach((c, i) => {
    if (c.kind === 'group') out.push(...targets(c.children, [...prefix, i]));
    else out.push({ path: [...prefix, i], draft: c });
  });
  return out;
}

function replaceAt(clauses: readonly Draft[], path: readonly number[], f: (d: Draft) => Draft): Draft[] {
  const [head, ...rest] = path;
  return clauses.map((c, i) => {
    if (i !== head) return c;
    if (rest.length === 0) return f(c);
    if (c.kind !== 'group') throw new Error('path leaves the tree');
    return { ...c, children: replaceAt(c.children, rest, f) };
  });
}

/**
 * Injects one fault of `code` into a valid draft, or returns undefined when
 * the draft has no condition that can carry it. `choice` picks among the
 * candidates and replacement texts.
 *
 * @example
 * injectFault(schema, draft, 'unknown-field', 3); // { clauses, fault: { code: 'unknown-field', path: [0], part: 'field', index: 0 } }
 */
export function injectFault(
  schema: Schema,
  clauses: readonly Draft[],
  code: FaultKind,
  choice: number,
): { clauses: Draft[]; fault: Fault } | undefined {
  const typeOf = (name: string): ScalarType => {
    const found = schema.lookup(name);
    if (found.found !== 'field') throw new Error(`generated an unknown field ${name}`);
    return found.field.type;
  };
  const candidates = targets(clauses).filter(({ draft }) => {
    switch (code) {
      case 'unknown-field':
        return true;
      case 'invalid-value':
        return (draft.kind === 'comparison' || draft.kind === 'list') && typeOf(draft.field) !== 'string'
          ? true
          : draft.kind === 'in-fields' && typeOf(draft.fields[0]!) !== 'string';
      case 'integer-out-of-range':
        return (draft.kind === 'comparison' || draft.kind === 'list') && typeOf(draft.field) === 'integer';
      case 'operator-not-applicable':
        return draft.kind === 'comparison';
    }
  });
  if (candidates.length === 0) return undefined;
  const { path } = candidates[choice % candidates.length]!;
  const pickFrom = <T>(xs: readonly T[]): T => xs[Math.floor(choice / 7) % xs.length]!;
  let index = 0;
  let part: Fault['part'];
  const next = replaceAt(clauses, path, (d): Draft => {
    const c = d as Target['draft'];
    switch (code) {
      case 'unknown-field':
        part = 'field';
        // `Unknown_` never collides: generated names have no underscore.
        return c.kind === 'in-fields' ? { ...c, fields: ['Unknown_', ...c.fields.slice(1)] } : { ...c, field: 'Unknown_' };
      case 'invalid-value':
      case 'integer-out-of-range': {
        part = 'value';
        const type = typeOf(c.kind === 'in-fields' ? c.fields[0]! : (c as { field: string }).field) as Exclude<ScalarType, 'string'>;
        const bad = code === 'integer-out-of-range' ? pickFrom(['9007199254740992', '-1e300', '1e16']) : pickFrom(INVALID_VALUES[type]);
        if (c.kind === 'list') {
          index = choice % c.values.length;
          return { ...c, values: c.values.map((v, i) => (i === index ? bad : v)) };
        }
        return { ...(c as { value: string } & Draft), value: bad } as Draft;
      }
      case 'operator-not-applicable': {
        part = 'operator';
        const cmp = c as Extract<Draft, { kind: 'comparison' }>;
        const type = typeOf(cmp.field);
        const wrong = (['LessThan', 'GreaterThanOrEqual', 'Contains', 'NotStartsWith', 'EndsWith'] as const).filter(
          (op) => !isOperatorApplicable(op, type),
        );
        return { ...cmp, operator: pickFrom(wrong) };
      }
    }
  });
  return { clauses: next, fault: { code, path, part: part!, index } };
}

// --- rendering -------------------------------------------------------------

const BARE_ARGUMENT = /^[A-Za-z0-9_+\-:.]+$/;
const BARE_HEAD = /^[A-Za-z0-9_+\-:]+$/;

/** Writes a draft filter as text and builds its syntax tree with the parser's spans. */
export function renderFilter(clauses: readonly Draft[]): { text: string; ast: FilterAst } {
  let text = '';
  const value = (v: string, head: boolean): ValueNode => {
    const bare = (head ? BARE_HEAD : BARE_ARGUMENT).test(v);
    const raw = bare ? v : `'${v.replaceAll("'", "''")}'`;
    const start = text.length;
    text += raw;
    return { kind: 'value', value: v, quoted: !bare, raw, span: { start, end: text.length } };
  };
  const field = (name: string): FieldNode => {
    const start = text.length;
    text += name;
    return { kind: 'field', path: name.split('.'), name, span: { start, end: text.length } };
  };
  const operator = (op: string): Span => {
    const start = text.length;
    text += op;
    return { start, end: text.length };
  };
  const node = (d: Draft): FilterNode => {
    const start = text.length;
    switch (d.kind) {
      case 'group': {
        const operatorSpan = operator(d.operator);
        text += '(';
        const children = d.children.map((c, i) => {
          if (i > 0) text += ';';
          return node(c);
        });
        text += ')';
        return { kind: 'group', operator: d.operator, operatorSpan, children, span: { start, end: text.length } };
      }
      case 'comparison': {
        const f = field(d.field);
        text += '.';
        const operatorSpan = operator(d.operator);
        text += '(';
        const v = value(d.value, false);
        text += ')';
        return { kind: 'comparison', field: f, operator: d.operator, operatorSpan, value: v, span: { start, end: text.length } };
      }
      case 'null-check': {
        const f = field(d.field);
        text += '.';
        const operatorSpan = operator(d.operator);
        text += '()';
        return { kind: 'null-check', field: f, operator: d.operator, operatorSpan, span: { start, end: text.length } };
      }
      case 'list': {
        const f = field(d.field);
        text += '.';
        const operatorSpan = operator(d.operator);
        text += '(';
        const values = d.values.map((v, i) => {
          if (i > 0) text += ',';
          return value(v, false);
        });
        text += ')';
        return { kind: 'list', field: f, operator: d.operator, operatorSpan, values, span: { start, end: text.length } };
      }
      case 'in-fields': {
        const v = value(d.value, true);
        text += '.';
        const operatorSpan = operator(d.operator);
        text += '(';
        const fields = d.fields.map((name, i) => {
          if (i > 0) text += ',';
          return field(name);
        });
        text += ')';
        return { kind: 'in-fields', value: v, operator: d.operator, operatorSpan, fields, span: { start, end: text.length } };
      }
    }
  };
  const top = clauses.map((c, i) => {
    if (i > 0) text += ';';
    return node(c);
  });
  return { text, ast: { kind: 'filter', clauses: top, span: { start: 0, end: text.length } } };
}

/** The span a fault's diagnostic must have in a rendered tree. */
export function faultSpan(ast: FilterAst, fault: Fault): Span {
  let nodes: readonly FilterNode[] = ast.clauses;
  let node: FilterNode | undefined;
  for (const i of fault.path) {
    node = nodes[i]!;
    if (node.kind === 'group') nodes = node.children;
  }
  if (node === undefined || node.kind === 'group') throw new Error('fault path does not reach a condition');
  if (fault.part === 'operator') return node.operatorSpan;
  if (fault.part === 'field') return node.kind === 'in-fields' ? node.fields[fault.index]!.span : node.field.span;
  if (node.kind === 'list') return node.values[fault.index]!.span;
  if (node.kind === 'comparison' || node.kind === 'in-fields') return node.value.span;
  throw new Error('fault on a value of a node without one');
}

/** Writes a sort and builds its tree with spans. */
export function renderSort(items: readonly { field: string; direction: SortDirection }[]): { text: string; ast: SortAst } {
  let text = '';
  const nodes = items.map((item, i) => {
    if (i > 0) text += ';';
    const start = text.length;
    text += item.field;
    const field: FieldNode = { kind: 'field', path: item.field.split('.'), name: item.field, span: { start, end: text.length } };
    text += `=${item.direction}`;
    return { kind: 'sort-item' as const, field, direction: item.direction, explicitDirection: true, span: { start, end: text.length } };
  });
  return { text, ast: { kind: 'sort', items: nodes, span: { start: 0, end: text.length } } };
}
