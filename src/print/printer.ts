/**
 * The canonical printer (docs/reference.md §"Canonical form"): a tree in, the one
 * canonical text out.
 * Structure is printed exactly as it is (never reordered or flattened) and
 * values keep their text; only spelling, spacing and quoting are decided here.
 *
 * Both layouts walk the tree through the fold (`foldFilterWith`), whose own
 * stack lets a tree nested as deep as a caller's `maxDepth` allows print
 * without overflowing the call stack; text is written as the walk enters
 * each node, so the first problem in text order is the one reported.
 */
import type { FieldNode, FilterAst, FilterNode, GroupNode, SortAst, Span, ValueNode } from '../ast/nodes.js';
import {
  GROUP_OPERATORS,
  IN_FIELDS_OPERATORS,
  LIST_OPERATORS,
  NO_VALUE_OPERATORS,
  SINGLE_VALUE_OPERATORS,
  SORT_DIRECTIONS,
} from '../ast/operators.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { WepqlError } from '../diagnostics/error.js';
import type { Limits } from '../diagnostics/limits.js';
import { resolveLimits } from '../diagnostics/limits.js';
import type { Schema } from '../schema/schema.js';
import { invalidCharacter, isFieldPath, quoteValue } from '../ast/lexical.js';
import type { ValuePosition } from './quote.js';
import { needsQuoting } from './quote.js';
import { foldFilterWith, matchFilterNode, skipChildren, type MatchHandlers } from '../ast/fold.js';

/**
 * How to print a filter or sort. Every field is optional.
 *
 * @example
 * printFilter(ast, { pretty: true, width: 40, indent: 2, schema, quoteAllStrings: true });
 */
export interface PrintOptions {
  /** Break groups that do not fit `width` onto indented lines (filters only; a sort is always one line). */
  readonly pretty?: boolean;
  /** Line width for `pretty`, in UTF-16 code units. Default 80. */
  readonly width?: number;
  /** Spaces per nesting level for `pretty`. Default 2. */
  readonly indent?: number;
  /**
   * Quote every value; with a `schema`, every value compared with a string
   * field (for an InFields operator: when any listed field is a string).
   */
  readonly quoteAllStrings?: boolean;
  /** Print field names in the schema's spelling (names it does not know stay as written). */
  readonly schema?: Schema;
  /**
   * `maxDepth` bounds group nesting, as in every recursive pass. `maxLength`
   * bounds the pretty layout: when its line breaks and indentation would make
   * the text longer than the parser accepts, the canonical one-line form is
   * printed instead (docs/language.md, "Pretty form").
   */
  readonly limits?: Partial<Limits>;
}

interface Settings {
  readonly pretty: boolean;
  readonly width: number;
  readonly indent: number;
  readonly quoteAll: boolean;
  readonly schema: Schema | undefined;
  readonly maxDepth: number;
  readonly maxLength: number;
}

function settingsOf(options: PrintOptions): Settings {
  const width = options.width ?? 80;
  const indent = options.indent ?? 2;
  if (!(width >= 1)) throw new WepqlError(`print option "width" must be at least 1, got ${String(width)}`, []);
  if (!Number.isInteger(indent) || indent < 0 || indent > 64) {
    throw new WepqlError(`print option "indent" must be a whole number from 0 to 64, got ${String(indent)}`, []);
  }
  return {
    pretty: options.pretty === true,
    width,
    indent,
    quoteAll: options.quoteAllStrings === true,
    schema: options.schema,
    maxDepth: resolveLimits(options.limits).maxDepth,
    maxLength: resolveLimits(options.limits).maxLength,
  };
}

function fail(what: string, code: DiagnosticCode, message: string, span: Span): never {
  const diagnostic: Diagnostic = { code, severity: 'error', message, start: span.start, end: span.end };
  throw WepqlError.from(what, [diagnostic]);
}

// Trees built by code (the builder, a caller's JavaScript) are not checked
// by a parser. Names are spliced into the text, so a name that is not what
// its type says — `A.Equal(1);B` as a field — would print a different filter.
// These guards make such a tree an error instead of an injection.
const KNOWN: ReadonlyMap<string, ReadonlySet<string>> = new Map<FilterNode['kind'], ReadonlySet<string>>([
  ['group', new Set(GROUP_OPERATORS)],
  ['comparison', new Set(SINGLE_VALUE_OPERATORS)],
  ['null-check', new Set(NO_VALUE_OPERATORS)],
  ['list', new Set(LIST_OPERATORS)],
  ['in-fields', new Set(IN_FIELDS_OPERATORS)],
]);
const DIRECTIONS: ReadonlySet<string> = new Set(SORT_DIRECTIONS);

function checkOperator(node: FilterNode): void {
  const known = KNOWN.get(node.kind);
  if (known === undefined) {
    fail('filter', 'unexpected-token', `${JSON.stringify(node.kind)} is not a kind of filter clause`, node.span);
  }
  if (!known.has(node.operator)) {
    fail('filter', 'unknown-operator', `${JSON.stringify(node.operator)} is not a ${node.kind} operator`, node.span);
  }
}

function fieldText(field: FieldNode, schema: Schema | undefined, what: 'filter' | 'sort' = 'filter'): string {
  if (!isFieldPath(field.name)) {
    fail(what, 'invalid-field-path', `${JSON.stringify(field.name)} is not a field path`, field.span);
  }
  if (schema === undefined) return field.name;
  const hit = schema.lookup(field.name);
  if (hit.found === 'field') return hit.field.name;
  if (hit.found === 'object') return hit.name;
  return field.name;
}

function isStringField(field: FieldNode, schema: Schema): boolean {
  const hit = schema.lookup(field.name);
  return hit.found === 'field' && hit.field.type === 'string';
}

function valueText(value: ValueNode, position: ValuePosition, forceQuotes: boolean): string {
  // A value with U+0000 or an unpaired surrogate prints, but parses back as
  // the error invalid-character (docs/reference.md §"Limits"), so no text expresses that tree.
  const bad = invalidCharacter(value.value);
  if (bad !== undefined) fail('filter', 'invalid-character', `a value contains ${bad}, which databases reject`, value.span);
  return forceQuotes || needsQuoting(value.value, position) ? quoteValue(value.value) : value.value;
}

/** A condition: any node but a group. */
type ConditionNode = Exclude<FilterNode, GroupNode>;

/**
 * The canonical one-line text of each kind of condition. Built once per
 * print, so a tree of many conditions does not rebuild it per node.
 */
function conditionPrinters(s: Settings): MatchHandlers<ConditionNode, string> {
  const quoteFor = (field: FieldNode): boolean => s.quoteAll && (s.schema === undefined || isStringField(field, s.schema));
  return {
    comparison: (node) => {
      const quote = quoteFor(node.field);
      return `${fieldText(node.field, s.schema)}.${node.operator}(${valueText(node.value, 'argument', quote)})`;
    },
    'null-check': (node) => `${fieldText(node.field, s.schema)}.${node.operator}()`,
    list: (node) => {
      if (node.values.length === 0) {
        fail('filter', 'missing-value', `${node.operator} needs at least one value`, node.span);
      }
      const quote = quoteFor(node.field);
      const values = node.values.map((v) => valueText(v, 'argument', quote)).join(',');
      return `${fieldText(node.field, s.schema)}.${node.operator}(${values})`;
    },
    'in-fields': (node) => {
      if (node.fields.length === 0) {
        fail('filter', 'missing-value', `${node.operator} needs at least one field`, node.span);
      }
      const schema = s.schema;
      const quote = s.quoteAll && (schema === undefined || node.fields.some((f) => isStringField(f, schema)));
      const fields = node.fields.map((f) => fieldText(f, schema)).join(',');
      return `${valueText(node.value, 'in-fields-head', quote)}.${node.operator}(${fields})`;
    },
  };
}

/**
 * Prints clauses on one line. When `offsets` is given, records where each
 * node's text starts and ends in the result, so the pretty layout can reuse
 * the flat text of any subtree. Each node's result is where its text starts.
 */
function printCompact(clauses: readonly FilterNode[], s: Settings, offsets?: Map<FilterNode, readonly [number, number]>): string {
  let out = '';
  const printers = conditionPrinters(s);
  // A condition, or a node of a kind no printer knows (reported as such by checkOperator, not as a crash).
  const condition = (node: FilterNode, _depth: number, index: number): number => {
    if (index > 0) out += ';';
    const start = out.length;
    checkOperator(node);
    out += matchFilterNode(node as ConditionNode, printers);
    offsets?.set(node, [start, out.length]);
    return start;
  };
  foldFilterWith<FilterNode, number, number>(
    clauses,
    {
      group: {
        enter: (group, depth, index) => {
          if (index > 0) out += ';';
          if (depth > s.maxDepth) fail('filter', 'nesting-too-deep', `groups nest deeper than the limit of ${s.maxDepth}`, group.span);
          checkOperator(group);
          if (group.children.length === 0)
            fail('filter', 'empty-group', `${group.operator}() must contain at least one clause`, group.span);
          out += `${group.operator}(`;
          return depth + 1;
        },
        leave: (group, starts) => {
          out += ')';
          // The text opened with `Operator(` right before the first child's.
          const start = starts[0]! - group.operator.length - 1;
          offsets?.set(group, [start, out.length]);
          return start;
        },
      },
      comparison: condition,
      'null-check': condition,
      list: condition,
      'in-fields': condition,
    },
    1,
    condition,
  );
  return out;
}

/**
 * Lays clauses out one per line at `level`, breaking every group whose flat
 * text (plus the `;` that follows it) would pass the width. A clause that is
 * followed by a sibling ends with `;`; the last one ends its line bare so the
 * parent's `)` can start the next line. Line breaks and indentation only add
 * characters, so a layout longer than `maxLength` — text the parser would
 * refuse as `text-too-long` — gives way to the canonical one-line form.
 */
function printPretty(clauses: readonly FilterNode[], s: Settings): string {
  const offsets = new Map<FilterNode, readonly [number, number]>();
  const flat = printCompact(clauses, s, offsets);
  if (flat.length <= s.width) return flat;
  const pretty = prettyLines(clauses, s, flat, offsets);
  return pretty.length <= s.maxLength ? pretty : flat;
}

function prettyLines(
  clauses: readonly FilterNode[],
  s: Settings,
  flat: string,
  offsets: Map<FilterNode, readonly [number, number]>,
): string {
  const lines: string[] = [];
  const separator = (index: number, siblings: readonly FilterNode[]): string => (index === siblings.length - 1 ? '' : ';');
  // A node on one line: its flat text, indented, with the `;` that follows it.
  const flatLine = (node: FilterNode, level: number, index: number, siblings: readonly FilterNode[]): void => {
    const [start, end] = offsets.get(node)!;
    lines.push(' '.repeat(level * s.indent) + flat.slice(start, end) + separator(index, siblings));
  };
  foldFilterWith<FilterNode, number, void>(
    clauses,
    {
      group: {
        enter: (group, level, index, siblings) => {
          const [start, end] = offsets.get(group)!;
          if (level * s.indent + (end - start) + separator(index, siblings).length <= s.width) {
            return skipChildren(flatLine(group, level, index, siblings));
          }
          lines.push(`${' '.repeat(level * s.indent)}${group.operator}(`);
          return level + 1;
        },
        leave: (_group, _children, level, index, siblings) => {
          lines.push(' '.repeat(level * s.indent) + ')' + separator(index, siblings));
        },
      },
      comparison: flatLine,
      'null-check': flatLine,
      list: flatLine,
      'in-fields': flatLine,
    },
    0,
  );
  return lines.join('\n');
}

/**
 * Prints a filter tree in canonical form (docs/reference.md §"Canonical form"): no
 * whitespace outside
 * values, `;` between clauses, PascalCase names, values quoted only when
 * they must be. With `pretty`, groups that do not fit `width` are broken onto
 * indented lines; the result parses back to the same tree, and when that
 * layout would be longer than `limits.maxLength` (default 8,192) the
 * canonical form is printed instead, so it still parses back. Throws
 * `WepqlError` (`nesting-too-deep`) for groups nested past `limits.maxDepth`,
 * and for trees no text can express (an empty group or list, an unknown
 * operator, a field name that is not a path).
 *
 * @example
 * const { ast } = parseFilter("lastname.startswith( Sm ) ; or(Gender.Equal('1');Salary.GreaterThan(1e3))");
 * printFilter(ast); // 'lastname.StartsWith(Sm);Or(Gender.Equal(1);Salary.GreaterThan(1e3))'
 */
export function printFilter(ast: FilterAst, options: PrintOptions = {}): string {
  const s = settingsOf(options);
  return s.pretty ? printPretty(ast.clauses, s) : printCompact(ast.clauses, s);
}

/**
 * Prints a sort tree in canonical form: `Field=Asc;Other=Desc`, every item
 * with its direction spelled out. Throws `WepqlError` for a field name that
 * is not a path or a direction other than `Asc`/`Desc`.
 *
 * @example
 * printSort(parseSort('LastName; createdon = desc').ast); // 'LastName=Asc;createdon=Desc'
 */
export function printSort(ast: SortAst, options: PrintOptions = {}): string {
  const s = settingsOf(options);
  let out = '';
  for (const item of ast.items) {
    if (!DIRECTIONS.has(item.direction)) {
      fail('sort', 'invalid-direction', `${JSON.stringify(item.direction)} is not Asc or Desc`, item.span);
    }
    if (out.length > 0) out += ';';
    out += `${fieldText(item.field, s.schema, 'sort')}=${item.direction}`;
  }
  return out;
}
