/**
 * Completions for an editor: what may be typed at a cursor in a filter or a
 * sort, given a schema.
 *
 * Why not Chevrotain's `computeContentAssist`: the language's lexing depends
 * on context (a head segment, a bare value and an operator name are the same
 * characters), so content assist would answer in token types ("a Text token
 * may follow") that still have to be mapped back to "a field", "an operator
 * of this field's type" or "a field that accepts this InFields operator".
 * Those answers need the schema and the head of the clause. So completion
 * follows the filter parser's own events over the text before the cursor
 * (`visitFilter`, src/syntax/filter-events.ts: groups, conditions, heads,
 * arguments, separators, skipped tokens), so that the parser's grammar and
 * recovery decide where the cursor stands, reads the sort lexer's tokens for
 * a sort, and asks the validator's applicability table, so completions
 * never offer what validation refuses.
 */
import type { FilterOperator, InFieldsOperator } from '../ast/operators.js';
import {
  GROUP_OPERATORS,
  IN_FIELDS_OPERATORS,
  SORT_DIRECTIONS,
  baseOperatorOfInFields,
  canonicalOperator,
  operatorKind,
} from '../ast/operators.js';
import type { ResolvedField, Schema } from '../schema/schema.js';
import { isOperatorApplicable, operatorsForType } from '../validate/applicability.js';
import { convertValueText } from '../validate/convert-value.js';
import { isIdentifierCode, isWhitespace, trimWhitespace, unquoteValue } from '../ast/lexical.js';
import type { IToken } from 'chevrotain';
import type { FilterVisitor } from '../syntax/filter-events.js';
import { Dot, LParen, Quoted, RParen } from '../syntax/filter-lexer.js';
import { scanFilterShared } from '../syntax/filter-scanner.js';
import { visitFilter } from '../syntax/parse-filter.js';
import { SortComma, SortEquals, SortSemicolon, sortLexer } from '../syntax/sort-parser.js';

/**
 * What a completion inserts.
 *
 * @example
 * const kind: CompletionKind = complete('LastName.', 9, schema).items[0].kind; // 'operator'
 */
export type CompletionKind = 'field' | 'operator' | 'keyword' | 'value' | 'direction';

/**
 * One suggestion at the cursor.
 *
 * @example
 * const item: CompletionItem = { label: 'StartsWith', kind: 'operator', detail: 'StartsWith(value)', insertText: 'StartsWith(' };
 */
export interface CompletionItem {
  /** What a menu shows: `LastName`, `StartsWith`, `Or`, `true`, `Desc`. */
  readonly label: string;
  readonly kind: CompletionKind;
  /** A short note: a field's type, an operator's shape. */
  readonly detail?: string;
  /** The text that replaces `replace` when the item is chosen (`StartsWith(`, `Address.`). */
  readonly insertText: string;
}

/**
 * The suggestions at a cursor and the range of text they replace.
 *
 * @example
 * const { items, replace } = complete('LastName.Sta', 12, schema);
 * const text = 'LastName.Sta';
 * text.slice(0, replace.start) + items[0].insertText + text.slice(replace.end); // 'LastName.StartsWith('
 */
export interface CompletionResult {
  readonly items: readonly CompletionItem[];
  /** The partly typed word around the cursor (empty at a fresh position). */
  readonly replace: { readonly start: number; readonly end: number };
}

/**
 * Options for `complete`.
 *
 * @example
 * complete('LastName=', 9, schema, { kind: 'sort' } satisfies CompleteOptions);
 */
export interface CompleteOptions {
  /** Which language the text is in. Default `'filter'`. */
  readonly kind?: 'filter' | 'sort';
}

interface Segment {
  readonly text: string;
  readonly quoted: boolean;
}

/** The condition whose argument list holds the cursor. */
interface ArgsFrame {
  readonly op: FilterOperator | undefined;
  /** The head's segments before the operator. */
  readonly head: readonly Segment[];
  /** The arguments before the cursor's, trimmed. */
  readonly args: readonly string[];
}

/** Where the cursor stands, as found by `scan`. */
type Context =
  | { readonly where: 'none' }
  | { readonly where: 'head'; readonly segments: readonly Segment[]; readonly partialStart: number }
  | { readonly where: 'direction'; readonly segments: readonly Segment[]; readonly partialStart: number }
  | { readonly where: 'arg'; readonly frame: ArgsFrame; readonly partialStart: number };

const NONE: Context = { where: 'none' };

/**
 * Suggestions at `offset` in a filter (or, with `kind: 'sort'`, a sort):
 * field names with their types at the start of a clause, nested fields after
 * `Address.`, the operators that apply to a field's type after `Field.`
 * (filtered by the typed prefix, case-insensitively), `And(`/`Or(`, the
 * InFields operators after a value head, `true`/`false` inside a boolean
 * field's operator, the fields that accept an InFields operator inside its
 * list, and `Asc`/`Desc` after `Field=` in a sort. Works on incomplete and
 * broken text; never throws.
 *
 * @example
 * complete('LastName.Sta', 12, employeeSchema).items.map((i) => i.label); // ['StartsWith']
 * complete('LastName=', 9, employeeSchema, { kind: 'sort' }).items.map((i) => i.label); // ['Asc', 'Desc']
 */
export function complete(text: string, offset: number, schema: Schema, options: CompleteOptions = {}): CompletionResult {
  const at = Math.max(0, Math.min(Number.isFinite(offset) ? Math.trunc(offset) : text.length, text.length));
  const sort = options.kind === 'sort';
  const context = scan(text, at, sort);
  let end = at;
  while (end < text.length && isIdentifierCode(text.charCodeAt(end))) end++;
  if (context.where === 'none') return { items: [], replace: { start: at, end: at } };
  const partial = text.slice(context.partialStart, at);
  // Inside an InFields list only the last segment of a path is replaced (`Address.Zi` → `Zip`).
  const dot = context.where === 'arg' ? partial.lastIndexOf('.') : -1;
  const replace = { start: context.partialStart + dot + 1, end };
  // A word that already continues with `(` must not get a second one.
  const parenFollows = text[end] === '(';
  const items = suggest(context, partial, schema, sort, parenFollows);
  return { items, replace };
}

/** Reads `text[0, at)` as the parser (a filter) or the sort lexer (a sort) does and reports where the cursor stands. */
function scan(text: string, at: number, sort: boolean): Context {
  return sort ? scanSort(text, at) : scanFilterContext(text, at);
}

/**
 * Where the cursor stands in a filter, from the parser's own events over
 * the text before it (src/syntax/filter-events.ts): the parser's grammar
 * and recovery decide what is a group, a condition, an argument or skipped.
 * A group too deep for the parser is skipped unread, so when the cursor is
 * in one, its body is read again on its own (a body is a clause list too).
 */
function scanFilterContext(text: string, at: number): Context {
  let base = 0;
  let closed: Uint8Array | undefined;
  for (;;) {
    // Past a few thousand characters, look for the skipped group in a
    // prefix first (deepGroupBody): reading to the cursor from each skipped
    // body in turn would cost O(n²) for a group nested n deep.
    if (at - base > PROBE_LENGTH) {
      closed ??= closedParens(text, at);
      const body = deepGroupBody(text, base, at, closed);
      if (body >= 0) {
        base = body;
        continue;
      }
    }
    const reader = new CursorReader();
    const before = text.slice(base, at);
    visitFilter(before, reader);
    if (reader.where === 'deep') base += reader.clauseStart;
    else return reader.context(before, base);
  }
}

// The first prefix deepGroupBody reads; each miss doubles it.
const PROBE_LENGTH = 1024;

/**
 * Which `(` of `text[0, at)` the text closes again before `at`, by offset,
 * the way the parser skips a too-deep group's body (filter-recovery.ts
 * `skipGroupBody`): counting parens, quoted text aside.
 */
function closedParens(text: string, at: number): Uint8Array {
  const closed = new Uint8Array(at);
  const open: number[] = [];
  // Pooled tokens, overwritten by the next scan: this loop is done with them first.
  for (const token of scanFilterShared(text.slice(0, at))) {
    if (token.tokenType === LParen) open.push(token.startOffset);
    else if (token.tokenType === RParen && open.length > 0) closed[open.pop()!] = 1;
  }
  return closed;
}

/**
 * Where the parser, reading `text[base, at)`, would skip a group for depth
 * and run to `at` inside it (so that the cursor is in that body): its
 * body's start, or -1 when it would not. Found by reading growing prefixes
 * of the text: what the parser reads up to a group's `(` depends only on the
 * tokens up to it (it looks one token ahead, two at a group keyword), and a
 * prefix lexes as the whole text does except for its last token. `closed`
 * (closedParens) says whether the body ends before `at`, which the prefix
 * cannot show. Each read costs at most twice the distance to the group, so
 * the whole search is linear in the text.
 */
function deepGroupBody(text: string, base: number, at: number, closed: Uint8Array): number {
  for (let length = PROBE_LENGTH; ; length *= 2) {
    const end = Math.min(at, base + length);
    let body = -1;
    visitFilter(text.slice(base, end), {
      enterGroup(_start, bodyStart, skipped) {
        if (skipped && body < 0 && closed[base + bodyStart - 1] === 0) body = base + bodyStart;
      },
    });
    if (body >= 0 || end === at) return body;
  }
}

/**
 * Follows the parser's events up to the cursor (the end of the text it is
 * given) and keeps only what the innermost clause there needs.
 */
class CursorReader implements FilterVisitor {
  /** What the cursor is in: a fresh clause, a head, an argument list, a too-deep group's body, or nothing to complete. */
  where: 'clause' | 'head' | 'args' | 'deep' | 'none' = 'clause';
  /** Where the current clause begins: the text's start, past `;` or a group's `(`, or where a condition starts. */
  clauseStart = 0;
  private headTokens: readonly IToken[] = [];
  /** The argument slots of the current condition: `[start, end)`, end -1 while open. */
  private slots: [number, number][] = [];
  private unterminated = false;

  separator(offset: number): void {
    this.where = 'clause';
    this.clauseStart = offset + 1;
  }
  enterGroup(_start: number, bodyStart: number, skipped: boolean): void {
    this.where = skipped ? 'deep' : 'clause';
    this.clauseStart = bodyStart;
  }
  leaveGroup(_end: number, closed: boolean): void {
    if (closed) this.where = 'none';
  }
  enterCondition(start: number): void {
    // Usually the clause's start; after tokens the parser skipped (a stray `)`), where it reads on.
    this.clauseStart = start;
    this.where = 'head';
    this.headTokens = [];
    this.slots = [];
  }
  head(tokens: readonly IToken[]): void {
    this.headTokens = tokens;
  }
  enterArgument(start: number): void {
    this.where = 'args';
    this.slots.push([start, -1]);
  }
  leaveArgument(end: number): void {
    this.slots[this.slots.length - 1]![1] = end;
  }
  leaveCondition(_end: number, closed: boolean): void {
    if (closed) this.where = 'none';
  }
  skipped(): void {
    this.where = 'none';
  }
  unterminatedQuote(): void {
    this.unterminated = true;
  }

  /** The context at the end of `text`, whose offsets start at `base` in the whole text. */
  context(text: string, base: number): Context {
    if (this.unterminated || this.where === 'none' || this.where === 'deep') return NONE;
    const at = text.length;
    if (this.where === 'clause') return { where: 'head', segments: [], partialStart: base + skipSpace(text, this.clauseStart, at) };
    const { segments, last, lastStart } = splitHead(text, this.headTokens, this.clauseStart);
    if (this.where === 'head') {
      if (last.quoted) return NONE;
      return { where: 'head', segments, partialStart: base + skipSpace(text, lastStart, at) };
    }
    const slots = this.slots;
    const frame: ArgsFrame = {
      op: last.quoted ? undefined : canonicalOperator(last.text),
      head: segments,
      args: slots.slice(0, -1).map(([start, end]) => trimWhitespace(text.slice(start, end))),
    };
    return { where: 'arg', frame, partialStart: base + skipSpace(text, slots[slots.length - 1]![0], at) };
  }
}

/** A head's tokens as path segments: those before its last `.`, the last one, and where the last one starts. */
function splitHead(
  text: string,
  tokens: readonly IToken[],
  clauseStart: number,
): { segments: Segment[]; last: Segment; lastStart: number } {
  const segments: Segment[] = [];
  let start = clauseStart;
  let quoted: Segment | undefined;
  for (const token of tokens) {
    if (token.tokenType === Dot) {
      segments.push(currentSegment(text, start, token.startOffset, quoted));
      start = token.startOffset + 1;
      quoted = undefined;
    } else if (token.tokenType === Quoted) quoted = { text: unquoteValue(token.image), quoted: true };
  }
  const end = tokens.length === 0 ? start : tokens[tokens.length - 1]!.startOffset + tokens[tokens.length - 1]!.image.length;
  return { segments, last: currentSegment(text, start, Math.max(start, end), quoted), lastStart: start };
}

/** The sort lexer's tokens before the cursor: the current item, its path segments and its direction. */
function scanSort(text: string, at: number): Context {
  let itemStart = 0;
  let directionStart = -1;
  for (const token of sortLexer.tokenize(text.slice(0, at)).tokens) {
    const type = token.tokenType;
    if (type === SortSemicolon || type === SortComma) {
      // `,` between sort items is an error; treating it as a separator keeps completing.
      itemStart = token.startOffset + 1;
      directionStart = -1;
    } else if (type === SortEquals && directionStart < 0) {
      directionStart = token.startOffset + 1;
    }
  }
  if (directionStart >= 0) return { where: 'direction', segments: [], partialStart: skipSpace(text, directionStart, at) };
  // A sort field is one word: its path segments are the parts between dots.
  const head = text.slice(itemStart, at);
  const dot = head.lastIndexOf('.');
  const segments =
    dot < 0
      ? []
      : head
          .slice(0, dot)
          .split('.')
          .map((s) => ({ text: trimWhitespace(s), quoted: false }));
  return { where: 'head', segments, partialStart: skipSpace(text, itemStart + dot + 1, at) };
}

function currentSegment(text: string, start: number, end: number, quoted: Segment | undefined): Segment {
  return quoted ?? { text: trimWhitespace(text.slice(start, end)), quoted: false };
}

function skipSpace(text: string, from: number, to: number): number {
  let i = from;
  // The language's whitespace only: U+00A0 is part of a name, as the parser reads it.
  while (i < to && isWhitespace(text.charCodeAt(i))) i++;
  return i;
}

function suggest(
  context: Exclude<Context, { where: 'none' }>,
  partial: string,
  schema: Schema,
  sort: boolean,
  parenFollows: boolean,
): CompletionItem[] {
  switch (context.where) {
    case 'direction':
      return byPrefix(
        SORT_DIRECTIONS.map((d) => ({
          label: d,
          kind: 'direction' as const,
          detail: d === 'Asc' ? 'ascending' : 'descending',
          insertText: d,
        })),
        partial,
      );
    case 'head':
      return suggestInHead(context.segments, partial, schema, sort, parenFollows);
    case 'arg':
      return suggestInArgs(context.frame, partial, schema);
  }
}

function suggestInHead(
  segments: readonly Segment[],
  partial: string,
  schema: Schema,
  sort: boolean,
  parenFollows: boolean,
): CompletionItem[] {
  const usable = (f: ResolvedField): boolean => (sort ? f.sortable : f.filterable);
  if (segments.length === 0) {
    const fields = fieldsUnder(schema, [], usable);
    const groups: CompletionItem[] = sort
      ? []
      : GROUP_OPERATORS.map((g) => ({
          label: g,
          kind: 'keyword' as const,
          detail: g === 'And' ? 'all of the clauses inside match' : 'any of the clauses inside matches',
          insertText: parenFollows ? g : `${g}(`,
        }));
    return byPrefix([...fields, ...groups], partial);
  }
  const inFields = (): CompletionItem[] =>
    sort
      ? []
      : byPrefix(
          IN_FIELDS_OPERATORS.map((op) => operatorItem(op, parenFollows)),
          partial,
        );
  if (segments.some((s) => s.quoted)) return inFields();
  const found = schema.lookup(segments.map((s) => s.text).join('.'));
  if (found.found === 'object') return byPrefix(fieldsUnder(schema, found.name.split('.'), usable), partial);
  if (found.found === 'field') {
    if (sort || !found.field.filterable) return [];
    return byPrefix(
      operatorsForType(found.field.type)
        .filter((op) => operatorKind(op) !== 'in-fields')
        .map((op) => operatorItem(op, parenFollows)),
      partial,
    );
  }
  // The head is not a field, so it can only be the value of an InFields operator (`5.5.`, `'D'.`).
  return inFields();
}

function suggestInArgs(frame: ArgsFrame, partial: string, schema: Schema): CompletionItem[] {
  const op = frame.op;
  if (op === undefined) return [];
  const kind = operatorKind(op);
  if (kind === 'in-fields') {
    const head = frame.head.map((s) => s.text).join('.');
    const base = baseOperatorOfInFields(op as InFieldsOperator);
    const listed = new Set(frame.args.map((a) => a.toLowerCase()));
    const accepts = (f: ResolvedField): boolean =>
      f.filterable &&
      isOperatorApplicable(base, f.type) &&
      (frame.head.length === 0 || convertValueText(head, f.type).ok) &&
      !listed.has(f.name.toLowerCase());
    const dot = partial.lastIndexOf('.');
    if (dot < 0) return byPrefix(fieldsUnder(schema, [], accepts), partial);
    const found = schema.lookup(trimWhitespace(partial.slice(0, dot)));
    if (found.found !== 'object') return [];
    return byPrefix(fieldsUnder(schema, found.name.split('.'), accepts), partial.slice(dot + 1));
  }
  if (kind === 'no-value') return [];
  const found = schema.lookup(frame.head.map((s) => s.text).join('.'));
  if (found.found !== 'field' || found.field.type !== 'boolean' || frame.head.some((s) => s.quoted)) return [];
  return byPrefix(
    ['true', 'false'].map((v) => ({ label: v, kind: 'value' as const, detail: 'boolean', insertText: v })),
    partial,
  );
}

/** The fields and objects directly under `prefix` (schema spelling) that lead to a usable field. */
function fieldsUnder(schema: Schema, prefix: readonly string[], usable: (f: ResolvedField) => boolean): CompletionItem[] {
  const items = new Map<string, CompletionItem>();
  for (const f of schema.fields) {
    if (f.path.length <= prefix.length || !usable(f)) continue;
    if (!prefix.every((p, i) => f.path[i] === p)) continue;
    const name = f.path[prefix.length]!;
    if (items.has(name)) continue;
    const leaf = f.path.length === prefix.length + 1;
    items.set(
      name,
      leaf
        ? { label: name, kind: 'field', detail: f.nullable ? `${f.type}, nullable` : f.type, insertText: name }
        : { label: name, kind: 'field', detail: 'object', insertText: `${name}.` },
    );
  }
  return [...items.values()];
}

function operatorItem(op: FilterOperator, parenFollows: boolean): CompletionItem {
  const kind = operatorKind(op);
  const shape =
    kind === 'single-value'
      ? `${op}(value)`
      : kind === 'no-value'
        ? `${op}()`
        : kind === 'list'
          ? `${op}(value, …)`
          : `value.${op}(Field, …)`;
  const insertText = parenFollows ? op : kind === 'no-value' ? `${op}()` : `${op}(`;
  return { label: op, kind: 'operator', detail: shape, insertText };
}

function byPrefix(items: readonly CompletionItem[], partial: string): CompletionItem[] {
  const p = partial.toLowerCase();
  return items.filter((i) => i.label.toLowerCase().startsWith(p));
}
