/**
 * Plain-English explanations of filters and sorts, for people reading a
 * saved filter or a request log: `LastName.StartsWith(Sm);Or(Gender.Equal(1);Salary.GreaterThan(1000))`
 * reads `last name starts with "Sm" and (gender is 1 or salary is greater than 1000)`.
 *
 * With a schema the wording follows each field's type (datetimes are
 * "before"/"after", a string sort is "A→Z"); without one it is guessed
 * from the operator and the value.
 *
 * Null (docs/reference.md §"Filter semantics": missing, `undefined` or `null`) reads
 * "not set" — never
 * "empty", which a reader could take for the empty string `''`. Every
 * operator is false on a null field except `IsNull` and the `…OrNull` lists,
 * so the negative operators (`NotEqual`, `NotContains`, `NotStartsWith`,
 * `NotEndsWith`, `NotInArray`) say "(and is set)" whenever the field may be
 * null: always without a schema, and with one when the field or an object
 * around it is nullable. Text values are shown in double quotes with
 * invisible and direction-changing characters escaped (`\u202e`), so the
 * sentence shows what the filter really tests.
 */
import { foldFilterWith, skipChildren, type FoldWithHandlers } from '../ast/fold.js';
import type { ComparisonNode, FieldNode, FilterAst, FilterNode, InFieldsNode, ListNode, SortAst, ValueNode } from '../ast/nodes.js';
import type { FilterOperator, GroupOperator, ListOperator, SingleValueOperator, SortDirection } from '../ast/operators.js';
import { baseOperatorOfInFields, OPERATORS } from '../ast/operators.js';
import { operatorFacts } from '../ast/operator-facts.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { hasErrors } from '../diagnostics/diagnostic.js';
import type { Limits } from '../diagnostics/limits.js';
import { resolveLimits } from '../diagnostics/limits.js';
import { dayRangeFilter, midnightInstant } from '../schema/date-only.js';
import type { FieldDefinition, Schema } from '../schema/schema.js';
import type { ScalarType } from '../schema/values.js';
import { parseBooleanText, parseDatetimeText, parseNumberText } from '../schema/values.js';
import { parseFilter } from '../syntax/parse-filter.js';
import { parseSort } from '../syntax/parse-sort.js';
import { analyzeFilter, analyzeSort } from '../validate/analyze.js';
import { fieldWords } from './words.js';

/**
 * Options for `explain`.
 *
 * @example
 * explain('CreatedOn=Desc', { kind: 'sort', schema: employeeSchema } satisfies ExplainOptions).value; // 'by created on (newest first)'
 */
export interface ExplainOptions {
  /** Validates text input and chooses wording by each field's type and spelling. */
  readonly schema?: Schema;
  /** Whether text input is a filter (default) or a sort. Trees say what they are. */
  readonly kind?: 'filter' | 'sort';
  /** Bounds on the input; only `maxDepth` matters for trees passed in. */
  readonly limits?: Partial<Limits>;
}

/**
 * The explanation, or the diagnostics that prevented one.
 *
 * @example
 * const { value, diagnostics }: ExplainResult = explain('Gender.Equals(1)');
 * // value: undefined; diagnostics[0].code: 'unknown-operator'
 */
export interface ExplainResult {
  /** The sentence; undefined when the input has errors. */
  readonly value: string | undefined;
  /** Every diagnostic of parsing (and, with a schema, validating) text input. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Says what a filter or a sort means in plain English. Text input is parsed
 * (and validated when a schema is given); input with errors gets no
 * explanation, only its diagnostics. Never throws.
 *
 * Filters: field names become lower-case words, `;` and `And` read "and",
 * `Or` reads "or", and a group is parenthesised only where its meaning
 * would otherwise change. Sorts: `by last name (A→Z), then by created on
 * (newest first)`, the wording chosen by the field's type.
 *
 * @example
 * explain('LastName.StartsWith(Sm);Or(Gender.Equal(1);Salary.GreaterThan(1000))').value;
 * // 'last name starts with "Sm" and (gender is 1 or salary is greater than 1000)'
 * explain('LastName=Asc;CreatedOn=Desc', { kind: 'sort', schema: employeeSchema }).value;
 * // 'by last name (A→Z), then by created on (newest first)'
 */
export function explain(input: string | FilterAst | SortAst, options: ExplainOptions = {}): ExplainResult {
  const { schema } = options;
  if (typeof input !== 'string') {
    if (input.kind === 'sort') return { value: explainSortAst(input, schema), diagnostics: [] };
    return explainFilterTree(input, options, []);
  }
  if (options.kind === 'sort') {
    const parsed = schema === undefined ? parseSortText(input, options) : analyzeSortText(input, schema, options);
    if (parsed.ast === undefined || hasErrors(parsed.diagnostics)) return { value: undefined, diagnostics: parsed.diagnostics };
    return { value: explainSortAst(parsed.ast, schema), diagnostics: parsed.diagnostics };
  }
  const parsed = schema === undefined ? parseFilterText(input, options) : analyzeFilterText(input, schema, options);
  if (parsed.ast === undefined || hasErrors(parsed.diagnostics)) return { value: undefined, diagnostics: parsed.diagnostics };
  return explainFilterTree(parsed.ast, options, parsed.diagnostics);
}

interface Parsed<T> {
  readonly ast: T | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

function parseFilterText(text: string, options: ExplainOptions): Parsed<FilterAst> {
  const r = parseFilter(text, { limits: options.limits });
  return { ast: r.ast, diagnostics: r.diagnostics };
}

function parseSortText(text: string, options: ExplainOptions): Parsed<SortAst> {
  const r = parseSort(text, { limits: options.limits });
  return { ast: r.ast, diagnostics: r.diagnostics };
}

function analyzeFilterText(text: string, schema: Schema, options: ExplainOptions): Parsed<FilterAst> {
  const r = analyzeFilter(text, { schema, limits: options.limits });
  return { ast: r.ast, diagnostics: r.diagnostics };
}

function analyzeSortText(text: string, schema: Schema, options: ExplainOptions): Parsed<SortAst> {
  const r = analyzeSort(text, { schema, limits: options.limits });
  return { ast: r.ast, diagnostics: r.diagnostics };
}

function explainFilterTree(ast: FilterAst, options: ExplainOptions, diagnostics: readonly Diagnostic[]): ExplainResult {
  const maxDepth = resolveLimits(options.limits).maxDepth;
  // Trees built by code have not been through the parser's depth check; the
  // recursion below must stay bounded anyway.
  const tooDeep = findTooDeep(ast.clauses, maxDepth);
  if (tooDeep !== undefined) {
    const d: Diagnostic = {
      code: 'nesting-too-deep',
      severity: 'error',
      message: `groups nest deeper than ${maxDepth} levels (the maxDepth limit)`,
      start: tooDeep.span.start,
      end: tooDeep.span.end,
    };
    return { value: undefined, diagnostics: [...diagnostics, d] };
  }
  const words = new Words(options.schema);
  const value = ast.clauses.length === 0 ? 'every record' : words.top(ast.clauses);
  return { value, diagnostics };
}

/**
 * The group that passes `maxDepth`, if any: the last one in text order of
 * those one level too deep (the walk enters no group deeper than that).
 */
function findTooDeep(clauses: readonly FilterNode[], maxDepth: number): FilterNode | undefined {
  const none = (): undefined => undefined;
  const last = (found: readonly (FilterNode | undefined)[]): FilterNode | undefined => {
    for (let i = found.length - 1; i >= 0; i--) if (found[i] !== undefined) return found[i];
    return undefined;
  };
  // The context is the depth of the groups around a node.
  const found = foldFilterWith<FilterNode, number, FilterNode | undefined>(
    clauses,
    {
      group: { enter: (group, depth) => (depth + 1 > maxDepth ? skipChildren(group) : depth + 1), leave: (_group, inside) => last(inside) },
      comparison: none,
      'null-check': none,
      list: none,
      'in-fields': none,
    },
    0,
    none,
  );
  return last(found);
}

/** A "not x" operator that is false on a null field, though a reader might expect it to include "no value". */
function surprisesOnNull(op: FilterOperator): boolean {
  const info = OPERATORS[op];
  return info.negative && !info.nullMatches;
}

// Every operator has its wording here: a new operator does not compile
// until it has one. [for numbers and text, for datetimes] An InFields
// operator reads like its base operator; a list operator's values, and the
// "or is not set" of an `…OrNull` list, are added by `listPhrase`.
const PHRASES: Readonly<Record<FilterOperator, readonly [number: string, time: string]>> = {
  Equal: ['is', 'is'],
  NotEqual: ['is not', 'is not'],
  LessThan: ['is less than', 'is before'],
  LessThanOrEqual: ['is less than or equal to', 'is on or before'],
  GreaterThan: ['is greater than', 'is after'],
  GreaterThanOrEqual: ['is greater than or equal to', 'is on or after'],
  Contains: ['contains', 'contains'],
  StartsWith: ['starts with', 'starts with'],
  EndsWith: ['ends with', 'ends with'],
  NotContains: ['does not contain', 'does not contain'],
  NotStartsWith: ['does not start with', 'does not start with'],
  NotEndsWith: ['does not end with', 'does not end with'],
  IsNull: ['is not set', 'is not set'],
  IsNotNull: ['is set', 'is set'],
  InArray: ['is', 'is'],
  InArrayOrNull: ['is', 'is'],
  NotInArray: ['is not', 'is not'],
  NotInArrayOrNull: ['is not', 'is not'],
  EqualInFields: ['is', 'is'],
  LessThanInFields: ['is less than', 'is before'],
  LessThanOrEqualInFields: ['is less than or equal to', 'is on or before'],
  GreaterThanInFields: ['is greater than', 'is after'],
  GreaterThanOrEqualInFields: ['is greater than or equal to', 'is on or after'],
  ContainsInFields: ['contains', 'contains'],
  StartsWithInFields: ['starts with', 'starts with'],
  EndsWithInFields: ['ends with', 'ends with'],
};

/** The wording of one filter, with the schema it may consult. */
class Words {
  constructor(private readonly schema: Schema | undefined) {}

  /** The top-level clauses, ANDed; a lone clause needs no brackets whatever it is. */
  top(clauses: readonly FilterNode[]): string {
    if (clauses.length === 1) return foldFilterWith(clauses, this.clause, undefined)[0]!;
    return foldFilterWith(clauses, this.clause, 'And').join(' and ');
  }

  /**
   * The wording of each kind of clause, given the operator that joins it to
   * its siblings (undefined: it stands alone).
   */
  private readonly clause: FoldWithHandlers<FilterNode, GroupOperator | undefined, string> = {
    group: {
      // A one-child group means its child, read in the group's place.
      enter: (group, parent) => (group.children.length === 1 ? parent : group.operator),
      leave: (group, texts, parent) => {
        if (texts.length === 1) return texts[0]!;
        const text = texts.join(group.operator === 'And' ? ' and ' : ' or ');
        // `And` inside `And` (or `Or` inside `Or`) reads the same without brackets.
        return parent === undefined || parent === group.operator ? text : `(${text})`;
      },
    },
    comparison: (comparison) => this.comparison(comparison),
    'null-check': (check) => `${this.name(check.field)} ${phrase(check.operator, undefined)}`,
    list: (list) => this.list(list),
    'in-fields': (inFields) => this.inFields(inFields),
  };

  private comparison(node: ComparisonNode): string {
    const type = this.typeOf(node.field, node.operator, node.value.value);
    const facts = operatorFacts(node.operator);
    const equality = facts.test.kind === 'compare' && facts.test.relation === '=';
    const instant = equality ? this.dateOnly(node.field, [node.value], facts.negated) : undefined;
    const text = `${this.name(node.field)} ${phrase(node.operator, type)} ${instant?.values ?? this.value(node.value, type)}`;
    const withNull = surprisesOnNull(node.operator) ? this.unlessNull(text, node.field) : text;
    return instant === undefined ? withNull : `${withNull}${instant.note}`;
  }

  private list(node: ListNode): string {
    const type = this.listType(node.field, node.values);
    const facts = operatorFacts(node.operator);
    const plainList = !facts.negated && !facts.nullMatches;
    const instant = plainList ? this.dateOnly(node.field, node.values, false) : undefined;
    const shown = node.values.map((v) => (instant === undefined ? this.value(v, type) : `exactly ${midnightInstant(v.value)}`));
    const text = `${this.name(node.field)} ${listPhrase(node.operator, shown)}`;
    if (instant !== undefined) return `${text}${instant.note}`;
    return surprisesOnNull(node.operator) ? this.unlessNull(text, node.field) : text;
  }

  private inFields(node: InFieldsNode): string {
    const base = baseOperatorOfInFields(node.operator);
    // One wording for all the fields: the first field with a known type decides.
    const types = node.fields.map((f) => this.typeOf(f, base, node.value.value));
    const type = types.find((t) => t !== undefined);
    const subject = joinOr(node.fields.map((f) => this.name(f)));
    return `${subject} ${phrase(node.operator, type)} ${this.value(node.value, type)}`;
  }

  /**
   * docs/reference.md §"Filter semantics": a negative operator is false on a null field,
   * which a reader of
   * "is not 1" would not guess; say so when the field may be null.
   */
  private unlessNull(text: string, field: FieldNode): string {
    return this.mayBeNull(field) ? `${text} (and is set)` : text;
  }

  /** Without a schema any field may be null; with one, a nullable field or a field inside a nullable object. */
  private mayBeNull(field: FieldNode): boolean {
    const found = this.schema?.lookup(field.name);
    if (found?.found !== 'field') return true;
    if (found.field.nullable) return true;
    let fields: Readonly<Record<string, FieldDefinition>> | undefined = this.schema?.definition.fields;
    for (const segment of found.field.path.slice(0, -1)) {
      const def: FieldDefinition | undefined = fields !== undefined && Object.hasOwn(fields, segment) ? fields[segment] : undefined;
      if (def === undefined || def.type !== 'object') return false;
      if (def.nullable === true) return true;
      fields = def.fields;
    }
    return false;
  }

  /**
   * A schema datetime compared with dates that have no time compares
   * instants (midnight UTC), not days: say which instant, and which filter
   * means the day. Undefined when that does not apply.
   */
  private dateOnly(field: FieldNode, values: readonly ValueNode[], negate: boolean): { values: string; note: string } | undefined {
    const found = this.schema?.lookup(field.name);
    if (found?.found !== 'field' || found.field.type !== 'datetime') return undefined;
    const range = dayRangeFilter(
      found.field.name,
      values.map((v) => v.value),
      negate,
    );
    if (range === undefined) return undefined;
    const many = values.length > 1;
    return {
      values: values.map((v) => `exactly ${midnightInstant(v.value)}`).join(', '),
      note: ` (${many ? 'those instants' : 'that instant'} only, not the whole day${many ? 's' : ''}; ${negate ? 'to leave out the whole day' : `for the whole day${many ? 's' : ''}`}: ${range})`,
    };
  }

  private name(field: FieldNode): string {
    const found = this.schema?.lookup(field.name);
    return fieldWords(found?.found === 'field' ? found.field.name : field.name);
  }

  /** The field's type from the schema, else a guess from the operator and value. */
  private typeOf(field: FieldNode, op: SingleValueOperator, value: string): ScalarType | undefined {
    const found = this.schema?.lookup(field.name);
    if (found?.found === 'field') return found.field.type;
    if (OPERATORS[op].family === 'text') return 'string';
    return guessType(value);
  }

  private listType(field: FieldNode, values: readonly ValueNode[]): ScalarType | undefined {
    const found = this.schema?.lookup(field.name);
    if (found?.found === 'field') return found.field.type;
    const guesses = values.map((v) => guessType(v.value));
    return guesses.every((g) => g === guesses[0]) ? guesses[0] : 'string';
  }

  private value(value: ValueNode, type: ScalarType | undefined): string {
    if (type === 'string' || type === undefined) return quoteText(value.value);
    if (type === 'boolean') return value.value.toLowerCase();
    return value.value;
  }
}

/**
 * Characters a terminal or a page would not show as themselves: C1 controls,
 * zero-width and soft hyphen, line and paragraph separators, and the bidi
 * controls that can make the rest of a line read in another order.
 */
const HIDDEN_CHARACTERS = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;

/** A text value in double quotes, JSON-escaped, with hidden characters written as `\uXXXX`. */
function quoteText(text: string): string {
  return JSON.stringify(text).replace(HIDDEN_CHARACTERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Without a schema: a value that reads as a number, boolean or datetime is taken as one. */
function guessType(value: string): ScalarType | undefined {
  if (parseNumberText(value) !== undefined) return 'number';
  if (parseBooleanText(value) !== undefined) return 'boolean';
  if (parseDatetimeText(value) !== undefined) return 'datetime';
  return 'string';
}

function phrase(op: FilterOperator, type: ScalarType | undefined): string {
  const [number, time] = PHRASES[op];
  return type === 'datetime' ? time : number;
}

function listPhrase(op: ListOperator, values: readonly string[]): string {
  const { nullMatches } = operatorFacts(op);
  const list = values.length === 1 ? joinOr(values) : `one of ${joinOr(values)}`;
  const text = `${phrase(op, undefined)} ${list}`;
  if (!nullMatches) return text;
  return values.length === 1 ? `${text} or is not set` : `${text}, or is not set`;
}

/** `a`, `a or b`, `a, b or c`. */
function joinOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

const DIRECTION_WORDS: Readonly<Record<ScalarType | 'unknown', Readonly<Record<SortDirection, string>>>> = {
  string: { Asc: 'A→Z', Desc: 'Z→A' },
  number: { Asc: 'lowest first', Desc: 'highest first' },
  integer: { Asc: 'lowest first', Desc: 'highest first' },
  datetime: { Asc: 'oldest first', Desc: 'newest first' },
  boolean: { Asc: 'false first', Desc: 'true first' },
  unknown: { Asc: 'ascending', Desc: 'descending' },
};

function explainSortAst(ast: SortAst, schema: Schema | undefined): string {
  if (ast.items.length === 0) return 'in stored order';
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const item of ast.items) {
    const found = schema?.lookup(item.field.name);
    const name = found?.found === 'field' ? found.field.name : item.field.name;
    // docs/reference.md §"Sort grammar": a field listed again has no effect, so it is not read out.
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    const type = found?.found === 'field' ? found.field.type : 'unknown';
    parts.push(`by ${fieldWords(name)} (${DIRECTION_WORDS[type][item.direction]})`);
  }
  return parts.join(', then ');
}
