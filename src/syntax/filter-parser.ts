/**
 * The grammar of the filter language (grammar/filter.ebnf) and its driver:
 * the Chevrotain parser that reads clauses, groups and conditions, keeps the
 * clause bookkeeping (empty clauses) and the group depth, and hands each
 * condition's tokens to the condition builder (condition-builder.ts).
 *
 * The Chevrotain grammar is deliberately permissive at the token level:
 * heads and values are runs of `RunPart` tokens, argument lists are
 * comma-separated runs, and a closing `)` is optional. Everything the EBNF
 * forbids but this grammar accepts is reported by the builders with a
 * precise diagnostic, and tokens the grammar cannot place are skipped up to
 * the next `;` or `)` (filter-recovery.ts, docs/reference.md §"Diagnostics").
 * The parser therefore never stops at the first error and never throws a
 * recognition error.
 *
 * Recursion is bounded: a group deeper than the depth limit is reported and
 * its body skipped by a loop, so `Or(Or(Or(…` of any depth costs one rule
 * invocation per allowed level and linear time beyond.
 */
import { EmbeddedActionsParser, EOF, type IToken } from 'chevrotain';
import type { ConditionNode, FilterNode, GroupNode } from '../ast/nodes.js';
import { DEFAULT_LIMITS, limitMessage, type Limits } from '../diagnostics/limits.js';
import { ConditionBuilder, type Argument } from './condition-builder.js';
import { DiagnosticSink } from './diagnostic-sink.js';
import { Comma, FILTER_TOKENS, GroupKeyword, LParen, RParen, RunPart, Semicolon } from './filter-lexer.js';
import { groupOperatorOf } from './characters.js';
import { reportEmptyClause, reportSingleChildGroup } from './clause-reports.js';
import { PARSER_DEPTH_CEILING, parserDepthBound } from './depth-bound.js';
import { reportMissingClose, skipArgumentJunk, skipClauseJunk, skipGroupBody, type TokenCursor } from './filter-recovery.js';
import type { FilterVisitor } from './filter-events.js';
import { endOf } from './token-facts.js';

/** The slots of a condition without an argument list. */
const NO_ARGUMENTS: Argument[] = [];

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
  /** Told what the parser reads as it reads it, when set (filter-events.ts); unset, it costs one test per event. */
  visitor: FilterVisitor | undefined = undefined;
  private readonly builder = new ConditionBuilder();
  /** Recovery's view of the position in the tokens. */
  private readonly cursor: TokenCursor = { la: (n) => this.LA(n), skip: () => this.SKIP_TOKEN() };
  private carriedSeparator: IToken | undefined;
  private carriedSlotNonEmpty = false;

  /**
   * `validate` runs Chevrotain's grammar checks (ambiguity, left recursion,
   * unreachable alternatives), a third of building the parser. Production
   * skips them, as Chevrotain's documentation advises;
   * test/unit/syntax/grammar-validation.test.ts builds with them on and
   * checks that the grammar it validated is the one `parseFilter` runs.
   */
  constructor({ validate = false }: { readonly validate?: boolean } = {}) {
    super(FILTER_TOKENS, { maxLookahead: 1, recoveryEnabled: false, skipValidations: !validate });
    this.performSelfAnalysis();
  }

  /** Prepares the parser for one text; call before setting `input`. */
  prepare(text: string, limits: Limits, sink: DiagnosticSink): void {
    this.text = text;
    this.limits = limits;
    this.sink = sink;
    this.maxDepth = parserDepthBound(limits);
    this.depth = 0;
    this.builder.prepare(text, limits, sink);
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
        if (this.visitor !== undefined) this.visitor.skipped?.(stray.startOffset, stray.startOffset + 1);
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
      if (this.skipJunk(first !== undefined)) slotNonEmpty = true;
      if (slotNonEmpty) pendingSeparator = undefined;
    }
    this.MANY(() => {
      const separator = this.CONSUME(Semicolon);
      if (!this.RECORDING_PHASE) {
        if (this.visitor !== undefined) this.visitor.separator?.(separator.startOffset);
        if (slotNonEmpty) pendingSeparator ??= separator;
        else reportEmptyClause(this.sink, separator.startOffset);
        slotNonEmpty = false;
      }
      const next = this.OPTION2(this.parseNextClause);
      if (!this.RECORDING_PHASE) {
        if (next !== undefined) {
          slotNonEmpty = true;
          if (next !== null) nodes.push(next);
        }
        if (this.skipJunk(next !== undefined)) slotNonEmpty = true;
        if (slotNonEmpty) pendingSeparator = undefined;
      }
    });
    if (!this.RECORDING_PHASE) {
      if (this.depth === 0 && this.LA(1).tokenType === RParen) {
        this.carriedSeparator = pendingSeparator;
        this.carriedSlotNonEmpty = slotNonEmpty;
      } else if (pendingSeparator !== undefined) reportEmptyClause(this.sink, pendingSeparator.startOffset);
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
      tooDeep = this.enterGroup(keyword, open);
    }
    const children = this.SUBRULE(this.clauses);
    const close = this.OPTION(() => this.CONSUME(RParen));
    if (this.RECORDING_PHASE) return null;
    this.depth--;
    if (this.visitor !== undefined)
      this.visitor.leaveGroup?.(close === undefined ? this.lastConsumedEnd(open) : endOf(close), close !== undefined);
    if (tooDeep) return null;
    const operator = groupOperatorOf(endOf(keyword) - keyword.startOffset);
    if (close === undefined) {
      reportMissingClose(this.sink, open);
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
    if (children.length === 1 && this.sink.errorCount === errorsBefore)
      reportSingleChildGroup(this.sink, this.text, operator, span, children[0]!);
    return { kind: 'group', operator, operatorSpan: { start: keyword.startOffset, end: endOf(keyword) }, children, span };
  });

  /** Goes one group deeper; past the depth limit, reports it, skips the body and answers true. */
  private enterGroup(keyword: IToken, open: IToken): boolean {
    const tooDeep = this.depth >= this.maxDepth;
    if (this.visitor !== undefined) this.visitor.enterGroup?.(keyword.startOffset, endOf(open), tooDeep);
    this.depth++;
    if (!tooDeep) return false;
    const ceiling = !(this.limits.maxDepth <= PARSER_DEPTH_CEILING);
    this.sink.add(
      'nesting-too-deep',
      ceiling
        ? `groups nest deeper than the parser's ceiling of ${PARSER_DEPTH_CEILING} levels`
        : `${limitMessage('maxDepth', this.maxDepth)}; flatten the filter`,
      keyword.startOffset,
      endOf(open),
    );
    skipGroupBody(this.cursor);
    return true;
  }

  /** Skips what the grammar cannot place after a clause (filter-recovery.ts); true when anything was skipped. */
  private skipJunk(afterClause: boolean): boolean {
    const visitor = this.visitor;
    if (visitor === undefined) return skipClauseJunk(this.cursor, this.sink, afterClause);
    const start = this.LA(1).startOffset;
    const skipped = skipClauseJunk(this.cursor, this.sink, afterClause);
    if (skipped) visitor.skipped?.(start, this.nextStart());
    return skipped;
  }

  // condition = head "(" arguments ")" ;   head = segment { "." segment }
  readonly condition = this.RULE('condition', (): ConditionNode | null => {
    // Conditions never nest, so the pieces of the one being parsed live in
    // fields filled by closures created once: no allocation per token. The
    // head is the start of the scratch run, which is reused across
    // conditions and parses (a fresh array per head reserved sixteen slots).
    this.runLength = 0;
    if (this.visitor !== undefined) this.visitor.enterCondition?.(this.LA(1).startOffset);
    this.AT_LEAST_ONE(this.pushHeadPart);
    const headLength = this.runLength;
    if (this.visitor !== undefined) this.visitor.head?.(this.run.slice(0, headLength));
    this.callOpen = undefined;
    this.callClose = undefined;
    this.args = NO_ARGUMENTS;
    this.OPTION(this.parseCall);
    if (this.RECORDING_PHASE) return null;
    return this.buildCondition(headLength);
  });

  /** Hands the condition just read to the builder, with where it ends. */
  private buildCondition(headLength: number): ConditionNode | null {
    const open = this.callOpen;
    const close = this.callClose;
    const spanEnd = close !== undefined ? endOf(close) : open !== undefined ? this.lastConsumedEnd(open) : 0;
    if (this.visitor !== undefined)
      this.visitor.leaveCondition?.(open === undefined ? endOf(this.run[headLength - 1]!) : spanEnd, close !== undefined);
    return this.builder.build(this.run, headLength, open, this.args, close, spanEnd);
  }

  // arguments = [ argument ] { "," [ argument ] } ;   argument = value | field
  readonly arguments = this.RULE('arguments', (): void => {
    // Nothing consumed yet, so LA(0) is the '('.
    if (this.visitor !== undefined) this.visitor.enterArgument?.(endOf(this.LA(0)));
    const from = this.runLength;
    this.MANY(this.pushArgumentPart);
    if (!this.RECORDING_PHASE) {
      const to = this.runLength;
      // Nothing consumed yet besides the run, so LA(0) is the '(' when the run is empty.
      const start = to > from ? this.run[from]!.startOffset : endOf(this.LA(0));
      // An exact-sized literal: most lists have one slot.
      this.args = [this.readSlot(from, to, start, undefined)];
    }
    this.MANY2(this.parseNextArgument);
  });

  /** Scratch tokens of the condition being parsed: its head, then its arguments' runs. */
  private readonly run: IToken[] = [];
  private runLength = 0;
  /** The argument slots of the condition being parsed, a fresh array for each. */
  private args: Argument[] = NO_ARGUMENTS;
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
    if (this.visitor !== undefined) this.visitor.enterArgument?.(endOf(comma));
    const from = this.runLength;
    this.MANY3(this.pushNextArgumentPart);
    if (!this.RECORDING_PHASE) this.args.push(this.readSlot(from, this.runLength, endOf(comma), comma));
  };
  /** The slot just read (its run ends the scratch run), after skipping what follows it up to `,`, `)` or `;`. */
  private readSlot(from: number, to: number, start: number, comma: IToken | undefined): Argument {
    const junk = skipArgumentJunk(this.cursor, this.sink);
    if (this.visitor !== undefined) this.visitor.leaveArgument?.(this.nextStart());
    return { from, to, junk, start, comma };
  }

  /** Where the next token starts: the end of the text when none is left. */
  private nextStart(): number {
    const t = this.LA(1);
    return t.tokenType === EOF ? this.text.length : t.startOffset;
  }

  /** End offset of the last token consumed so far (at least past `open`). */
  private lastConsumedEnd(open: IToken): number {
    const t = this.LA(0);
    return Math.max(endOf(open), t.tokenType === EOF ? 0 : endOf(t));
  }
}
