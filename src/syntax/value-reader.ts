/**
 * Reading the tokens of one condition as values and field paths
 * (docs/reference.md §"Lexical rules", §"Filter grammar"): a bare or quoted
 * value from an argument, the value before an InFields operator, a field
 * path from a head or an argument. Each reports what keeps its tokens from
 * being read and answers null then.
 */
import type { IToken } from 'chevrotain';
import type { FieldNode, ValueNode } from '../ast/nodes.js';
import { invalidCharacter, isIdentifier, quoteValue as quoteText, unquoteValue as unquoteText } from '../ast/lexical.js';
import type { DiagnosticExtras, DiagnosticSink } from './diagnostic-sink.js';
import { Dot, Quoted, StrayQuote, Unterminated } from './filter-lexer.js';
import { excerpt } from './text-checks.js';
import { describeToken, endOf, isNameToken } from './token-facts.js';

/**
 * What a reader needs besides the tokens: the text they were scanned from and where problems go.
 *
 * @example
 * const context: ReadContext = { text, sink };
 */
export interface ReadContext {
  readonly text: string;
  readonly sink: DiagnosticSink;
}

/**
 * A bare or quoted value from the tokens `tokens[from, to)` of one argument (at least one token).
 *
 * @example
 * readValue({ text, sink }, tokens, 4, 5); // { kind: 'value', value: '1', quoted: false, … }
 */
export function readValue(context: ReadContext, tokens: readonly IToken[], from: number, to: number): ValueNode | null {
  const first = tokens[from]!;
  const last = tokens[to - 1]!;
  if (last.tokenType === Unterminated) return null; // reported by the driver
  const start = first.startOffset;
  const end = endOf(last);
  if (first.tokenType === Quoted) {
    if (to - from > 1) {
      const extra = tokens[from + 1]!;
      context.sink.add(
        'unexpected-token',
        `unexpected ${describeToken(extra)} after the quoted value ${excerpt(first.image)}; put the whole value inside the quotes`,
        extra.startOffset,
        end,
      );
      return null;
    }
    return checkedValue(context, unquoteText(first.image), true, first.image, start, end);
  }
  // A one-token value is its token's image: no second copy of the text.
  const raw = to - from === 1 ? first.image : context.text.slice(start, end);
  for (let i = from + 1; i < to; i++) {
    const type = tokens[i]!.tokenType;
    if (type === StrayQuote || type === Quoted) {
      const q = quoteText(raw);
      const at = tokens[i]!.startOffset;
      context.sink.add(
        'unexpected-quote',
        `unexpected ' inside the value ${excerpt(raw)}; quote the whole value and double the quote: ${excerpt(q, 80)}`,
        at,
        at + 1,
        quoteRepair(tokens, from, to, start, end, q),
      );
      return null;
    }
  }
  return checkedValue(context, raw, false, raw, start, end);
}

/** The value node, unless the value holds a character databases reject (reported). */
function checkedValue(context: ReadContext, value: string, quoted: boolean, raw: string, start: number, end: number): ValueNode | null {
  const bad = invalidCharacter(value);
  if (bad !== undefined) {
    context.sink.add('invalid-character', `the value contains ${bad}, which databases reject`, start, end);
    return null;
  }
  return { kind: 'value', value, quoted, raw, span: { start, end } };
}

/**
 * The value before an InFields operator, `head[0, lastDot)`: segments joined
 * with `.`, or one quoted value (docs/reference.md §"Filter grammar").
 *
 * @example
 * readHeadValue({ text, sink }, head, 1); // the value of `'D'.StartsWithInFields(…)`
 */
export function readHeadValue(context: ReadContext, head: readonly IToken[], lastDot: number): ValueNode | null {
  const first = head[0]!;
  const end = endOf(head[lastDot - 1] ?? head[0]!);
  if (lastDot === 0) {
    context.sink.add(
      'missing-value',
      'missing value before the InFields operator; write value.OperatorInFields(Field1,Field2)',
      first.startOffset,
      endOf(first),
    );
    return null;
  }
  if (lastDot === 1 && first.tokenType === Quoted) {
    return checkedValue(context, unquoteText(first.image), true, first.image, first.startOffset, end);
  }
  const value = joinBareHead(context, head, lastDot, end);
  return value === null ? null : checkedValue(context, value, false, value, first.startOffset, end);
}

/** A bare InFields head's segments joined with `.`; null when a quote, a space or an empty segment is in the way (reported). */
function joinBareHead(context: ReadContext, head: readonly IToken[], lastDot: number, end: number): string | null {
  const source = context.text.slice(head[0]!.startOffset, end);
  let expectName = true;
  let value = '';
  for (let i = 0; i < lastDot; i++) {
    const t = head[i]!;
    const type = t.tokenType;
    if (type === StrayQuote || type === Quoted) return reportHeadQuote(context, head, lastDot, t, source, end);
    if (type === Dot) {
      if (expectName) return reportEmptySegment(context, t, source, 'have an empty segment');
      value += '.';
      expectName = true;
      continue;
    }
    if (!expectName) return reportSpacedHead(context, head, lastDot, t, source, end);
    value += t.image;
    expectName = false;
  }
  if (expectName) return reportEmptySegment(context, head[lastDot - 1]!, source, 'end with an empty segment');
  return value;
}

function reportHeadQuote(context: ReadContext, head: readonly IToken[], lastDot: number, t: IToken, source: string, end: number): null {
  const q = quoteText(source);
  context.sink.add(
    'unexpected-quote',
    `unexpected ' in the value ${excerpt(source)} before the InFields operator; quote the whole value and double the quote: ${excerpt(q, 80)}`,
    t.startOffset,
    t.startOffset + 1,
    quoteRepair(head, 0, lastDot, head[0]!.startOffset, end, q),
  );
  return null;
}

/** `problem`: 'have an empty segment' (a `.` where a segment belongs) or 'end with an empty segment' (the `.` before the operator). */
function reportEmptySegment(context: ReadContext, dot: IToken, source: string, problem: string): null {
  context.sink.add(
    'unexpected-token',
    `unexpected '.': a value before an InFields operator cannot ${problem}; quote it`,
    dot.startOffset,
    dot.startOffset + 1,
    { suggestion: quoteText(source) },
  );
  return null;
}

function reportSpacedHead(context: ReadContext, head: readonly IToken[], lastDot: number, t: IToken, source: string, end: number): null {
  // The value the author wrote is the segments joined with '.', each
  // keeping its inner whitespace; whitespace around a '.' is not part
  // of it. Only when that reading is certain (no quotes, no empty
  // segment) is quoting it a fix; otherwise it is a suggestion.
  const joined = joinedHeadText(context.text, head, lastDot);
  const q = quoteText(joined ?? source);
  const start = head[0]!.startOffset;
  context.sink.add(
    'unexpected-token',
    `unexpected ${describeToken(t)}: a value before an InFields operator that contains spaces must be quoted: ${excerpt(q, 80)}`,
    t.startOffset,
    endOf(t),
    joined === undefined ? { suggestion: q } : { suggestion: q, fix: [{ start, end, newText: q }] },
  );
  return null;
}

/**
 * The bare InFields head `head[0, lastDot)` read as docs/reference.md §"Filter grammar" says: its
 * segments joined with '.', a segment being the source from its first to
 * its last token (inner whitespace kept). Undefined when the head holds a
 * quote or an empty segment, where no reading is certain.
 */
function joinedHeadText(text: string, head: readonly IToken[], lastDot: number): string | undefined {
  let out = '';
  let segmentStart = -1;
  let segmentEnd = -1;
  for (let i = 0; i <= lastDot; i++) {
    const t = head[i]!;
    const type = t.tokenType;
    if (type === Dot) {
      if (segmentStart < 0) return undefined;
      out += text.slice(segmentStart, segmentEnd) + (i < lastDot ? '.' : '');
      segmentStart = -1;
      continue;
    }
    if (!isNameToken(type)) return undefined;
    if (segmentStart < 0) segmentStart = t.startOffset;
    segmentEnd = endOf(t);
  }
  return out;
}

/**
 * A field path from `tokens[from, to)`: identifiers separated by dots (docs/reference.md §"Lexical rules").
 * `where` says whether the path is a condition's field (before the operator) or an InFields argument.
 *
 * @example
 * readField({ text, sink }, head, 0, lastDot, 'field'); // { kind: 'field', path: ['Address', 'Zip'], … }
 */
export function readField(
  context: ReadContext,
  tokens: readonly IToken[],
  from: number,
  to: number,
  where: 'field' | 'argument',
): FieldNode | null {
  const sink = context.sink;
  const start = tokens[from]!.startOffset;
  const end = endOf(tokens[to - 1]!);
  // Most paths have one segment: a one-element literal is exact-sized,
  // where pushing into [] would allocate room for sixteen.
  let path: string[] | undefined;
  let expectName = true;
  for (let i = from; i < to; i++) {
    const t = tokens[i]!;
    const type = t.tokenType;
    if (type === Unterminated) return null;
    if (type === Dot) {
      if (expectName) {
        sink.add(
          'invalid-field-path',
          'a field path has an empty segment; write names separated by single dots, as in Address.Zip',
          t.startOffset,
          t.startOffset + 1,
        );
        return null;
      }
      expectName = true;
      continue;
    }
    if (!expectName) {
      sink.add('invalid-field-path', `a field name cannot contain spaces: "${excerpt(context.text.slice(start, end))}"`, start, end);
      return null;
    }
    const image = t.image;
    if (!isNameToken(type) || !isIdentifier(image)) return reportFieldName(sink, t, type === Quoted);
    if (path === undefined) path = [image];
    else path.push(image);
    expectName = false;
  }
  if (expectName || path === undefined) {
    const lastToken = tokens[to - 1]!;
    sink.add(
      'invalid-field-path',
      where === 'field' ? 'a field path has an empty segment before the operator' : "a field path cannot end with '.'",
      lastToken.startOffset,
      endOf(lastToken),
    );
    return null;
  }
  return { kind: 'field', path, name: path.length === 1 ? path[0]! : path.join('.'), span: { start, end } };
}

function reportFieldName(sink: DiagnosticSink, t: IToken, quoted: boolean): null {
  const shown = quoted ? `${excerpt(t.image)} (field names are not quoted)` : `"${excerpt(t.image)}"`;
  sink.add(
    'invalid-field-path',
    `${shown} is not a valid field name; a field is letters, digits and _ (not starting with a digit), with '.' between nested names`,
    t.startOffset,
    endOf(t),
  );
  return null;
}

/**
 * The repair offered for a `'` inside a bare value: quoting the whole value.
 * That keeps the author's meaning only when every `'` in it is an
 * apostrophe inside a word (`O'Brien`); a quoted part (`x 'y'`, `'a'.'b'`)
 * may have been meant as quoting, so then it is a suggestion, never a fix.
 */
function quoteRepair(tokens: readonly IToken[], from: number, to: number, start: number, end: number, quoted: string): DiagnosticExtras {
  for (let i = from; i < to; i++) if (tokens[i]!.tokenType === Quoted) return { suggestion: quoted };
  return { suggestion: quoted, fix: [{ start, end, newText: quoted }] };
}
