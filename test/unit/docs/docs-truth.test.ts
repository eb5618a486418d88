/**
 * The guides say what the built CLI and the library do; these tests run what
 * they show. Syntax and limit sections of docs/diagnostics.md must print the
 * exact frame shown (the validation and lint sections have their own tests),
 * the explanations in docs/language.md and docs/index.md must be what
 * `wepql explain` prints (every program and command block runs in
 * docs-blocks.test.ts). CLI checks use the built binary.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, parseFilter, parseSort, renderCodeFrame, type DiagnosticCode, explain } from '../../../src/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { runCli, type CliResult } from '../../support/cli.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
const unescape = (text: string): string => text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

// The built binary (npm test builds dist/ once before the run; runCli fails on a stale one).
const wepql = (args: readonly string[]): CliResult => runCli(args);

/** Splits a shell line into words, honouring single and double quotes (enough for the guides). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) break;
    else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

describe('docs/diagnostics.md: syntax and limit examples print the frames shown', () => {
  const doc = read('docs/diagnostics.md');
  const sections = doc
    .slice(0, doc.indexOf('## Validation codes'))
    .split(/^(?=### `)/m)
    .slice(1)
    .map((body) => [/^### `([^`]+)`/.exec(body)![1]!, body] as const);

  it.each(sections)('%s', (code, body) => {
    const example = /^```wepql-(filter|sort)([^\n]*)\n([\s\S]*?)\n```/m.exec(body)!;
    const reported = /Reported:\n\n```text\n([\s\S]*?)\n```/.exec(body)![1]!;
    const limits = Object.fromEntries(
      example[2]!
        .trim()
        .split(/\s+/)
        .filter((kv) => kv.includes('='))
        .map((kv) => [kv.split('=')[0]!, Number(kv.split('=')[1])]),
    );
    const text = unescape(example[3]!);
    const result = example[1] === 'filter' ? parseFilter(text, { limits }) : parseSort(text, { limits });
    const frames = (ds: typeof result.diagnostics) => ds.map((d) => renderCodeFrame(text, d)).join('\n');
    const all = frames(result.diagnostics);
    const own = frames(result.diagnostics.filter((d) => d.code === code));
    expect([all, own]).toContain(unescape(reported));
    expect(DIAGNOSTIC_CODES[code as DiagnosticCode]).toBeDefined();
  });

  it.each(sections)('%s: the prose promises a fix only when the diagnostic carries one', (code, body) => {
    const example = /^```wepql-(filter|sort)([^\n]*)\n([\s\S]*?)\n```/m.exec(body)!;
    const limits = Object.fromEntries(
      example[2]!
        .trim()
        .split(/\s+/)
        .filter((kv) => kv.includes('='))
        .map((kv) => [kv.split('=')[0]!, Number(kv.split('=')[1])]),
    );
    const text = unescape(example[3]!);
    const result = example[1] === 'filter' ? parseFilter(text, { limits }) : parseSort(text, { limits });
    const d = result.diagnostics.find((x) => x.code === code)!;
    const prose = body.slice(0, body.indexOf('Example ('));
    // "the `fix` …" or "as a `fix`" promises one; "not (given) (as) a `fix`" denies it.
    const promises = /`fix`/.test(prose.replace(/not (given )?(as )?a `fix`/g, ''));
    expect(d.fix !== undefined).toBe(promises);
  });
});

describe('docs/language.md: the examples table is what explain prints', () => {
  const doc = read('docs/language.md');
  const table = doc.slice(doc.indexOf('## Examples'), doc.indexOf('## Canonical form'));
  const rows = [...table.matchAll(/^\| `(.+)` \| (.+) \|$/gm)].map((m) => [m[1]!, m[2]!] as const);

  it('has examples', () => expect(rows.length).toBeGreaterThan(5));
  it.each(rows)('%s', (filter, meaning) => {
    expect(explain(filter, { schema: employeeSchema }).value).toBe(meaning);
  });
});

describe('docs/index.md: the explain lines print what the comment under them says', () => {
  const doc = read('docs/index.md');
  const pairs = [...doc.matchAll(/^(wepql explain .+)\n# {3}(.+)$/gm)].map((m) => [shellWords(m[1]!).slice(1), m[2]!] as const);

  it('has examples', () => expect(pairs.length).toBeGreaterThan(0));
  it.each(pairs)('%j', (args, expected) => {
    expect(wepql(args)).toMatchObject({ code: 0, stdout: `${expected}\n` });
  });
});

// Every command block of the guides runs in docs-blocks.test.ts.

describe('scripts/build-docs.mjs: the API reference rule of STYLE.md', () => {
  interface Gaps {
    apiDocGaps(
      api: { undocumented: string[]; withoutExample: string[] },
      options?: { strict?: boolean },
    ): { gaps: string[]; fail: boolean };
  }
  let docs: Gaps;
  beforeAll(async () => {
    const script: string = pathToFileURL(join(ROOT, 'scripts', 'build-docs.mjs')).href;
    docs = (await import(script)) as Gaps;
  });

  it('lists every export without documentation or without an @example', () => {
    const api = {
      undocumented: ['[warning] Foo.bar (CallSignature), defined in x.ts, does not have any documentation'],
      withoutExample: ['Baz'],
    };
    expect(docs.apiDocGaps(api, { strict: false })).toEqual({
      gaps: ['Foo.bar (CallSignature), defined in x.ts, does not have any documentation', 'Baz has no @example'],
      fail: false,
    });
    expect(docs.apiDocGaps(api, { strict: true }).fail).toBe(true);
  });

  it('passes a complete reference even when strict', () => {
    expect(docs.apiDocGaps({ undocumented: [], withoutExample: [] }, { strict: true })).toEqual({ gaps: [], fail: false });
  });
});
