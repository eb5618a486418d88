/**
 * The fast path of `parseFilter`: a hand-written recursive-descent reader
 * for well-formed filter text, straight from the characters, with no tokens.
 * It answers exactly what the Chevrotain parser (filter-parser.ts) answers
 * for a text on which that parser reports no error — the tree with its
 * spans, `raw` and `quoted`, and the warnings and infos (empty clauses,
 * single-child groups) — and answers `undefined` at the first doubt: any
 * error the parser would report, any limit reached, anything it does not
 * read. `parseFilter` then runs the Chevrotain parser, which stays the
 * definition of the language and the only path that reports, recovers and
 * tells tools what it reads (filter-events.ts). A property test keeps the
 * two equal on random texts of the grammar and on every valid corpus text.
 *
 * Every rule is read from where it lives: characters from `ast/lexical.ts`
 * and the lexer's `isWordCode`, group keywords and quoted values from the
 * scanner, operator names and shapes through the operator lookup
 * (`OPERATORS`), limits from `diagnostics/limits.ts` and the parser's depth
 * bound. Recursion is bounded by that depth bound, and every loop moves
 * forward through the text, so hostile input costs linear time.
 */
import type { FieldNode, FilterNode, GroupNode, ValueNode } from '../ast/nodes.js';
import { endsBareValue, invalidCharacter, isIdentifier, isWhitespace, unquoteValue } from '../ast/lexical.js';
import type { InFieldsOperator, ListOperator, NoValueOperator, SingleValueOperator } from '../ast/operators.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Limits } from '../diagnostics/limits.js';
import { DiagnosticSink } from './diagnostic-sink.js';
import { groupOperatorOf, isGroupWord, isWordCode, quotedEnd } from './characters.js';
import { reportEmptyClause, reportSingleChildGroup } from './clause-reports.js';
import { parserDepthBound } from './depth-bound.js';
import { operatorAt, type NamedOperator } from './operator-lookup.js';
import type { ParseFilterResult } from './parse-filter.js';

const OPEN = 0x28; // (
const CLOSE = 0x29; // )
const COMMA = 0x2c; // ,
const DOT = 0x2e; // .
const SEMICOLON = 0x3b; // ;
const QUOTE = 0x27; // '
/** Head words whose offsets the reader keeps between reads. */
const SCRATCH_LIMIT = 4096;

/**
 * Reads `text` as a well-formed filter under `limits` (already resolved):
 * what `parseFilter` answers, or undefined when the Chevrotain parser must
 * read it (an error to report, a limit reached, or anything this reader
 * does not take). The only reports it makes are the warnings and infos of a
 * text without errors (an empty clause, a single-child group). The caller
 * has checked that `text` is a string within `limits.maxLength`.
 *
 * @example
 * readWellFormedFilter('A.Equal(1);;B.IsNull()', DEFAULT_LIMITS)?.diagnostics[0]?.code; // 'empty-clause'
 * readWellFormedFilter('A.Equal(1);B.Equals(2)', DEFAULT_LIMITS);                      // undefined: an unknown operator
 */
export function readWellFormedFilter(text: string, limits: Limits): ParseFilterResult | undefined {
  return reader.read(text, limits);
}

/** The reader's state for one text; one instance, reused (a read never yields). */
class WellFormedReader {
  private text = '';
  private n = 0;
  /** The next character to read. */
  private pos = 0;
  private depth = 0;
  private maxDepth = 0;
  private conditions = 0;
  private maxConditions = 0;
  private maxListValues = 0;
  private maxInFields = 0;
  private maxErrors = 0;
  /** The reports of the text being read (warnings and infos only), made on the first. */
  private sink: DiagnosticSink | undefined = undefined;
  /** Start and end offsets of the words of the head being read (scratch, reused). */
  private readonly wordStarts: number[] = [];
  private readonly wordEnds: number[] = [];

  read(text: string, limits: Limits): ParseFilterResult | undefined {
    const n = text.length;
    this.text = text;
    this.n = n;
    this.depth = 0;
    this.maxDepth = parserDepthBound(limits);
    this.conditions = 0;
    this.maxConditions = limits.maxConditions;
    this.maxListValues = limits.maxListValues;
    this.maxInFields = limits.maxInFields;
    this.maxErrors = limits.maxErrors;
    this.sink = undefined;
    this.pos = 0;
    const clauses = this.readClauses();
    // A head of a million words (a raised maxLength) must not pin its scratch offsets.
    if (this.wordStarts.length > SCRATCH_LIMIT) this.wordStarts.length = this.wordEnds.length = 0;
    // Anything after the last clause (a stray ')') is reported by the parser.
    if (clauses === undefined || this.pos !== n) return undefined;
    return { ast: { kind: 'filter', clauses, span: { start: 0, end: n } }, diagnostics: this.finishReports() };
  }

  /** The first offset from `i` that is not whitespace. */
  private skipSpace(i: number): number {
    const text = this.text;
    const n = this.n;
    for (; i < n; i++) {
      // Every whitespace character is at most ' ' (32).
      const c = text.charCodeAt(i);
      if (c > 32 || !isWhitespace(c)) break;
    }
    return i;
  }

  /** Where the word (a run of `Word` characters) starting at `i` ends; `i` when none starts there. */
  private wordEnd(i: number): number {
    const text = this.text;
    const n = this.n;
    for (; i < n; i++) {
      // Every character that ends a word is at most ';' (59).
      const c = text.charCodeAt(i);
      if (c <= SEMICOLON && !isWordCode(c)) break;
    }
    return i;
  }

  /**
   * clauses = clause { ";" clause }, where a slot may be empty: the empty
   * clauses are reported as the parser reports them (filter-parser.ts): a
   * separator is redundant unless it is the first after a clause and
   * another clause follows. `pos` is left on what ends the list.
   */
  private readClauses(): FilterNode[] | undefined {
    const text = this.text;
    const nodes: FilterNode[] = [];
    let pending = -1;
    for (;;) {
      const at = this.skipSpace(this.pos);
      const c = text.charCodeAt(at);
      const empty = c === SEMICOLON || c === CLOSE || at === this.n;
      if (empty) this.pos = at;
      else {
        const node = this.readClause(at);
        if (node === undefined) return undefined;
        nodes.push(node);
        this.pos = this.skipSpace(this.pos);
        pending = -1;
      }
      if (text.charCodeAt(this.pos) !== SEMICOLON) break;
      if (empty) reportEmptyClause(this.diagnostics(), this.pos);
      else pending = this.pos;
      this.pos++;
    }
    if (pending >= 0) reportEmptyClause(this.diagnostics(), pending);
    return nodes;
  }

  /** The reports of the text read, in source order. */
  private finishReports(): Diagnostic[] {
    return this.sink === undefined ? [] : this.sink.finish();
  }

  /** Where the reports go; made on the first. */
  private diagnostics(): DiagnosticSink {
    return (this.sink ??= new DiagnosticSink(this.maxErrors, this.n));
  }

  /** clause = group | condition: a group is `And`/`Or` directly followed by "(". */
  private readClause(start: number): FilterNode | undefined {
    const c = this.text.charCodeAt(start);
    if (c === QUOTE) return this.readQuotedHeadCondition(start);
    // A clause starts with a word; anything else (`;`, `)`, `.`, the end) is a problem the parser reports.
    const end = this.wordEnd(start);
    if (end === start) return undefined;
    if (end - start <= 3 && isGroupWord(this.text, start, end - start)) {
      const open = this.skipSpace(end);
      if (this.text.charCodeAt(open) === OPEN) return this.readGroup(start, end, open);
    }
    return this.readWordHeadCondition(start, end);
  }

  /** group = ( "And" | "Or" ) "(" clauses ")", within the depth bound and with one or more children. */
  private readGroup(start: number, keywordEnd: number, open: number): GroupNode | undefined {
    if (this.depth >= this.maxDepth) return undefined;
    this.depth++;
    this.pos = open + 1;
    const children = this.readClauses();
    this.depth--;
    if (children === undefined || children.length === 0 || this.text.charCodeAt(this.pos) !== CLOSE) return undefined;
    this.pos++;
    const operator = groupOperatorOf(keywordEnd - start);
    const span = { start, end: this.pos };
    if (children.length === 1) reportSingleChildGroup(this.diagnostics(), this.text, operator, span, children[0]!);
    return { kind: 'group', operator, operatorSpan: { start, end: keywordEnd }, children, span };
  }

  /** Counts one more condition; false past `maxConditions` (the parser reports it). */
  private countCondition(): boolean {
    return ++this.conditions <= this.maxConditions;
  }

  /** `'value'.OpInFields(F1,…)`: a quoted head is only ever the value of an InFields operator. */
  private readQuotedHeadCondition(start: number): FilterNode | undefined {
    const quoteEnd = quotedEnd(this.text, start);
    if (quoteEnd < 0) return undefined;
    const dot = this.skipSpace(quoteEnd);
    if (this.text.charCodeAt(dot) !== DOT) return undefined;
    const opStart = this.skipSpace(dot + 1);
    const opEnd = this.wordEnd(opStart);
    const open = this.skipSpace(opEnd);
    if (opEnd === opStart || this.text.charCodeAt(open) !== OPEN || !this.countCondition()) return undefined;
    const named = operatorAt(this.text, opStart, opEnd);
    if (named === undefined || named.arity !== 'in-fields') return undefined;
    const raw = this.text.slice(start, quoteEnd);
    const value = checkedValue(unquoteValue(raw), true, raw, start, quoteEnd);
    if (value === undefined) return undefined;
    return this.readInFieldsArguments(start, value, named, opStart, opEnd, open);
  }

  /**
   * A condition whose head is words separated by dots (`Address.Zip.Equal`,
   * `5.5.GreaterThanInFields`): the last word is the operator, the words
   * before it the field or, for an InFields operator, the value.
   */
  private readWordHeadCondition(start: number, firstEnd: number): FilterNode | undefined {
    const words = this.readHeadWords(start, firstEnd);
    if (words < 2 || !this.countCondition()) return undefined;
    const opStart = this.wordStarts[words - 1]!;
    const opEnd = this.wordEnds[words - 1]!;
    const named = operatorAt(this.text, opStart, opEnd);
    if (named === undefined) return undefined;
    const open = this.pos;
    const headEnd = this.wordEnds[words - 2]!;
    if (named.arity === 'in-fields') {
      const value = checkedValue(this.joinedHeadValue(words - 1), false, undefined, start, headEnd);
      if (value === undefined) return undefined;
      return this.readInFieldsArguments(start, value, named, opStart, opEnd, open);
    }
    const field = this.fieldOfWords(0, words - 1, start, headEnd);
    if (field === undefined) return undefined;
    return this.readFieldCondition(start, field, named, opStart, opEnd, open);
  }

  /**
   * Reads the words of a head up to its "(" (left in `pos`), each separated
   * from the next by one dot, whitespace allowed around each; their count,
   * or 0 when the head is anything else.
   */
  private readHeadWords(start: number, firstEnd: number): number {
    const text = this.text;
    let words = 0;
    let wordStart = start;
    let wordEnd = firstEnd;
    for (;;) {
      this.wordStarts[words] = wordStart;
      this.wordEnds[words] = wordEnd;
      words++;
      const next = this.skipSpace(wordEnd);
      const c = text.charCodeAt(next);
      if (c === OPEN) {
        this.pos = next;
        return words;
      }
      if (c !== DOT) return 0;
      wordStart = this.skipSpace(next + 1);
      wordEnd = this.wordEnd(wordStart);
      if (wordEnd === wordStart) return 0;
    }
  }

  /** The value before an InFields operator: its first `count` head words joined with '.'. */
  private joinedHeadValue(count: number): string {
    const text = this.text;
    let value = text.slice(this.wordStarts[0], this.wordEnds[0]);
    for (let i = 1; i < count; i++) value += '.' + text.slice(this.wordStarts[i], this.wordEnds[i]);
    return value;
  }

  /** The field path of head words `[from, to)`, spanning `[start, end)`; undefined when a word is not an identifier. */
  private fieldOfWords(from: number, to: number, start: number, end: number): FieldNode | undefined {
    const text = this.text;
    const first = text.slice(this.wordStarts[from], this.wordEnds[from]);
    if (!isIdentifier(first)) return undefined;
    if (to - from === 1) return { kind: 'field', path: [first], name: first, span: { start, end } };
    const path = [first];
    for (let i = from + 1; i < to; i++) {
      const segment = text.slice(this.wordStarts[i], this.wordEnds[i]);
      if (!isIdentifier(segment)) return undefined;
      path.push(segment);
    }
    return { kind: 'field', path, name: path.join('.'), span: { start, end } };
  }

  /** The argument list of a field condition, from its "(" at `open`, by the operator's shape. */
  private readFieldCondition(
    start: number,
    field: FieldNode,
    named: NamedOperator,
    opStart: number,
    opEnd: number,
    open: number,
  ): FilterNode | undefined {
    const operatorSpan = { start: opStart, end: opEnd };
    if (named.arity === 'no-value') {
      const close = this.skipSpace(open + 1);
      if (this.text.charCodeAt(close) !== CLOSE) return undefined;
      this.pos = close + 1;
      return { kind: 'null-check', field, operator: named.op as NoValueOperator, operatorSpan, span: { start, end: this.pos } };
    }
    this.pos = open + 1;
    if (named.arity === 'single-value') {
      const value = this.readValueArgument();
      if (value === undefined || this.text.charCodeAt(this.pos) !== CLOSE) return undefined;
      this.pos++;
      return { kind: 'comparison', field, operator: named.op as SingleValueOperator, operatorSpan, value, span: { start, end: this.pos } };
    }
    const values = this.readValueList();
    if (values === undefined) return undefined;
    return { kind: 'list', field, operator: named.op as ListOperator, operatorSpan, values, span: { start, end: this.pos } };
  }

  /** The values of a list operator up to and past its ")": one or more, at most `maxListValues`. */
  private readValueList(): ValueNode[] | undefined {
    const values: ValueNode[] = [];
    for (;;) {
      const value = this.readValueArgument();
      if (value === undefined) return undefined;
      values.push(value);
      const c = this.text.charCodeAt(this.pos++);
      if (c === CLOSE) return values.length <= this.maxListValues ? values : undefined;
      // The parser reads every slot before it checks the count; here the count ends the read.
      if (values.length >= this.maxListValues) return undefined;
    }
  }

  /**
   * One value argument from `pos`, which is left on the "," or ")" after it:
   * a quoted value, or a bare one (the text up to `, ( ) ; '`, whitespace
   * around it dropped). Undefined for an empty slot, a bare value that runs
   * into `( ; '` or the end, or text after a quoted value.
   */
  private readValueArgument(): ValueNode | undefined {
    const text = this.text;
    const start = this.skipSpace(this.pos);
    if (text.charCodeAt(start) === QUOTE) {
      const end = quotedEnd(text, start);
      if (end < 0) return undefined;
      const after = this.skipSpace(end);
      const c = text.charCodeAt(after);
      if (c !== COMMA && c !== CLOSE) return undefined;
      this.pos = after;
      const raw = text.slice(start, end);
      return checkedValue(unquoteValue(raw), true, raw, start, end);
    }
    let stop = start;
    for (; stop < this.n; stop++) {
      // Every character that ends a bare value is at most ';' (59).
      const d = text.charCodeAt(stop);
      if (d <= SEMICOLON && endsBareValue(d)) break;
    }
    const c = text.charCodeAt(stop);
    if (c !== COMMA && c !== CLOSE) return undefined;
    let end = stop;
    while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
    if (end === start) return undefined;
    this.pos = stop;
    return checkedValue(text.slice(start, end), false, undefined, start, end);
  }

  /** The field arguments of an InFields operator from its "(" at `open`, and the node. */
  private readInFieldsArguments(
    start: number,
    value: ValueNode,
    named: NamedOperator,
    opStart: number,
    opEnd: number,
    open: number,
  ): FilterNode | undefined {
    const fields: FieldNode[] = [];
    this.pos = open + 1;
    for (;;) {
      const field = this.readFieldArgument();
      if (field === undefined) return undefined;
      fields.push(field);
      const c = this.text.charCodeAt(this.pos++);
      if (c === CLOSE) break;
      if (fields.length >= this.maxInFields) return undefined;
    }
    if (fields.length > this.maxInFields) return undefined;
    const operatorSpan = { start: opStart, end: opEnd };
    return { kind: 'in-fields', value, operator: named.op as InFieldsOperator, operatorSpan, fields, span: { start, end: this.pos } };
  }

  /** One field argument from `pos`: words separated by dots, left on the "," or ")" after it. */
  private readFieldArgument(): FieldNode | undefined {
    const text = this.text;
    let words = 0;
    let wordStart = this.skipSpace(this.pos);
    for (;;) {
      const wordEnd = this.wordEnd(wordStart);
      if (wordEnd === wordStart) return undefined;
      this.wordStarts[words] = wordStart;
      this.wordEnds[words] = wordEnd;
      words++;
      const next = this.skipSpace(wordEnd);
      const c = text.charCodeAt(next);
      if (c === COMMA || c === CLOSE) {
        this.pos = next;
        return this.fieldOfWords(0, words, this.wordStarts[0]!, wordEnd);
      }
      if (c !== DOT) return undefined;
      wordStart = this.skipSpace(next + 1);
    }
  }
}

/** A value node, unless the value holds a character databases reject (the parser reports it). `raw` defaults to the value. */
function checkedValue(value: string, quoted: boolean, raw: string | undefined, start: number, end: number): ValueNode | undefined {
  if (invalidCharacter(value) !== undefined) return undefined;
  return { kind: 'value', value, quoted, raw: raw ?? value, span: { start, end } };
}

const reader = new WellFormedReader();
