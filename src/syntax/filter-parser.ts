/**
 * The Chevrotain parser of the filter language (grammar/filter.ebnf).
 *
 * The Chevrotain grammar is deliberately permissive at the token level:
 * heads and values are runs of `RunPart` tokens, argument lists are
 * comma-separated runs, and a closing `)` is optional. Everything the EBNF
 * forbids but this grammar accepts is reported by the semantic actions with
 * a precise diagnostic, and tokens the grammar cannot place are skipped up to
 * the next `;` or `)` (recovery, docs/reference.md §"Diagnostics"). The parser therefore
 * never stops
 * at the first error and never throws a recognition error.
 *
 * Recursion is bounded: a group deeper than the depth limit is reported and
 * its body skipped by a loop, so `Or(Or(Or(…` of any depth costs one rule
 * invocation per allowed level and linear time beyond.
 */
import { EmbeddedActionsParser, EOF, type IToken, type TokenType } from 'chevrotain';
import type {
  ComparisonNode,
  ConditionNode,
  FieldNode,
  FilterNode,
  GroupNode,
  InFieldsNode,
  ListNode,
  NullCheckNode,
  Span,
  ValueNode,
} from '../ast/nodes.js';
import { NO_SPAN } from '../ast/nodes.js';
import {
  canonicalOperator,
  FILTER_OPERATORS,
  operatorKind,
  type FilterOperator,
  type OperatorKind,
  type InFieldsOperator,
  type ListOperator,
  type NoValueOperator,
  type SingleValueOperator,
} from '../ast/operators.js';
import { DEFAULT_LIMITS, DEPTH_CEILING, LIMIT_CODES, limitMessage, type Limits } from '../diagnostics/limits.js';
import { nearestName } from '../diagnostics/suggest.js';
import { DiagnosticSink, type DiagnosticExtras } from './diagnostic-sink.js';
import {
  Comma,
  Dot,
  FILTER_TOKENS,
  GroupKeyword,
  LParen,
  Quoted,
  RParen,
  RunPart,
  Semicolon,
  StrayQuote,
  Unterminated,
  Word,
} from './filter-lexer.js';
import { excerpt } from './text-checks.js';
import { invalidCharacter, isIdentifier, quoteValue as quoteText, unquoteValue as unquoteText } from '../ast/lexical.js';

/**
 * The deepest group nesting the parser will recurse into, whatever
 * `limits.maxDepth` says: deeper input is reported as `nesting-too-deep`
 * rather than risking the call stack.
 *
 * @example
 * parseFilter(deepText, { limits: { maxDepth: 1e9 } }); // still nesting-too-deep past 200 levels
 */
export const PARSER_DEPTH_CEILING = DEPTH_CEILING;

/**
 * One comma-separated slot of an argument list. Slots are pooled by the
 * parser and overwritten by the next condition: a condition's slots are
 * read only by its own `buildCondition`, before any other condition starts.
 */
interface Arg {
  /** The run of value tokens in the slot (possibly empty): the parser's scratch run `[from, to)`. */
  from: number;
  to: number;
  /** True when unexpected tokens followed the run (already reported). */
  junk: boolean;
  /** Offset where the slot begins: just after `(` or `,`. */
  start: number;
  /** The `,` that precedes the slot, if any. */
  comma: IToken | undefined;
}

/**
 * The token view of one condition while its node is built: the head tokens
 * (the scratch run), the argument slots, the parentheses, and what the head
 * resolved to. Filled once per condition by `buildCondition`, then read by
 * the builder of the operator's kind.
 */
interface ConditionView {
  head: IToken[];
  /** Index in `head` of the `.` before the operator (-1: none). */
  lastDot: number;
  open: IToken;
  close: IToken | undefined;
  /** `args[0, n)` are the argument slots. */
  args: Arg[];
  n: number;
  op: FilterOperator;
  opSpan: Span;
  span: Span;
  /** Where the condition ends: past `)`, or past the last token read when `)` is missing. */
  spanEnd: number;
  /** False once a problem that leaves the node unbuilt was reported (limit, missing `)`). */
  ok: boolean;
}

/** Offset just past `t` (the scanner sets `endOffset` on every token, so reading it slices no image). */
function endOf(t: IToken): number {
  return t.endOffset! + 1;
}

function isNameToken(type: TokenType): boolean {
  return type === Word || type === GroupKeyword;
}

/**
 * Chevrotain parser with embedded actions; one instance is reused for every parse.
 *
 * @example
 * const parser = new FilterParser();
 * parser.prepare(text, DEFAULT_LIMITS, sink);
 * parser.input = scanFilter(text);
 * const clauses = parser.filter();
 */
export class FilterParser extends EmbeddedActionsParser {
  private text = '';
  private sink = new DiagnosticSink(0, 0);
  private limits: Limits = DEFAULT_LIMITS;
  private maxDepth = DEFAULT_LIMITS.maxDepth;
  private depth = 0;
  private conditions = 0;
  private carriedSeparator: IToken | undefined;
  private carriedSlotNonEmpty = false;

  constructor() {
    super(FILTER_TOKENS, { maxLookahead: 1, recoveryEnabled: false, skipValidations: false });
    this.performSelfAnalysis();
  }

  /** Prepares the parser for one text; call before setting `input`. */
  prepare(text: string, limits: Limits, sink: DiagnosticSink): void {
    this.text = text;
    this.limits = limits;
    this.sink = sink;
    // `!(x <= ceiling)` also catches NaN and undefined (a caller's spread of
    // an unset option), which Math.min would turn into "no bound at all".
    this.maxDepth = limits.maxDepth <= PARSER_DEPTH_CEILING ? limits.maxDepth : PARSER_DEPTH_CEILING;
    this.depth = 0;
    this.conditions = 0;
  }

  /** The first token the last parse left unread, if any (never, unless the grammar has a defect). */
  unreadToken(): IToken | undefined {
    const t = this.LA(1);
    return t.tokenType === EOF ? undefined : t;
  }

  // filter = [ clauses ] ;   (grammar/filter.ebnf)
  readonly filter = this.RULE('filter', (): FilterNode[] => {
    const clauses = this.SUBRULE(this.clauses, { ARGS: [false] });
    // A ')' with nothing to close: reported and skipped, then the clause list goes on.
    this.MANY(() => {
      const stray = this.CONSUME(RParen);
      if (!this.RECORDING_PHASE) {
        // Deleting it is a guess, not a fix: the author may have left out an
        // `Or(` before it, and deleting the ')' would silently AND the clauses.
        this.sink.add(
          'unexpected-close-paren',
          "this ')' has no matching '('; remove it, or add the 'Or(' or 'And(' it was meant to close",
          stray.startOffset,
          stray.startOffset + 1,
        );
      }
      const more = this.SUBRULE2(this.clauses, { ARGS: [true] });
      if (!this.RECORDING_PHASE) for (const c of more) clauses.push(c);
    });
    return clauses;
  });

  // clauses = clause { ";" clause } ;   empty clauses are allowed here and reported as warnings
  readonly clauses = this.RULE('clauses', (continuation?: boolean): FilterNode[] => {
    const nodes: FilterNode[] = [];
    // Empty-clause bookkeeping: a separator is redundant unless it is the
    // first one after a non-empty clause and another non-empty clause
    // follows; each redundant one is an \`empty-clause\` whose fix deletes it.
    // A top-level list interrupted by a stray ')' hands its state on.
    let pendingSeparator: IToken | undefined;
    let slotNonEmpty = false;
    if (continuation === true && !this.RECORDING_PHASE) {
      pendingSeparator = this.carriedSeparator;
      slotNonEmpty = this.carriedSlotNonEmpty;
    }
    const first = this.OPTION(this.parseFirstClause);
    if (!this.RECORDING_PHASE) {
      if (first !== undefined) {
        slotNonEmpty = true;
        if (first !== null) nodes.push(first);
      }
      if (this.skipClauseJunk(first !== undefined)) slotNonEmpty = true;
      if (slotNonEmpty) pendingSeparator = undefined;
    }
    this.MANY(() => {
      const separator = this.CONSUME(Semicolon);
      if (!this.RECORDING_PHASE) {
        if (slotNonEmpty) pendingSeparator ??= separator;
        else this.reportEmptyClause(separator);
        slotNonEmpty = false;
      }
      const next = this.OPTION2(this.parseNextClause);
      if (!this.RECORDING_PHASE) {
        if (next !== undefined) {
          slotNonEmpty = true;
          if (next !== null) nodes.push(next);
        }
        if (this.skipClauseJunk(next !== undefined)) slotNonEmpty = true;
        if (slotNonEmpty) pendingSeparator = undefined;
      }
    });
    if (!this.RECORDING_PHASE) {
      if (this.depth === 0 && this.LA(1).tokenType === RParen) {
        this.carriedSeparator = pendingSeparator;
        this.carriedSlotNonEmpty = slotNonEmpty;
      } else if (pendingSeparator !== undefined) this.reportEmptyClause(pendingSeparator);
    }
    return nodes;
  });

  // clause = group | condition ;   a group needs `And`/`Or` directly followed by "("
  // (written inline in `clauses` through cached alternatives: one rule call less per clause)
  private readonly firstClauseAlternatives = {
    MAX_LOOKAHEAD: 2,
    IGNORE_AMBIGUITIES: true,
    DEF: [{ ALT: (): FilterNode | null => this.SUBRULE(this.group) }, { ALT: (): FilterNode | null => this.SUBRULE(this.condition) }],
  };
  private readonly nextClauseAlternatives = {
    MAX_LOOKAHEAD: 2,
    IGNORE_AMBIGUITIES: true,
    DEF: [{ ALT: (): FilterNode | null => this.SUBRULE2(this.group) }, { ALT: (): FilterNode | null => this.SUBRULE2(this.condition) }],
  };
  // Once the grammar is recorded, the choice is made here rather than by
  // Chevrotain's general two-token lookahead: it is the one that lookahead
  // makes (entered on a word, the group is tried first and needs `And`/`Or`
  // then "("; any other word starts a condition), at a tenth of its cost.
  private readonly parseFirstClause = (): FilterNode | null =>
    this.RECORDING_PHASE
      ? this.OR(this.firstClauseAlternatives)
      : this.startsGroup()
        ? this.SUBRULE(this.group)
        : this.SUBRULE(this.condition);
  private readonly parseNextClause = (): FilterNode | null =>
    this.RECORDING_PHASE
      ? this.OR2(this.nextClauseAlternatives)
      : this.startsGroup()
        ? this.SUBRULE2(this.group)
        : this.SUBRULE2(this.condition);
  private startsGroup(): boolean {
    return this.LA(1).tokenType === GroupKeyword && this.LA(2).tokenType === LParen;
  }

  // group = ( "And" | "Or" ) "(" clauses ")" ;
  readonly group = this.RULE('group', (): GroupNode | null => {
    const keyword = this.CONSUME(GroupKeyword);
    const open = this.CONSUME(LParen);
    let errorsBefore = 0;
    let tooDeep = false;
    if (!this.RECORDING_PHASE) {
      errorsBefore = this.sink.errorCount;
      if (this.depth >= this.maxDepth) {
        tooDeep = true;
        const ceiling = !(this.limits.maxDepth <= PARSER_DEPTH_CEILING);
        this.sink.add(
          'nesting-too-deep',
          ceiling
            ? `groups nest deeper than the parser's ceiling of ${PARSER_DEPTH_CEILING} levels`
            : `${limitMessage('maxDepth', this.maxDepth)}; flatten the filter`,
          keyword.startOffset,
          endOf(open),
        );
        this.skipGroupBody();
      }
      this.depth++;
    }
    const children = this.SUBRULE(this.clauses);
    const close = this.OPTION(() => this.CONSUME(RParen));
    if (this.RECORDING_PHASE) return null;
    this.depth--;
    if (tooDeep) return null;
    const operator = keyword.endOffset! - keyword.startOffset === 1 ? 'Or' : 'And';
    if (close === undefined) {
      this.reportMissingClose(open, this.lastConsumedEnd(open));
      return null;
    }
    const span = { start: keyword.startOffset, end: endOf(close) };
    if (children.length === 0) {
      if (this.sink.errorCount === errorsBefore) {
        this.sink.add(
          'empty-group',
          `${operator}() must contain at least one clause; remove it or add conditions separated by ;`,
          span.start,
          span.end,
        );
      }
      return null;
    }
    if (children.length === 1 && this.sink.errorCount === errorsBefore) {
      const child = children[0]!;
      this.sink.add(
        'single-child-group',
        `${operator}(…) has a single clause, which means the same as the clause alone`,
        span.start,
        span.end,
        { fix: [{ start: span.start, end: span.end, newText: this.text.slice(child.span.start, child.span.end) }] },
      );
    }
    return { kind: 'group', operator, operatorSpan: { start: keyword.startOffset, end: endOf(keyword) }, children, span };
  });

  // condition = head "(" arguments ")" ;   head = segment { "." segment }
  readonly condition = this.RULE('condition', (): ConditionNode | null => {
    // Conditions never nest, so the pieces of the one being parsed live in
    // fields filled by closures created once: no allocation per token. The
    // head is the start of the scratch run, which is reused across
    // conditions and parses (a fresh array per head reserved sixteen slots).
    this.runLength = 0;
    this.AT_LEAST_ONE(this.pushHeadPart);
    const headLength = this.runLength;
    this.callOpen = undefined;
    this.callClose = undefined;
    this.OPTION(this.parseCall);
    if (this.RECORDING_PHASE) return null;
    return this.buildCondition(this.run, headLength, this.callOpen, this.args, this.argCount, this.callClose);
  });

  // arguments = [ argument ] { "," [ argument ] } ;   argument = value | field
  readonly arguments = this.RULE('arguments', (): void => {
    this.argCount = 0;
    const from = this.runLength;
    this.MANY(this.pushArgumentPart);
    if (!this.RECORDING_PHASE) {
      const to = this.runLength;
      // Nothing consumed yet besides the run, so LA(0) is the '(' when the run is empty.
      const start = to > from ? this.run[from]!.startOffset : endOf(this.LA(0));
      this.addArg(from, to, start, undefined);
    }
    this.MANY2(this.parseNextArgument);
  });

  /** Scratch tokens of the condition being parsed: its head, then its arguments' runs. */
  private readonly run: IToken[] = [];
  private runLength = 0;
  /** Pooled slots; the current condition's are `[0, argCount)`. */
  private readonly args: Arg[] = [];
  private argCount = 0;
  private callOpen: IToken | undefined;
  private callClose: IToken | undefined;
  private readonly pushHeadPart = (): void => {
    this.run[this.runLength++] = this.CONSUME(RunPart);
  };
  private readonly pushArgumentPart = (): void => {
    this.run[this.runLength++] = this.CONSUME2(RunPart);
  };
  private readonly pushNextArgumentPart = (): void => {
    this.run[this.runLength++] = this.CONSUME3(RunPart);
  };
  private readonly consumeClose = (): IToken => this.CONSUME(RParen);
  private readonly parseCall = (): void => {
    this.callOpen = this.CONSUME(LParen);
    this.SUBRULE(this.arguments);
    this.callClose = this.OPTION2(this.consumeClose);
  };
  private readonly parseNextArgument = (): void => {
    const comma = this.CONSUME(Comma);
    const from = this.runLength;
    this.MANY3(this.pushNextArgumentPart);
    if (!this.RECORDING_PHASE) this.addArg(from, this.runLength, endOf(comma), comma);
  };
  /** Records the next slot (its run ends the scratch run) and skips what follows it up to `,`, `)` or `;`. */
  private addArg(from: number, to: number, start: number, comma: IToken | undefined): void {
    const junk = this.skipArgumentJunk();
    const i = this.argCount++;
    // Never read past the end: a polluted Object.prototype answers for missing indices.
    const a = i < this.args.length ? this.args[i] : undefined;
    if (a === undefined) this.args.push({ from, to, junk, start, comma });
    else {
      a.from = from;
      a.to = to;
      a.junk = junk;
      a.start = start;
      a.comma = comma;
    }
  }

  // ---- recovery -------------------------------------------------------

  /**
   * After a clause (or where a clause should start), skips tokens the
   * grammar cannot place up to the next `;`, the next unbalanced `)` or the
   * end. Returns true when anything was skipped.
   */
  private skipClauseJunk(afterClause: boolean): boolean {
    let skipped = false;
    let reported = false;
    let local = 0;
    for (;;) {
      const t = this.LA(1);
      const type = t.tokenType;
      if (type === EOF || type === Semicolon) return skipped;
      if (type === RParen && local === 0) return skipped;
      if (type === LParen) local++;
      else if (type === RParen) local--;
      if (!reported && type !== Unterminated) {
        reported = true;
        this.sink.add(
          'unexpected-token',
          afterClause
            ? `unexpected ${describeToken(t)} after the clause; separate clauses with ';'`
            : `unexpected ${describeToken(t)}; a clause is Field.Operator(…), value.OperatorInFields(…), And(…) or Or(…)`,
          t.startOffset,
          endOf(t),
        );
      }
      skipped = true;
      this.SKIP_TOKEN();
    }
  }

  /** Inside `(…)` of a condition: skips to the next `,`, `)`, `;` or the end. */
  private skipArgumentJunk(): boolean {
    let skipped = false;
    let local = 0;
    for (;;) {
      const t = this.LA(1);
      const type = t.tokenType;
      if (type === EOF || type === Semicolon) return skipped;
      if (local === 0 && (type === Comma || type === RParen)) return skipped;
      if (type === LParen) local++;
      else if (type === RParen) local--;
      if (!skipped && type !== Unterminated) {
        this.sink.add(
          'unexpected-token',
          `unexpected ${describeToken(t)} in a value; quote values that contain ( ) , or ; as in 'a(b)'`,
          t.startOffset,
          endOf(t),
        );
      }
      skipped = true;
      this.SKIP_TOKEN();
    }
  }

  /** Skips a too-deep group's body, stopping before its closing `)`. */
  private skipGroupBody(): void {
    let local = 0;
    for (;;) {
      const type = this.LA(1).tokenType;
      if (type === EOF) return;
      if (type === RParen) {
        if (local === 0) return;
        local--;
      } else if (type === LParen) local++;
      this.SKIP_TOKEN();
    }
  }

  // ---- reports --------------------------------------------------------

  private reportEmptyClause(separator: IToken): void {
    this.sink.add(
      'empty-clause',
      "empty clause: nothing stands on one side of this ';'; it is ignored",
      separator.startOffset,
      separator.startOffset + 1,
      {
        fix: [{ start: separator.startOffset, end: separator.startOffset + 1, newText: '' }],
      },
    );
  }

  private reportMissingClose(open: IToken, insertAt: number): void {
    // Where the ')' belongs is a guess, so it is a suggestion, not a fix:
    // a fix is applied by `lint --fix` and must keep the author's meaning.
    void insertAt;
    this.sink.add('missing-close-paren', "this '(' has no matching ')'", open.startOffset, open.startOffset + 1, {
      suggestion: ')',
    });
  }

  /** End offset of the last token consumed so far (at least past `open`). */
  private lastConsumedEnd(open: IToken): number {
    const t = this.LA(0);
    return Math.max(endOf(open), t.tokenType === EOF ? 0 : endOf(t));
  }

  // ---- semantic actions -----------------------------------------------

  /** `head[0, headLength)` is the condition's head; `head` may hold stale tokens past it. */
  /** `args[0, n)` are its argument slots when it has an argument list (`open` set); `args` may hold stale slots past them. */
  private buildCondition(
    head: IToken[],
    headLength: number,
    open: IToken | undefined,
    args: Arg[],
    n: number,
    close: IToken | undefined,
  ): ConditionNode | null {
    for (let i = 0; i < headLength; i++) if (head[i]!.tokenType === Unterminated) return null; // reported by the lexer pass
    let lastDot = -1;
    for (let i = headLength - 1; i >= 0; i--) {
      if (head[i]!.tokenType === Dot) {
        lastDot = i;
        break;
      }
    }
    const opToken = lastDot === headLength - 1 ? undefined : head[lastDot + 1];
    // The operator's name is compared in the text; its image is sliced only for messages.
    const opIsName = opToken !== undefined && isNameToken(opToken.tokenType) && lastDot + 2 === headLength;
    const entry = opIsName ? operatorFor(this.text, opToken) : undefined;
    if (open === undefined) return this.reportNoArgumentList(head, headLength, lastDot, entry);

    const counted = this.countCondition(head[0]!, open, close);
    const closed = this.checkClosed(head, open, args, n, close);
    if (entry === undefined) return this.reportBadOperator(head, lastDot, opToken, opIsName, open, args, n);
    const view = this.view;
    view.head = head;
    view.lastDot = lastDot;
    view.open = open;
    view.close = close;
    view.args = args;
    view.n = n;
    view.op = entry.op;
    view.opSpan = { start: opToken!.startOffset, end: endOf(opToken!) };
    view.spanEnd = close === undefined ? this.lastConsumedEnd(open) : endOf(close);
    view.span = { start: head[0]!.startOffset, end: view.spanEnd };
    view.ok = counted && closed;
    if (!this.checkHeadShape(view, entry.kind)) return null;
    switch (entry.kind) {
      case 'in-fields':
        return this.buildInFields(view);
      case 'no-value':
        return this.buildNullCheck(view);
      case 'single-value':
        return this.buildComparison(view);
      case 'list':
        return this.buildList(view);
    }
  }

  /** The condition being built, refilled for each one (conditions never nest). */
  private readonly view: ConditionView = {
    head: [],
    lastDot: -1,
    open: undefined as unknown as IToken,
    close: undefined,
    args: [],
    n: 0,
    op: 'Equal',
    opSpan: NO_SPAN,
    span: NO_SPAN,
    spanEnd: 0,
    ok: true,
  };

  /** A head without `(…)`: not a condition. */
  private reportNoArgumentList(head: IToken[], headLength: number, lastDot: number, entry: OperatorEntry | undefined): null {
    const first = head[0]!;
    const headEnd = endOf(head[headLength - 1]!);
    const written = excerpt(this.text.slice(first.startOffset, headEnd));
    this.sink.add(
      'missing-operator',
      entry !== undefined && lastDot > 0
        ? `"${written}" has no argument list; write ${written}(…)`
        : `"${written}" is not a condition; write Field.Operator(value), for example Name.Equal(x)`,
      first.startOffset,
      headEnd,
    );
    return null;
  }

  /** Counts the condition against maxConditions; false past the limit (reported once). */
  private countCondition(first: IToken, open: IToken, close: IToken | undefined): boolean {
    this.conditions++;
    if (this.conditions <= this.limits.maxConditions) return true;
    if (this.conditions === this.limits.maxConditions + 1) {
      this.sink.add(
        LIMIT_CODES.maxConditions,
        limitMessage('maxConditions', this.limits.maxConditions),
        first.startOffset,
        close === undefined ? this.lastConsumedEnd(open) : endOf(close),
      );
    }
    return false;
  }

  /** False when the argument list has no `)` (reported unless an unterminated quote swallowed it). */
  private checkClosed(head: IToken[], open: IToken, args: Arg[], n: number, close: IToken | undefined): boolean {
    if (close !== undefined) return true;
    const lastArg = args[n - 1]!;
    const swallowed = lastArg.to > lastArg.from && head[lastArg.to - 1]!.tokenType === Unterminated;
    if (!swallowed) this.reportMissingClose(open, this.lastConsumedEnd(open));
    return false;
  }

  /** The last head segment is missing, not a name, or not an operator: reports which. */
  private reportBadOperator(
    head: IToken[],
    lastDot: number,
    opToken: IToken | undefined,
    opIsName: boolean,
    open: IToken,
    args: Arg[],
    n: number,
  ): null {
    const sink = this.sink;
    const first = head[0]!;
    if (opToken === undefined) {
      sink.add('missing-operator', "missing operator name before '('; write Field.Operator(value)", first.startOffset, endOf(open));
      return null;
    }
    if (!opIsName) {
      const bad = isNameToken(opToken.tokenType) ? head[lastDot + 2]! : opToken;
      sink.add(
        'unexpected-token',
        `unexpected ${describeToken(bad)}; an operator name such as Equal comes right before '('`,
        bad.startOffset,
        endOf(bad),
      );
      return null;
    }
    const opName = opToken.image;
    if (lastDot < 0) {
      sink.add(
        'missing-operator',
        `"${excerpt(opName)}(…)" is not a condition; write Field.Operator(value), And(…) or Or(…)`,
        opToken.startOffset,
        endOf(open),
      );
      return null;
    }
    const suggestion = nearestName(opName, FILTER_OPERATORS);
    sink.add(
      'unknown-operator',
      suggestion === undefined
        ? `unknown operator "${excerpt(opName)}"`
        : `unknown operator "${excerpt(opName)}"; did you mean "${suggestion}"?`,
      opToken.startOffset,
      endOf(opToken),
      // The nearest name is a guess at what was meant: a suggestion, never a fix.
      suggestion === undefined ? undefined : { suggestion },
    );
    // Arguments are still checked so that every independent problem is reported.
    this.checkArgumentsLoosely(args, n);
    return null;
  }

  /** A field operator needs a field before it, an InFields operator a value. */
  private checkHeadShape(v: ConditionView, kind: OperatorKind): boolean {
    const { op, opSpan } = v;
    if (v.lastDot < 0) {
      if (kind === 'in-fields') {
        this.sink.add('missing-value', `${op} needs a value before it: write value.${op}(Field1,Field2)`, opSpan.start, opSpan.end);
      } else {
        this.sink.add('invalid-field-path', `${op} needs a field before it: write Field.${op}(…)`, opSpan.start, opSpan.end);
      }
      return false;
    }
    if (v.lastDot === 0 && kind !== 'in-fields') {
      this.sink.add('invalid-field-path', `missing field before .${op}; write Field.${op}(…)`, v.head[0]!.startOffset, opSpan.end);
      return false;
    }
    return true;
  }

  /** `value.OpInFields(F1,…)`. */
  private buildInFields(v: ConditionView): InFieldsNode | null {
    const operator = v.op as InFieldsOperator;
    const value = this.buildHeadValue(v.head, v.lastDot);
    const fields = this.buildFieldArguments(operator, v.args, v.n, v.open, v.close);
    if (!v.ok || value === null || fields === null) return null;
    return { kind: 'in-fields', value, operator, operatorSpan: v.opSpan, fields, span: v.span };
  }

  /** `Field.IsNull()` / `Field.IsNotNull()`: no argument. */
  private buildNullCheck(v: ConditionView): NullCheckNode | null {
    const { args, n, op } = v;
    const field = this.buildField(v.head, 0, v.lastDot, 'field');
    const a0 = args[0]!;
    if (n > 1 || a0.to > a0.from || a0.junk) {
      const from = a0.to > a0.from ? this.run[a0.from]!.startOffset : ((n > 1 ? args[1]!.comma?.startOffset : undefined) ?? a0.start);
      const to = v.close === undefined ? this.lastConsumedEnd(v.open) : v.close.startOffset;
      this.sink.add('unexpected-argument', `${op}() takes no argument; write ${op}()`, from, Math.max(from, to), {
        // Dropping what the author wrote is a guess: a suggestion, not a fix.
        suggestion: `${op}()`,
      });
      return null;
    }
    if (!v.ok || field === null) return null;
    return { kind: 'null-check', field, operator: op as NoValueOperator, operatorSpan: v.opSpan, span: v.span };
  }

  /** `Field.Op(value)`: exactly one value. */
  private buildComparison(v: ConditionView): ComparisonNode | null {
    const { args, n, op } = v;
    const field = this.buildField(v.head, 0, v.lastDot, 'field');
    if (n > 1) {
      const from = args[1]!.comma!.startOffset;
      const to = this.argsEnd(args, n);
      this.sink.add(
        'too-many-values',
        `${op} takes exactly one value but got ${n}; use InArray(…) for several values, or quote a value that contains ','`,
        from,
        Math.max(from + 1, to),
      );
      for (let i = 0; i < n; i++) this.buildValue(args[i]!);
      return null;
    }
    const arg = args[0]!;
    if (arg.to === arg.from && !arg.junk) {
      this.sink.add('missing-value', `${op} needs a value: write ${field?.name ?? 'Field'}.${op}(value)`, v.open.startOffset, v.spanEnd);
      return null;
    }
    const value = this.buildValue(arg);
    if (!v.ok || field === null || value === null) return null;
    return { kind: 'comparison', field, operator: op as SingleValueOperator, operatorSpan: v.opSpan, value, span: v.span };
  }

  /** `Field.Op(v1,v2,…)`: one or more values, at most maxListValues. */
  private buildList(v: ConditionView): ListNode | null {
    const { args, n, op } = v;
    const field = this.buildField(v.head, 0, v.lastDot, 'field');
    if (n === 1 && args[0]!.to === args[0]!.from && !args[0]!.junk) {
      this.sink.add(
        'missing-value',
        `${op} needs at least one value: write ${field?.name ?? 'Field'}.${op}(a,b)`,
        v.open.startOffset,
        v.spanEnd,
      );
      return null;
    }
    const values: ValueNode[] = [];
    let listOk = true;
    if (n > this.limits.maxListValues) {
      const from = args[this.limits.maxListValues]!.start;
      this.sink.add(
        LIMIT_CODES.maxListValues,
        limitMessage('maxListValues', this.limits.maxListValues, op),
        from,
        Math.max(from, this.argsEnd(args, n)),
      );
      listOk = false;
    }
    for (let i = 0; i < n; i++) {
      const a = args[i]!;
      if (a.to === a.from && !a.junk) {
        this.reportEmptyItem(args, n, i, v.close, 'value');
        listOk = false;
        continue;
      }
      const value = this.buildValue(a);
      if (value === null) listOk = false;
      else values.push(value);
    }
    if (!v.ok || !listOk || field === null) return null;
    return { kind: 'list', field, operator: op as ListOperator, operatorSpan: v.opSpan, values, span: v.span };
  }

  /** For an unknown operator: still reports value-level problems (quotes, bad characters). */
  private checkArgumentsLoosely(args: Arg[], n: number): void {
    for (let i = 0; i < n; i++) if (args[i]!.to > args[i]!.from) this.buildValue(args[i]!);
  }

  private argsEnd(args: Arg[], n: number): number {
    const last = args[n - 1]!;
    if (last.to > last.from) return endOf(this.run[last.to - 1]!);
    return last.start;
  }

  private reportEmptyItem(args: Arg[], n: number, i: number, close: IToken | undefined, what: 'value' | 'field'): void {
    const next = (i + 1 < n ? args[i + 1]!.comma : undefined) ?? close;
    const at = next === undefined ? args[i]!.start : next.startOffset;
    this.sink.add(
      'missing-value',
      what === 'value'
        ? `empty item in the list; remove the extra ',' or add a value`
        : `empty item in the field list; remove the extra ',' or add a field`,
      at,
      next === undefined ? at : at + 1,
    );
  }

  /** docs/reference.md §"Lexical rules" bare/quoted value from the tokens of one argument slot. */
  private buildValue(arg: Arg): ValueNode | null {
    const tokens = this.run;
    const from = arg.from;
    const to = arg.to;
    if (to === from || arg.junk) return null;
    const first = tokens[from]!;
    const last = tokens[to - 1]!;
    if (last.tokenType === Unterminated) return null;
    let value: string;
    let raw: string;
    let quoted = false;
    if (first.tokenType === Quoted) {
      if (to - from > 1) {
        const extra = tokens[from + 1]!;
        this.sink.add(
          'unexpected-token',
          `unexpected ${describeToken(extra)} after the quoted value ${excerpt(first.image)}; put the whole value inside the quotes`,
          extra.startOffset,
          endOf(last),
        );
        return null;
      }
      raw = first.image;
      value = unquoteText(raw);
      quoted = true;
    } else {
      const start = first.startOffset;
      const end = endOf(last);
      // A one-token value is its token's image: no second copy of the text.
      raw = to - from === 1 ? first.image : this.text.slice(start, end);
      for (let i = from + 1; i < to; i++) {
        const type = tokens[i]!.tokenType;
        if (type === StrayQuote || type === Quoted) {
          const q = quoteText(raw);
          const at = tokens[i]!.startOffset;
          this.sink.add(
            'unexpected-quote',
            `unexpected ' inside the value ${excerpt(raw)}; quote the whole value and double the quote: ${excerpt(q, 80)}`,
            at,
            at + 1,
            quoteRepair(tokens, from, to, start, end, q),
          );
          return null;
        }
      }
      value = raw;
    }
    const start = first.startOffset;
    const end = endOf(last);
    const bad = invalidCharacter(value);
    if (bad !== undefined) {
      this.sink.add('invalid-character', `the value contains ${bad}, which databases reject`, start, end);
      return null;
    }
    return { kind: 'value', value, quoted, raw, span: { start, end } };
  }

  /** The value before an InFields operator: segments joined with `.`, or one quoted value (docs/reference.md §"Filter grammar"). */
  private buildHeadValue(head: IToken[], lastDot: number): ValueNode | null {
    const first = head[0]!;
    const end = endOf(head[lastDot - 1] ?? head[0]!);
    if (lastDot === 0) {
      this.sink.add(
        'missing-value',
        'missing value before the InFields operator; write value.OperatorInFields(Field1,Field2)',
        first.startOffset,
        endOf(first),
      );
      return null;
    }
    if (lastDot === 1 && first.tokenType === Quoted) {
      const value = unquoteText(first.image);
      const bad = invalidCharacter(value);
      if (bad !== undefined) {
        this.sink.add('invalid-character', `the value contains ${bad}, which databases reject`, first.startOffset, end);
        return null;
      }
      return { kind: 'value', value, quoted: true, raw: first.image, span: { start: first.startOffset, end } };
    }
    const source = this.text.slice(first.startOffset, end);
    let expectName = true;
    let value = '';
    for (let i = 0; i < lastDot; i++) {
      const t = head[i]!;
      const type = t.tokenType;
      if (type === StrayQuote || type === Quoted) {
        const q = quoteText(source);
        this.sink.add(
          'unexpected-quote',
          `unexpected ' in the value ${excerpt(source)} before the InFields operator; quote the whole value and double the quote: ${excerpt(q, 80)}`,
          t.startOffset,
          t.startOffset + 1,
          quoteRepair(head, 0, lastDot, first.startOffset, end, q),
        );
        return null;
      }
      if (type === Dot) {
        if (expectName) {
          this.sink.add(
            'unexpected-token',
            "unexpected '.': a value before an InFields operator cannot have an empty segment; quote it",
            t.startOffset,
            t.startOffset + 1,
            {
              suggestion: quoteText(source),
            },
          );
          return null;
        }
        value += '.';
        expectName = true;
        continue;
      }
      if (!expectName) {
        // The value the author wrote is the segments joined with '.', each
        // keeping its inner whitespace; whitespace around a '.' is not part
        // of it. Only when that reading is certain (no quotes, no empty
        // segment) is quoting it a fix; otherwise it is a suggestion.
        const joined = this.joinedHeadText(head, lastDot);
        const q = quoteText(joined ?? source);
        this.sink.add(
          'unexpected-token',
          `unexpected ${describeToken(t)}: a value before an InFields operator that contains spaces must be quoted: ${excerpt(q, 80)}`,
          t.startOffset,
          endOf(t),
          joined === undefined ? { suggestion: q } : { suggestion: q, fix: [{ start: first.startOffset, end, newText: q }] },
        );
        return null;
      }
      value += t.image;
      expectName = false;
    }
    if (expectName) {
      const dot = head[lastDot - 1]!;
      this.sink.add(
        'unexpected-token',
        "unexpected '.': a value before an InFields operator cannot end with an empty segment; quote it",
        dot.startOffset,
        dot.startOffset + 1,
        {
          suggestion: quoteText(source),
        },
      );
      return null;
    }
    const bad = invalidCharacter(value);
    if (bad !== undefined) {
      this.sink.add('invalid-character', `the value contains ${bad}, which databases reject`, first.startOffset, end);
      return null;
    }
    return { kind: 'value', value, quoted: false, raw: value, span: { start: first.startOffset, end } };
  }

  /**
   * The bare InFields head `head[0, lastDot)` read as docs/reference.md §"Filter grammar" says: its
   * segments joined with '.', a segment being the source from its first to
   * its last token (inner whitespace kept). Undefined when the head holds a
   * quote or an empty segment, where no reading is certain.
   */
  private joinedHeadText(head: IToken[], lastDot: number): string | undefined {
    let out = '';
    let segmentStart = -1;
    let segmentEnd = -1;
    for (let i = 0; i <= lastDot; i++) {
      const t = head[i]!;
      const type = t.tokenType;
      if (type === Dot) {
        if (segmentStart < 0) return undefined;
        out += this.text.slice(segmentStart, segmentEnd) + (i < lastDot ? '.' : '');
        segmentStart = -1;
        continue;
      }
      if (!isNameToken(type)) return undefined;
      if (segmentStart < 0) segmentStart = t.startOffset;
      segmentEnd = endOf(t);
    }
    return out;
  }

  /** The arguments of an InFields operator: one or more field paths. */
  private buildFieldArguments(op: InFieldsOperator, args: Arg[], n: number, open: IToken, close: IToken | undefined): FieldNode[] | null {
    if (n === 1 && args[0]!.to === args[0]!.from && !args[0]!.junk) {
      const end = close === undefined ? endOf(open) : endOf(close);
      this.sink.add('missing-value', `${op} needs at least one field: write value.${op}(Field1,Field2)`, open.startOffset, end);
      return null;
    }
    let ok = true;
    if (n > this.limits.maxInFields) {
      const from = args[this.limits.maxInFields]!.start;
      this.sink.add(
        LIMIT_CODES.maxInFields,
        limitMessage('maxInFields', this.limits.maxInFields, op),
        from,
        Math.max(from, this.argsEnd(args, n)),
      );
      ok = false;
    }
    const fields: FieldNode[] = [];
    for (let i = 0; i < n; i++) {
      const a = args[i]!;
      if (a.junk) {
        ok = false;
        continue;
      }
      if (a.to === a.from) {
        this.reportEmptyItem(args, n, i, close, 'field');
        ok = false;
        continue;
      }
      const f = this.buildField(this.run, a.from, a.to, 'argument');
      if (f === null) ok = false;
      else fields.push(f);
    }
    return ok ? fields : null;
  }

  /** A field path from `tokens[from, to)`: identifiers separated by dots (docs/reference.md §"Lexical rules"). */
  private buildField(tokens: IToken[], from: number, to: number, where: 'field' | 'argument'): FieldNode | null {
    const first = tokens[from]!;
    const last = tokens[to - 1]!;
    const start = first.startOffset;
    const end = endOf(last);
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
          this.sink.add(
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
        this.sink.add('invalid-field-path', `a field name cannot contain spaces: "${excerpt(this.text.slice(start, end))}"`, start, end);
        return null;
      }
      const image = t.image;
      if (!isNameToken(type) || !isIdentifier(image)) {
        const shown = type === Quoted ? `${excerpt(t.image)} (field names are not quoted)` : `"${excerpt(t.image)}"`;
        this.sink.add(
          'invalid-field-path',
          `${shown} is not a valid field name; a field is letters, digits and _ (not starting with a digit), with '.' between nested names`,
          t.startOffset,
          endOf(t),
        );
        return null;
      }
      if (path === undefined) path = [image];
      else path.push(image);
      expectName = false;
    }
    if (expectName || path === undefined) {
      const lastToken = tokens[to - 1]!;
      this.sink.add(
        'invalid-field-path',
        where === 'field' ? 'a field path has an empty segment before the operator' : "a field path cannot end with '.'",
        lastToken.startOffset,
        endOf(lastToken),
      );
      return null;
    }
    return { kind: 'field', path, name: path.length === 1 ? path[0]! : path.join('.'), span: { start, end } };
  }
}

// Operator names resolve by comparing character codes against the names
// bucketed by length and first letter: no string hashing, no lower-casing
// (a Map lookup keyed by the freshly sliced name was a tenth of parse time).
// An ASCII case-insensitive match is also a `toLowerCase` match, so the
// result is canonicalOperator's; anything else takes canonicalOperator itself.
interface OperatorEntry {
  readonly op: FilterOperator;
  readonly kind: OperatorKind;
  readonly lower: string;
}
// Dense, with every slot its own property: a hole or a read past the end
// would find whatever a polluted Object.prototype holds at that index.
const OPERATOR_BUCKETS: (OperatorEntry[] | undefined)[] = Array.from(
  { length: bucketKey(Math.max(...FILTER_OPERATORS.map((op) => op.length)), 31) + 1 },
  () => undefined,
);
for (const op of FILTER_OPERATORS) {
  (OPERATOR_BUCKETS[bucketKey(op.length, op.charCodeAt(0))] ??= []).push({ op, kind: operatorKind(op), lower: op.toLowerCase() });
}
function bucketKey(length: number, firstCode: number): number {
  return length * 32 + (firstCode & 31);
}
function operatorFor(text: string, token: IToken): OperatorEntry | undefined {
  const start = token.startOffset;
  const length = endOf(token) - start;
  const key = bucketKey(length, text.charCodeAt(start));
  const bucket = key < OPERATOR_BUCKETS.length ? OPERATOR_BUCKETS[key] : undefined;
  if (bucket !== undefined) {
    next: for (const entry of bucket) {
      const lower = entry.lower;
      for (let i = 0; i < length; i++) if ((text.charCodeAt(start + i) | 0x20) !== lower.charCodeAt(i)) continue next;
      return entry;
    }
  }
  const op = canonicalOperator(token.image);
  return op === undefined ? undefined : { op, kind: operatorKind(op), lower: op.toLowerCase() };
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

/** How a token is named in messages. */
function describeToken(t: IToken): string {
  const type = t.tokenType;
  if (type === LParen) return "'('";
  if (type === RParen) return "')'";
  if (type === Comma) return "','";
  if (type === Semicolon) return "';'";
  if (type === Dot) return "'.'";
  if (type === StrayQuote) return "'";
  return `"${excerpt(t.image, 30)}"`;
}
