import fc from 'fast-check';
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

  // printableText returns plain text as it is after one test for the characters it replaces (and any surrogate):
  // held here against a reading of the text one UTF-16 unit at a time.
  it('replaces what a unit-by-unit reading replaces, on any text', () => {
    const invisible = (c: number): boolean =>
      c <= 0x08 ||
      (c >= 0x0a && c <= 0x1f) ||
      (c >= 0x7f && c <= 0x9f) ||
      (c >= 0x200b && c <= 0x200f) ||
      (c >= 0x2028 && c <= 0x202e) ||
      (c >= 0x2060 && c <= 0x2069) ||
      c === 0xfeff;
    const reference = (text: string): string => {
      let out = '';
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        const high = c >= 0xd800 && c <= 0xdbff;
        const low = c >= 0xdc00 && c <= 0xdfff;
        const next = text.charCodeAt(i + 1);
        if (high && next >= 0xdc00 && next <= 0xdfff) {
          out += text.slice(i, i + 2);
          i++;
        } else if (high || low) out += '\ufffd';
        else if (c < 0x20 && invisible(c)) out += String.fromCharCode(0x2400 + c);
        else if (c === 0x7f) out += '\u2421';
        else if (invisible(c)) out += '\ufffd';
        else out += text[i];
      }
      return out;
    };
    const unit = fc.oneof(
      fc.constantFrom(
        '\u0000',
        '\t',
        '\n',
        '\u001b',
        '\u007f',
        '\u0085',
        '\u200b',
        '\u202e',
        '\u2066',
        '\ufeff',
        '\ud83d',
        '\ude00',
        'a',
        'é',
        '李',
      ),
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (units) => {
        const text = units.join('');
        expect(printableText(text)).toBe(reference(text));
      }),
      { numRuns: 20_000 },
    );
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

  it('prints the column it is given (a filter further right in its file line), whatever the location holds', () => {
    const d = parseFilter('B.Foo(2)').diagnostics[0]!;
    expect(renderCodeFrame('B.Foo(2)', d, { location: 'a:1:2:b.json', lineOffset: 2, column: 14 }).split('\n')[0]).toBe(
      `a:1:2:b.json:3:14: error unknown-operator: ${d.message}`,
    );
  });
});
