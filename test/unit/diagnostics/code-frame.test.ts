import { describe, expect, it } from 'vitest';
import { parseFilter, renderCodeFrame } from '../../../src/index.js';
import { printableText } from '../../../src/diagnostics/code-frame.js';

describe('printableText', () => {
  it.each([
    ['plain', 'plain'],
    ['a\u0000b', 'a\u2400b'],
    ['esc\u001b[31m', 'esc\u241b[31m'],
    ['del\u007f', 'del\u2421'],
    ['bidi\u202eevil', 'bidi\ufffdevil'],
    ['zero\u200bwidth', 'zero\ufffdwidth'],
    ['line\u2028sep', 'line\ufffdsep'],
    ['lone\ud800', 'lone\ufffd'],
    ['pair\ud83d\ude00ok', 'pair\ud83d\ude00ok'],
    ['Zoë Łukasz 李', 'Zoë Łukasz 李'],
  ])('%j → %j, same length', (input, output) => {
    expect(printableText(input)).toBe(output);
    expect(printableText(input).length).toBe(input.length);
  });
});

describe('renderCodeFrame', () => {
  it('never prints control or reordering characters, and keeps the caret aligned', () => {
    const text = 'A\u202e.Equal(1);B.Foo(\u001b[2J)';
    const frames = parseFilter(text).diagnostics.map((d) => renderCodeFrame(text, d));
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) {
      expect(frame).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    }
    const unknown = parseFilter(text).diagnostics.find((d) => d.code === 'unknown-operator')!;
    const lines = renderCodeFrame(text, unknown).split('\n');
    expect(lines[2]!.indexOf('^')).toBe(lines[1]!.indexOf('Foo'));
  });

  it('prints location, line and column', () => {
    const d = parseFilter('A.Equal(1);\nB.Foo(2)').diagnostics[0]!;
    expect(renderCodeFrame('A.Equal(1);\nB.Foo(2)', d, { location: 'f.txt', lineOffset: 4 })).toBe(
      [`f.txt:6:3: error unknown-operator: ${d.message}`, '  B.Foo(2)', '    ^^^'].join('\n'),
    );
  });
});
