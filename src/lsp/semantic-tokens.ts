/**
 * Semantic tokens of saved filters and sorts for `wepql lsp`: which spans of
 * an entry are fields, operators, values, keywords and punctuation, as the
 * language services' one classifier (`classifyText`) says, in the standard
 * LSP names.
 */
import { classifyText, type ClassifiedSpan, type TextClass } from '../language-service/tokens.js';
import type { SemanticTokenType } from './token-legend.js';

/**
 * One classified span of an entry's text (UTF-16 offsets, end exclusive).
 *
 * @example
 * const span: SemanticSpan = { start: 0, end: 8, type: 'property' };
 */
export interface SemanticSpan {
  readonly start: number;
  readonly end: number;
  readonly type: SemanticTokenType;
}

const LSP_TYPE: Readonly<Record<TextClass, SemanticTokenType>> = {
  field: 'property',
  operator: 'method',
  keyword: 'keyword',
  direction: 'keyword',
  string: 'string',
  number: 'number',
  value: 'string',
  punctuation: 'operator',
};

const toSemantic = (spans: readonly ClassifiedSpan[]): SemanticSpan[] =>
  spans.map((s) => ({ start: s.start, end: s.end, type: LSP_TYPE[s.class] }));

/**
 * The semantic spans of one filter, in text order: the tokens of the one
 * classifier the CodeMirror highlighter uses too (`classifyText`), named
 * as LSP names them.
 *
 * @example
 * filterSpans('Or(A.Equal(1))').map((s) => s.type); // ['keyword', 'operator', 'property', 'operator', 'method', 'operator', 'number', 'operator', 'operator']
 */
export function filterSpans(text: string): SemanticSpan[] {
  return toSemantic(classifyText(text));
}

/**
 * The semantic spans of one sort: each field, `=`, its direction and the `;` between items.
 *
 * @example
 * sortSpans('LastName=Asc').map((s) => s.type); // ['property', 'operator', 'keyword']
 */
export function sortSpans(text: string): SemanticSpan[] {
  return toSemantic(classifyText(text, { kind: 'sort' }));
}
