/**
 * The reports of a text the parser reads without error but the language
 * frowns on — a redundant `;`, a group of one clause — made alike by the
 * Chevrotain parser and the fast path of `parseFilter`, each with its safe fix.
 */
import type { FilterNode, Span } from '../ast/nodes.js';
import type { GroupOperator } from '../ast/operators.js';
import type { DiagnosticSink } from './diagnostic-sink.js';

/**
 * Reports a redundant `;` (an empty clause) at offset `at`; its fix deletes it.
 *
 * @example
 * reportEmptyClause(sink, separator.startOffset);
 */
export function reportEmptyClause(sink: DiagnosticSink, at: number): void {
  sink.add('empty-clause', "empty clause: nothing stands on one side of this ';'; it is ignored", at, at + 1, {
    fix: [{ start: at, end: at + 1, newText: '' }],
  });
}

/**
 * Reports a group of one clause (`span`) in `text`, which means the same as
 * its only `child`; the fix writes the child alone.
 *
 * @example
 * if (children.length === 1) reportSingleChildGroup(sink, text, 'Or', span, children[0]!);
 */
export function reportSingleChildGroup(sink: DiagnosticSink, text: string, operator: GroupOperator, span: Span, child: FilterNode): void {
  sink.add('single-child-group', `${operator}(…) has a single clause, which means the same as the clause alone`, span.start, span.end, {
    fix: [{ start: span.start, end: span.end, newText: text.slice(child.span.start, child.span.end) }],
  });
}
