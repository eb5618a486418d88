/**
 * The "Semantic lint codes" part of docs/diagnostics.md: every lint-stage
 * code has a section, and each example reports exactly the frame shown.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, lintText, renderCodeFrame, type DiagnosticCode } from '../../../src/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';

const doc = readFileSync(new URL('../../../docs/diagnostics.md', import.meta.url), 'utf8');
const start = doc.indexOf('## Semantic lint codes');
const next = doc.indexOf('\n## ', start + 1);
const part = doc.slice(start, next < 0 ? undefined : next);
const sections = part
  .split(/^(?=### `)/m)
  .slice(1)
  .map((body) => ({ code: /^### `([^`]+)`/.exec(body)![1]! as DiagnosticCode, body }));

describe('docs/diagnostics.md, semantic lint codes', () => {
  it('documents every lint-stage code', () => {
    const lintCodes = Object.entries(DIAGNOSTIC_CODES)
      .filter(([, info]) => info.stage === 'lint')
      .map(([code]) => code);
    expect(sections.map((s) => s.code).sort()).toEqual(lintCodes.sort());
  });

  it.each(sections.map((s) => [s.code, s.body]))('the example of %s reports the frame shown', (code, body) => {
    const text = /^```wepql-filter\n([\s\S]*?)\n```/m.exec(body)![1]!;
    const reported = /Reported:\n\n```text\n([\s\S]*?)\n```/.exec(body)![1]!;
    const d = lintText(text, 'filter', { schema: employeeSchema }).find((x) => x.code === code);
    expect(d).toBeDefined();
    expect(renderCodeFrame(text, d!)).toBe(reported);
    expect(body).toContain(`**Severity:** ${DIAGNOSTIC_CODES[code as DiagnosticCode].severity} · **Stage:** lint · `);
  });
});
