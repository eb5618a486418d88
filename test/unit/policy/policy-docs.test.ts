/**
 * The "Policy codes" part of docs/diagnostics.md: every policy-stage code has
 * a section, and each example, checked against the policy the section shows,
 * reports exactly the frame shown.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, renderCodeFrame, checkFilterPolicy, checkSortPolicy, definePolicy } from '../../../src/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { analyzeFilter, analyzeSort } from '../../../src/validate/analyze.js';

const doc = readFileSync(new URL('../../../docs/diagnostics.md', import.meta.url), 'utf8');
const start = doc.indexOf('## Policy codes');
const next = doc.indexOf('\n## ', start + 1);
const part = doc.slice(start, next < 0 ? undefined : next);
const policy = definePolicy(JSON.parse(/^```json\n([\s\S]*?)\n```/m.exec(part)![1]!), employeeSchema);
const sections = part
  .split(/^(?=### `)/m)
  .slice(1)
  .map((body) => ({ code: /^### `([^`]+)`/.exec(body)![1]!, body }));

describe('docs/diagnostics.md, policy codes', () => {
  it('has one section per policy code', () => {
    const codes = Object.entries(DIAGNOSTIC_CODES)
      .filter(([, info]) => info.stage === 'policy')
      .map(([code]) => code);
    expect(sections.map((s) => s.code).sort()).toEqual(codes.sort());
  });

  it.each(sections.map((s) => [s.code, s.body]))('the example of %s reports the frame shown', (code, body) => {
    const example = /^```wepql-(filter|sort)\n([\s\S]*?)\n```/m.exec(body)!;
    const reported = /Reported:\n\n```text\n([\s\S]*?)\n```/.exec(body)![1]!;
    const text = example[2]!;
    const found =
      example[1] === 'filter'
        ? checkFilterPolicy(analyzeFilter(text, { schema: employeeSchema }).value!, policy)
        : checkSortPolicy(analyzeSort(text, { schema: employeeSchema }).value!, policy);
    const d = found.find((x) => x.code === code);
    expect(d).toBeDefined();
    expect(renderCodeFrame(text, d!)).toBe(reported);
    expect(body).toContain(`**Severity:** ${DIAGNOSTIC_CODES[code as keyof typeof DIAGNOSTIC_CODES].severity} · **Stage:** policy · `);
    expect(body).toMatch(/\*\*Fix:\*\*/);
  });
});
