/**
 * Condition building: from the tokens the grammar read for one condition
 * (its head, its argument slots, its parentheses) to a condition node, with
 * a precise diagnostic for everything the grammar accepts but the language
 * forbids (docs/reference.md §"Filter grammar", §"Diagnostics", §"Limits").
 * The operator's argument shape (`OPERATORS[op].arity`, as the operator lookup read it) picks the builder.
 */
import type { IToken } from 'chevrotain';
import type { ComparisonNode, ConditionNode, FieldNode, InFieldsNode, ListNode, NullCheckNode, Span, ValueNode } from '../ast/nodes.js';
import {
  FILTER_OPERATORS,
  type FilterOperator,
  type InFieldsOperator,
  type ListOperator,
  type NoValueOperator,
  type OperatorKind,
  type SingleValueOperator,
} from '../ast/operators.js';
import { DEFAULT_LIMITS, LIMIT_CODES, limitMessage, type Limits } from '../diagnostics/limits.js';
import { nearestNameIn } from '../diagnostics/suggest.js';
import { DiagnosticSink } from './diagnostic-sink.js';
import { Dot, Unterminated } from './filter-lexer.js';
import { reportMissingClose } from './filter-recovery.js';
import { excerpt } from './text-checks.js';
import { describeToken, endOf, isNameToken, operatorNamed } from './token-facts.js';
import { readField, readHeadValue, readValue, type ReadContext } from './value-reader.js';

/** The operator nearest to a misspelled one, each misspelling worked out once per process. */
const nearestOperator = nearestNameIn(FILTER_OPERATORS);

/**
 * One comma-separated slot of an argument list, built fresh for each slot.
 *
 * @example
 * const slot: Argument = { from: 4, to: 5, junk: false, start: 8, comma: undefined };
 */
export interface Argument {
  /** The slot's run of value tokens (possibly empty): `run[from, to)` of its condition. */
  readonly from: number;
  readonly to: number;
  /** True when unexpected tokens followed the run (already reported). */
  readonly junk: boolean;
  /** Offset where the slot begins: just after `(` or `,`. */
  readonly start: number;
  /** The `,` that precedes the slot, if any. */
  readonly comma: IToken | undefined;
}

/** One condition with an argument list and a known operator, as its kind's builder reads it. */
interface ConditionView {
  /** The condition's tokens: its head is `run[0, lastDot + 2)`, then its arguments' runs. */
  readonly run: readonly IToken[];
  /** Index in `run` of the `.` before the operator (-1: none). */
  readonly lastDot: number;
  readonly open: IToken;
  readonly close: IToken | undefined;
  readonly args: readonly Argument[];
  readonly op: FilterOperator;
  readonly opSpan: Span;
  readonly span: Span;
  /** Where the condition ends: past `)`, or past the last token read when `)` is missing. */
  readonly spanEnd: number;
  /** False once a problem that leaves the node unbuilt was reported (limit, missing `)`). */
  readonly ok: boolean;
}

type KindBuilder = (view: ConditionView) => ConditionNode | null;

/**
 * Builds the node of each condition the grammar reads; one instance per parser, prepared for each text.
 *
 * @example
 * const builder = new ConditionBuilder();
 * builder.prepare(text, DEFAULT_LIMITS, sink);
 * builder.build(run, headLength, open, args, close, spanEnd);
 */
export class ConditionBuilder implements ReadContext {
  text = '';
  sink = new DiagnosticSink(0, 0);
  private limits: Limits = DEFAULT_LIMITS;
  private conditions = 0;

  /** The builder of each argument shape. */
  private readonly builders: Readonly<Record<OperatorKind, KindBuilder>> = {
    'single-value': (v) => this.buildComparison(v),
    'no-value': (v) => this.buildNullCheck(v),
    list: (v) => this.buildList(v),
    'in-fields': (v) => this.buildInFields(v),
  };

  /** Prepares the builder for one text. */
  prepare(text: string, limits: Limits, sink: DiagnosticSink): void {
    this.text = text;
    this.limits = limits;
    this.sink = sink;
    this.conditions = 0;
  }

  /**
   * The node of one condition, or null when it has a problem (reported).
   * `run[0, headLength)` is its head; `args` are its slots when it has an
   * argument list (`open` set); `spanEnd` is where it ends.
   */
  build(
    run: readonly IToken[],
    headLength: number,
    open: IToken | undefined,
    args: readonly Argument[],
    close: IToken | undefined,
    spanEnd: number,
  ): ConditionNode | null {
    for (let i = 0; i < headLength; i++) if (run[i]!.tokenType === Unterminated) return null; // reported by the driver
    let lastDot = -1;
    for (let i = headLength - 1; i >= 0; i--) {
      if (run[i]!.tokenType === Dot) {
        lastDot = i;
        break;
      }
    }
    const opToken = lastDot === headLength - 1 ? undefined : run[lastDot + 1];
    // The operator's name is compared in the text; its image is sliced only for messages.
    const opIsName = opToken !== undefined && isNameToken(opToken.tokenType) && lastDot + 2 === headLength;
    const named = opIsName ? operatorNamed(this.text, opToken) : undefined;
    if (open === undefined) return this.reportNoArgumentList(run, headLength, lastDot, named?.op);
    const counted = this.countCondition(run[0]!, spanEnd);
    const closed = this.checkClosed(run, open, args, close);
    if (named === undefined) return this.reportBadOperator(run, lastDot, opToken, opIsName, open, args);
    const view: ConditionView = {
      run,
      lastDot,
      open,
      close,
      args,
      op: named.op,
      opSpan: { start: opToken!.startOffset, end: endOf(opToken!) },
      span: { start: run[0]!.startOffset, end: spanEnd },
      spanEnd,
      ok: counted && closed,
    };
    const kind = named.arity;
    if (!this.checkHeadShape(view, kind)) return null;
    return this.builders[kind](view);
  }

  /** A head without `(…)`: not a condition. */
  private reportNoArgumentList(head: readonly IToken[], headLength: number, lastDot: number, op: FilterOperator | undefined): null {
    const first = head[0]!;
    const headEnd = endOf(head[headLength - 1]!);
    const written = excerpt(this.text.slice(first.startOffset, headEnd));
    this.sink.add(
      'missing-operator',
      op !== undefined && lastDot > 0
        ? `"${written}" has no argument list; write ${written}(…)`
        : `"${written}" is not a condition; write Field.Operator(value), for example Name.Equal(x)`,
      first.startOffset,
      headEnd,
    );
    return null;
  }

  /** Counts the condition against maxConditions; false past the limit (reported once). */
  private countCondition(first: IToken, spanEnd: number): boolean {
    this.conditions++;
    if (this.conditions <= this.limits.maxConditions) return true;
    if (this.conditions === this.limits.maxConditions + 1) {
      this.sink.add(LIMIT_CODES.maxConditions, limitMessage('maxConditions', this.limits.maxConditions), first.startOffset, spanEnd);
    }
    return false;
  }

  /** False when the argument list has no `)` (reported unless an unterminated quote swallowed it). */
  private checkClosed(run: readonly IToken[], open: IToken, args: readonly Argument[], close: IToken | undefined): boolean {
    if (close !== undefined) return true;
    const lastArg = args[args.length - 1]!;
    const swallowed = lastArg.to > lastArg.from && run[lastArg.to - 1]!.tokenType === Unterminated;
    if (!swallowed) reportMissingClose(this.sink, open);
    return false;
  }

  /** The last head segment is missing, not a name, or not an operator: reports which. */
  private reportBadOperator(
    head: readonly IToken[],
    lastDot: number,
    opToken: IToken | undefined,
    opIsName: boolean,
    open: IToken,
    args: readonly Argument[],
  ): null {
    const sink = this.sink;
    if (opToken === undefined) {
      sink.add('missing-operator', "missing operator name before '('; write Field.Operator(value)", head[0]!.startOffset, endOf(open));
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
    const suggestion = nearestOperator(opName);
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
    for (const a of args) if (a.to > a.from) this.valueOf(head, a);
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
      this.sink.add('invalid-field-path', `missing field before .${op}; write Field.${op}(…)`, v.run[0]!.startOffset, opSpan.end);
      return false;
    }
    return true;
  }

  /** `value.OpInFields(F1,…)`. */
  private buildInFields(v: ConditionView): InFieldsNode | null {
    const operator = v.op as InFieldsOperator;
    const value = readHeadValue(this, v.run, v.lastDot);
    const fields = this.buildFieldArguments(operator, v);
    if (!v.ok || value === null || fields === null) return null;
    return { kind: 'in-fields', value, operator, operatorSpan: v.opSpan, fields, span: v.span };
  }

  /** `Field.IsNull()` / `Field.IsNotNull()`: no argument. */
  private buildNullCheck(v: ConditionView): NullCheckNode | null {
    const { args, op } = v;
    const n = args.length;
    const field = readField(this, v.run, 0, v.lastDot, 'field');
    const a0 = args[0]!;
    if (n > 1 || a0.to > a0.from || a0.junk) {
      const from = a0.to > a0.from ? v.run[a0.from]!.startOffset : ((n > 1 ? args[1]!.comma?.startOffset : undefined) ?? a0.start);
      const to = v.close === undefined ? v.spanEnd : v.close.startOffset;
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
    const { args, op } = v;
    const n = args.length;
    const field = readField(this, v.run, 0, v.lastDot, 'field');
    if (n > 1) {
      const from = args[1]!.comma!.startOffset;
      this.sink.add(
        'too-many-values',
        `${op} takes exactly one value but got ${n}; use InArray(…) for several values, or quote a value that contains ','`,
        from,
        Math.max(from + 1, this.argsEnd(v.run, args)),
      );
      for (const a of args) this.valueOf(v.run, a);
      return null;
    }
    const arg = args[0]!;
    if (arg.to === arg.from && !arg.junk) {
      this.sink.add('missing-value', `${op} needs a value: write ${field?.name ?? 'Field'}.${op}(value)`, v.open.startOffset, v.spanEnd);
      return null;
    }
    const value = this.valueOf(v.run, arg);
    if (!v.ok || field === null || value === null) return null;
    return { kind: 'comparison', field, operator: op as SingleValueOperator, operatorSpan: v.opSpan, value, span: v.span };
  }

  /** `Field.Op(v1,v2,…)`: one or more values, at most maxListValues. */
  private buildList(v: ConditionView): ListNode | null {
    const { args, op } = v;
    const n = args.length;
    const field = readField(this, v.run, 0, v.lastDot, 'field');
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
    let listOk = this.checkArgumentCount(v, this.limits.maxListValues, 'maxListValues');
    for (let i = 0; i < n; i++) {
      const a = args[i]!;
      if (a.to === a.from && !a.junk) {
        this.reportEmptyItem(args, i, v.close, 'value');
        listOk = false;
        continue;
      }
      const value = this.valueOf(v.run, a);
      if (value === null) listOk = false;
      else values.push(value);
    }
    if (!v.ok || !listOk || field === null) return null;
    return { kind: 'list', field, operator: op as ListOperator, operatorSpan: v.opSpan, values, span: v.span };
  }

  /** The arguments of an InFields operator: one or more field paths. */
  private buildFieldArguments(op: InFieldsOperator, v: ConditionView): FieldNode[] | null {
    const { args, open, close } = v;
    if (args.length === 1 && args[0]!.to === args[0]!.from && !args[0]!.junk) {
      const end = close === undefined ? endOf(open) : endOf(close);
      this.sink.add('missing-value', `${op} needs at least one field: write value.${op}(Field1,Field2)`, open.startOffset, end);
      return null;
    }
    let ok = this.checkArgumentCount(v, this.limits.maxInFields, 'maxInFields');
    const fields: FieldNode[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a.junk) {
        ok = false;
        continue;
      }
      if (a.to === a.from) {
        this.reportEmptyItem(args, i, close, 'field');
        ok = false;
        continue;
      }
      const f = readField(this, v.run, a.from, a.to, 'argument');
      if (f === null) ok = false;
      else fields.push(f);
    }
    return ok ? fields : null;
  }

  /** False when the condition has more arguments than `max` (reported). */
  private checkArgumentCount(v: ConditionView, max: number, limit: 'maxListValues' | 'maxInFields'): boolean {
    const args = v.args;
    if (args.length <= max) return true;
    const from = args[max]!.start;
    this.sink.add(LIMIT_CODES[limit], limitMessage(limit, max, v.op), from, Math.max(from, this.argsEnd(v.run, args)));
    return false;
  }

  /** The value of one slot; null when it is empty or holds junk. */
  private valueOf(run: readonly IToken[], arg: Argument): ValueNode | null {
    if (arg.to === arg.from || arg.junk) return null;
    return readValue(this, run, arg.from, arg.to);
  }

  private argsEnd(run: readonly IToken[], args: readonly Argument[]): number {
    const last = args[args.length - 1]!;
    if (last.to > last.from) return endOf(run[last.to - 1]!);
    return last.start;
  }

  private reportEmptyItem(args: readonly Argument[], i: number, close: IToken | undefined, what: 'value' | 'field'): void {
    const next = (i + 1 < args.length ? args[i + 1]!.comma : undefined) ?? close;
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
}
