/**
 * docs/diagnostics.md documents every code of DIAGNOSTIC_CODES under a
 * heading `### \`code\``, and each runnable example reports its code.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, parseFilter, parseSort, type DiagnosticCode } from '../../../src/index.js';

const doc = readFileSync(new URL('../../../docs/diagnostics.md', import.meta.url), 'utf8');
const headings = [...doc.matchAll(/^### `([^`]+)`$/gm)].map((m) => m[1]!);

interface Section {
  readonly code: string;
  readonly body: string;
}
const sections: Section[] = doc
  .split(/^(?=### `)/m)
  .slice(1)
  .map((part) => ({ code: /^### `([^`]+)`/.exec(part)![1]!, body: part }));

describe('docs/diagnostics.md', () => {
  it.each(Object.keys(DIAGNOSTIC_CODES))('has a section for %s', (code) => {
    expect(headings).toContain(code);
  });

  it('documents each code once and only registered codes', () => {
    expect(new Set(headings).size).toBe(headings.length);
    for (const h of headings) expect(Object.hasOwn(DIAGNOSTIC_CODES, h)).toBe(true);
  });

  // Only parser codes can be checked by parsing alone; validate and lint sections need a schema.
  const parserStage = (code: string) =>
    Object.hasOwn(DIAGNOSTIC_CODES, code) && ['syntax', 'limit'].includes(DIAGNOSTIC_CODES[code as DiagnosticCode].stage);
  const runnable = sections
    .filter((s) => parserStage(s.code))
    .flatMap((s) => {
      const m = /^```wepql-(filter|sort)([^\n]*)\n([\s\S]*?)\n```/m.exec(s.body);
      return m === null ? [] : [[s.code, m[1] as 'filter' | 'sort', m[2]!.trim(), m[3]!] as const];
    });

  it('has runnable examples for the syntax and limit codes', () => {
    const syntaxCodes = Object.entries(DIAGNOSTIC_CODES)
      .filter(([, info]) => info.stage === 'syntax' || info.stage === 'limit')
      .map(([code]) => code);
    expect(runnable.map(([code]) => code)).toEqual(expect.arrayContaining(syntaxCodes));
  });

  it.each(runnable)('the example of %s (%s, %s) reports it', (code, kind, limitsText, example) => {
    const limits = Object.fromEntries(
      limitsText
        .split(/\s+/)
        .filter((kv) => kv.includes('='))
        .map((kv) => [kv.split('=')[0]!, Number(kv.split('=')[1])]),
    );
    const text = example.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    const result = kind === 'filter' ? parseFilter(text, { limits }) : parseSort(text, { limits });
    expect(result.diagnostics.map((d) => d.code)).toContain(code as DiagnosticCode);
    expect(sections.find((s) => s.code === code)!.body).toMatch(/\*\*Fix:\*\*/);
  });
});
