/**
 * The "Validation codes" part of docs/diagnostics.md: every validate-stage
 * code has a section, and each example reports exactly the frame shown.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, analyzeFilter, analyzeSort, defineSchema, renderCodeFrame } from '../../../src/index.js';
import { employeeSchemaDefinition } from '../../../src/schema/employee-schema.js';

const doc = readFileSync(new URL('../../../docs/diagnostics.md', import.meta.url), 'utf8');
const start = doc.indexOf('## Validation codes');
const next = doc.indexOf('\n## ', start + 1);
const part = doc.slice(start, next < 0 ? undefined : next);
const sections = part
  .split(/^(?=### `)/m)
  .slice(1)
  .map((body) => ({ code: /^### `([^`]+)`/.exec(body)![1]!, body }));

// The schema the section's introduction describes.
const schema = defineSchema({
  fields: {
    ...employeeSchemaDefinition.fields,
    Ssn: { type: 'string', filterable: false, sortable: false },
    Address: { type: 'object', nullable: true, fields: { Zip: { type: 'string' }, City: { type: 'string' } } },
  },
});

describe('docs/diagnostics.md, validation codes', () => {
  it('has one section per code the validator reports', () => {
    const codes = [
      'unknown-field',
      'field-case-mismatch',
      'not-a-leaf-field',
      'operator-not-applicable',
      'invalid-value',
      'integer-out-of-range',
      'incompatible-in-fields',
      'not-filterable',
      'not-sortable',
    ];
    expect(sections.map((s) => s.code)).toEqual(expect.arrayContaining(codes));
    for (const code of codes) expect(DIAGNOSTIC_CODES[code as keyof typeof DIAGNOSTIC_CODES].stage).toBe('validate');
  });

  // Only the validator's own codes: others documented here (toSql options, hand-built trees) need more than a schema.
  it.each(sections.filter((s) => s.code !== 'invalid-sql-option' && s.code !== 'invalid-typed-tree').map((s) => [s.code, s.body]))(
    'the example of %s reports the frame shown',
    (code, body) => {
      const example = /^```wepql-(filter|sort)\n([\s\S]*?)\n```/m.exec(body)!;
      const reported = /Reported:\n\n```text\n([\s\S]*?)\n```/.exec(body)![1]!;
      const text = example[2]!;
      const result = example[1] === 'filter' ? analyzeFilter(text, { schema }) : analyzeSort(text, { schema });
      const d = result.diagnostics.find((x) => x.code === code);
      expect(d).toBeDefined();
      expect(renderCodeFrame(text, d!)).toBe(reported);
      expect(body).toMatch(/\*\*Severity:\*\* (error|warning|info) · \*\*Stage:\*\* validate · /);
      expect(body).toContain(`**Severity:** ${DIAGNOSTIC_CODES[code as keyof typeof DIAGNOSTIC_CODES].severity}`);
      expect(body).toMatch(/\*\*Fix:\*\*/);
    },
  );
});
