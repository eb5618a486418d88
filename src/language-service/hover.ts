/**
 * What an editor shows when the pointer rests on a filter or sort: the
 * field under it with its type, and the clause around it in plain English.
 */
import { conditionsOf, foldFilterWith, skipChildren } from '../ast/fold.js';
import type { FieldNode, FilterNode, Span } from '../ast/nodes.js';
import type { Limits } from '../diagnostics/limits.js';
import type { ResolvedField, Schema } from '../schema/schema.js';
import { parseFilter, visitFilter } from '../syntax/parse-filter.js';
import { endOf } from '../syntax/token-facts.js';
import { parseSort } from '../syntax/parse-sort.js';
import { explain } from './explain.js';

/**
 * Options for `hoverAt`.
 *
 * @example
 * hoverAt('LastName=Desc', 2, employeeSchema, { kind: 'sort' } satisfies HoverOptions);
 */
export interface HoverOptions {
  /** Which language the text is in. Default `'filter'`. */
  readonly kind?: 'filter' | 'sort';
  readonly limits?: Partial<Limits>;
}

/**
 * The hover at one offset.
 *
 * @example
 * const hover: HoverInfo | undefined = hoverAt('Gender.Equal(1)', 3, employeeSchema);
 * hover?.field?.type;   // 'integer'
 * hover?.explanation;   // 'gender is 1'
 */
export interface HoverInfo {
  /** The range the hover is about: the field under the offset, else the clause (or sort item). */
  readonly start: number;
  readonly end: number;
  /** The schema's field under the offset, when the offset is on a field the schema knows. */
  readonly field?: ResolvedField;
  /** The clause (or sort item) around the offset in plain English; undefined when it has errors. */
  readonly explanation?: string;
  /** The markdown an editor shows: field, type, description and explanation. */
  readonly markdown: string;
}

/**
 * The hover at `offset`: the field there (name, type, nullability and
 * description from the schema) and the innermost clause around it,
 * explained. Undefined when the offset is on no clause. Never throws.
 *
 * @example
 * hoverAt('LastName.StartsWith(Sm);Gender.Equal(1)', 26, employeeSchema)?.markdown;
 * // '**Gender** · integer, nullable\n\ngender is 1'
 */
export function hoverAt(text: string, offset: number, schema: Schema, options: HoverOptions = {}): HoverInfo | undefined {
  const parseOptions = options.limits === undefined ? {} : { limits: options.limits };
  const target =
    options.kind === 'sort' ? sortTarget(text, offset, schema, parseOptions) : filterTarget(text, offset, schema, parseOptions);
  return target === undefined ? undefined : hoverOf(target, schema);
}

/** A field name as the parser saw it: what a hover can point at. */
type FieldMention = Pick<FieldNode, 'name' | 'span'>;

/** What the offset is on: the clause (or sort item) around it, and the field there if any. */
interface HoverTarget {
  readonly clause: { readonly span: Span; readonly explanation: string | undefined };
  readonly fieldNode: FieldMention | undefined;
}

/** The sort item under the offset, explained on its own. */
function sortTarget(text: string, offset: number, schema: Schema, parseOptions: { limits?: Partial<Limits> }): HoverTarget | undefined {
  const ast = parseSort(text, parseOptions).ast;
  const item = ast.items.find((i) => within(i.span, offset));
  if (item === undefined) return undefined;
  const fieldNode = within(item.field.span, offset) ? item.field : undefined;
  const explained = explain({ kind: 'sort', items: [item], span: item.span }, { schema });
  return { clause: { span: item.span, explanation: explained.value }, fieldNode };
}

/** The innermost filter clause under the offset, or the head of a broken condition there. */
function filterTarget(text: string, offset: number, schema: Schema, parseOptions: { limits?: Partial<Limits> }): HoverTarget | undefined {
  const ast = parseFilter(text, parseOptions).ast;
  const node = innermostClause(ast.clauses, offset);
  if (node === undefined) {
    // A condition with a syntax error (`Gender.Equals(1)`) is not in the tree, but its head still names its field.
    const fieldNode = fieldOfBrokenCondition(text, offset);
    if (fieldNode === undefined) return undefined;
    return { clause: { span: fieldNode.span, explanation: undefined }, fieldNode };
  }
  // Inside a group but on none of its children: on a broken condition the group holds no node for.
  const broken = node.kind === 'group' && !within(node.operatorSpan, offset) ? fieldOfBrokenCondition(text, offset) : undefined;
  if (broken !== undefined) return { clause: { span: broken.span, explanation: undefined }, fieldNode: broken };
  const fields = node.kind === 'group' ? [] : conditionsOf([node]).map((c) => c.field);
  return {
    // The clause's own text, validated against the schema, so a clause with
    // a typing error gets no sentence (a tree passed to explain is not validated).
    clause: { span: node.span, explanation: explain(text.slice(node.span.start, node.span.end), { schema }).value },
    fieldNode: fields.find((f) => within(f.span, offset)),
  };
}

/**
 * The innermost clause containing the offset: in each group on the way, the
 * first child containing it; a group stops the descent when the offset is
 * on its operator. Groups the offset is outside are not entered.
 */
function innermostClause(clauses: readonly FilterNode[], offset: number): FilterNode | undefined {
  const hit = (node: FilterNode): FilterNode | undefined => (within(node.span, offset) ? node : undefined);
  const first = (found: readonly (FilterNode | undefined)[]): FilterNode | undefined => found.find((node) => node !== undefined);
  const found = foldFilterWith<FilterNode, undefined, FilterNode | undefined>(
    clauses,
    {
      group: {
        enter: (group) => (!within(group.span, offset) || within(group.operatorSpan, offset) ? skipChildren(hit(group)) : undefined),
        leave: (group, inside) => first(inside) ?? group,
      },
      comparison: hit,
      'null-check': hit,
      list: hit,
      'in-fields': hit,
    },
    undefined,
  );
  return first(found);
}

/** The hover's markdown and range for a target; undefined when there is nothing to say. */
function hoverOf(target: HoverTarget, schema: Schema): HoverInfo | undefined {
  const { clause, fieldNode } = target;
  const found = fieldNode === undefined ? undefined : schema.lookup(fieldNode.name);
  const field = found?.found === 'field' ? found.field : undefined;
  const lines: string[] = [];
  if (field !== undefined) {
    lines.push(
      `**${field.name}** · ${field.type}${field.nullable ? ', nullable' : ''}${field.filterable ? '' : ', not filterable'}${field.sortable ? '' : ', not sortable'}`,
    );
    if (field.description !== undefined) lines.push(field.description);
  } else if (fieldNode !== undefined) {
    lines.push(`**${fieldNode.name}** · not in the schema`);
  }
  if (clause.explanation !== undefined) lines.push(clause.explanation);
  if (lines.length === 0) return undefined;
  const span = fieldNode !== undefined ? fieldNode.span : clause.span;
  return {
    start: span.start,
    end: span.end,
    ...(field === undefined ? {} : { field }),
    ...(clause.explanation === undefined ? {} : { explanation: clause.explanation }),
    markdown: lines.join('\n\n'),
  };
}

/**
 * The field a condition's head names (the words before the operator's `.`),
 * when `offset` is on it: read from the parser's events, which still see the
 * head of a condition the tree leaves out for an error.
 */
function fieldOfBrokenCondition(text: string, offset: number): Pick<FieldNode, 'name' | 'span'> | undefined {
  let found: Pick<FieldNode, 'name' | 'span'> | undefined;
  visitFilter(text, {
    head(tokens) {
      if (found !== undefined || tokens.length === 0) return;
      let lastDot = -1;
      tokens.forEach((t, i) => {
        if (t.image === '.') lastDot = i;
      });
      const fieldTokens = lastDot > 0 ? tokens.slice(0, lastDot) : tokens;
      const span = { start: fieldTokens[0]!.startOffset, end: endOf(fieldTokens[fieldTokens.length - 1]!) };
      if (within(span, offset)) found = { name: text.slice(span.start, span.end), span };
    },
  });
  return found;
}

/** Inclusive at both ends, so a cursor just after a word still hovers it. */
function within(span: Span, offset: number): boolean {
  return span.end > span.start && offset >= span.start && offset <= span.end;
}
