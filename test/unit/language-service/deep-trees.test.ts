/**
 * Explain, hover and the highlighter walk filter trees through the fold
 * (src/ast/fold.ts), whose own stack bounds the call stack: at the deepest
 * nesting the parser allows (DEPTH_CEILING, 200) they answer as on a shallow
 * tree, and a tree built by code, or text, a hundred thousand groups deep is
 * answered or refused without a RangeError.
 */
import { describe, expect, it } from 'vitest';
import type { FilterNode, Span } from '../../../src/index.js';
import { explain, hoverAt, parseFilter } from '../../../src/index.js';
import { classifyText } from '../../../src/language-service/tokens.js';
import { DEPTH_CEILING } from '../../../src/diagnostics/limits.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';

/** `depth` groups around `Gender.Equal(1)`, alternating Or and And. */
function nestedText(depth: number): string {
  return `${Array.from({ length: depth }, (_, i) => (i % 2 === 0 ? 'Or(' : 'And(')).join('')}Gender.Equal(1)${')'.repeat(depth)}`;
}

/** The same nesting built by code, with spans that say each group's depth. */
function nestedTree(depth: number): FilterNode {
  let node: FilterNode = {
    kind: 'comparison',
    field: { kind: 'field', path: ['Gender'], name: 'Gender', span: { start: 0, end: 6 } },
    operator: 'Equal',
    operatorSpan: { start: 7, end: 12 },
    value: { kind: 'value', value: '1', raw: '1', quoted: false, span: { start: 13, end: 14 } },
    span: { start: 0, end: 15 },
  };
  for (let level = depth; level >= 1; level--) {
    const span: Span = { start: level, end: level };
    node = { kind: 'group', operator: level % 2 === 1 ? 'Or' : 'And', operatorSpan: span, children: [node], span };
  }
  return node;
}

const limit = { maxDepth: DEPTH_CEILING };

describe(`at the deepest nesting the parser allows (${DEPTH_CEILING})`, () => {
  const text = nestedText(DEPTH_CEILING);

  it('parses without an error (the premise: each one-child group is an info, not an error)', () => {
    expect(parseFilter(text, { limits: limit }).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(parseFilter(nestedText(DEPTH_CEILING + 1), { limits: limit }).diagnostics.map((d) => d.code)).toContain('nesting-too-deep');
  });

  it('explain reads the innermost condition, as at depth 1', () => {
    expect(explain(text, { limits: limit }).value).toBe('gender is 1');
    expect(explain(text, { limits: limit, schema: employeeSchema }).value).toBe(
      explain('Or(Gender.Equal(1))', { schema: employeeSchema }).value,
    );
  });

  it('hover finds the innermost field and explains its clause', () => {
    const offset = text.indexOf('Gender') + 2;
    expect(hoverAt(text, offset, employeeSchema, { limits: limit })).toMatchObject({
      start: text.indexOf('Gender'),
      end: text.indexOf('Gender') + 'Gender'.length,
      explanation: 'gender is 1',
    });
  });

  it('the highlighter classifies every keyword and the condition', () => {
    const spans = classifyText(text, { limits: limit });
    expect(spans.filter((s) => s.class === 'keyword')).toHaveLength(DEPTH_CEILING);
    expect(spans.filter((s) => s.class === 'field').map((s) => text.slice(s.start, s.end))).toEqual(['Gender']);
  });
});

describe('a hundred thousand groups deep', () => {
  const DEEP = 100_000;

  it('explain refuses a built tree past the limit, naming the last group one level too deep', () => {
    const tree = nestedTree(DEEP);
    const result = explain({ kind: 'filter', clauses: [tree, nestedTree(40)], span: { start: 0, end: 0 } });
    expect(result.value).toBeUndefined();
    // Of the two groups at depth 33, the one in the last clause (the walk has always reported the last).
    expect(result.diagnostics.map((d) => [d.code, d.start])).toEqual([['nesting-too-deep', 33]]);
  });

  it('explain reads a built tree when the caller lifts the limit', () => {
    expect(
      explain({ kind: 'filter', clauses: [nestedTree(DEEP)], span: { start: 0, end: 0 } }, { limits: { maxDepth: Infinity } }).value,
    ).toBe('gender is 1');
  });

  it('hover and the highlighter answer text the parser refuses, without a RangeError', () => {
    const text = nestedText(DEEP);
    const limits = { maxDepth: Infinity, maxLength: Infinity };
    expect(parseFilter(text, { limits }).diagnostics.map((d) => d.code)).toContain('nesting-too-deep');
    expect(() => hoverAt(text, text.indexOf('Gender'), employeeSchema, { limits })).not.toThrow();
    expect(() => classifyText(text, { limits })).not.toThrow();
  });
});
