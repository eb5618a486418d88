/**
 * Positions in saved-filter files (JSON, NDJSON, YAML), read through
 * `jsonc-parser` and the `yaml` package: for generated files, each entry's
 * reported line and column point at the start of that filter's text and its
 * range holds exactly the text as written; on any input the reader returns
 * entries or throws `SavedFileError`, nothing else.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { schemaFieldLocations } from '../../src/lsp/documents.js';
import { loadYaml, readSavedFilters, SavedFileError, type SavedEntry } from '../../src/workspace/saved-filters.js';

beforeAll(loadYaml);

/** The offset of a 1-based line and column, counted independently of the reader (lines end after LF). */
function offsetOf(content: string, line: number, column: number): number {
  const lines = content.split('\n');
  let at = 0;
  for (let n = 0; n < line - 1; n++) at += lines[n]!.length + 1;
  return at + column - 1;
}

/** Where an entry's text itself starts: after the opening quote of a quoted scalar or JSON string. */
function textStart(content: string, e: SavedEntry): number {
  const first = content[e.range.start];
  return e.encoding === 'json-string' || e.encoding === 'yaml-single' || (e.encoding !== 'raw' && first === '"')
    ? e.range.start + 1
    : e.range.start;
}

const filterText = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  fc.string({ unit: fc.constantFrom('A', '.', '(', ')', '"', "'", '\\', ' ', ':', '#', '-', 'é', '\u2028', '{', '['), minLength: 1 }),
  fc.constantFrom('Age.GreaterThan(30)', 'LastName.Equal("O\'Brien")', 'A.Equal(1) AND B.IsNull()'),
);
const savedEntry = fc.record({ name: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }), filter: filterText });
const layout = fc.record({ indent: fc.constantFrom(0, 2, '\t'), crlf: fc.boolean(), array: fc.boolean() });

function asJson(entries: readonly { name?: string; filter: string }[], how: { indent: number | string; crlf: boolean; array: boolean }) {
  const value = how.array ? entries : entries[0];
  const text = JSON.stringify(value, null, how.indent);
  return how.crlf ? text.replace(/\n/g, '\r\n') : text;
}

type YamlStyle = 'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE';

/** Writes `entries` as YAML in one style and checks each entry's range and line/column against what was written. */
function checkYamlPositions(entries: readonly { name?: string; filter: string }[], style: YamlStyle, flow: boolean, crlf: boolean): void {
  let content = toYaml(entries, { defaultStringType: style, collectionStyle: flow ? 'flow' : 'block', lineWidth: 0 });
  if (crlf) content = content.replace(/\n/g, '\r\n');
  const read = readSavedFilters('views.yaml', content).entries;
  expect(read.map((e) => e.text)).toEqual(entries.map((e) => e.filter));
  for (const e of read) {
    const written = content.slice(e.range.start, e.range.end);
    // Read back where it was written, as a mapping's value: alone, a plain `...` or `--- A` would be a document marker.
    const inPlace = flow ? `{ filter: ${written} }` : `filter: ${written}`;
    expect((parseYaml(inPlace.replace(/\r\n/g, '\n')) as { filter: unknown }).filter).toBe(e.text);
    expect(offsetOf(content, e.line, e.column)).toBe(textStart(content, e));
  }
}

describe('positions of saved filters point at their text', () => {
  it('JSON: line and column are the first character after the opening quote, and the range reads back as the filter', () => {
    fc.assert(
      fc.property(fc.array(savedEntry, { minLength: 1, maxLength: 6 }), layout, (entries, how) => {
        const content = asJson(entries, how);
        const read = readSavedFilters('views.json', content).entries;
        const expected = how.array ? entries : entries.slice(0, 1);
        expect(read.map((e) => e.text)).toEqual(expected.map((e) => e.filter));
        for (const e of read) {
          expect(JSON.parse(content.slice(e.range.start, e.range.end))).toBe(e.text);
          expect(offsetOf(content, e.line, e.column)).toBe(e.range.start + 1);
        }
        expect(read.map((e) => e.name)).toEqual(expected.map((e) => e.name));
      }),
    );
  });

  it('NDJSON: the filter of each line is found on that line, at its own column', () => {
    fc.assert(
      fc.property(fc.array(savedEntry, { minLength: 1, maxLength: 6 }), fc.boolean(), (entries, crlf) => {
        const content = entries.map((e) => JSON.stringify(e)).join(crlf ? '\r\n' : '\n');
        const read = readSavedFilters('views.ndjson', content).entries;
        expect(read.map((e) => e.text)).toEqual(entries.map((e) => e.filter));
        read.forEach((e, k) => {
          expect(e.line).toBe(k + 1);
          expect(JSON.parse(content.slice(e.range.start, e.range.end))).toBe(e.text);
          expect(offsetOf(content, e.line, e.column)).toBe(e.range.start + 1);
        });
      }),
    );
  });

  it('YAML: in any quoting style, the range reads back as the filter and line/column is where its text starts', () => {
    fc.assert(
      fc.property(
        fc.array(savedEntry, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE') as fc.Arbitrary<YamlStyle>,
        fc.boolean(),
        fc.boolean(),
        checkYamlPositions,
      ),
    );
  });

  // Shrunk from a run of the property above: a plain `...` (or `---`) is a document marker only at a line's start.
  it.each(['...', '--- A', '... A'])('YAML: a plain %j written as a value reads back as itself', (filter) => {
    checkYamlPositions(
      [
        { name: undefined, filter },
        { name: undefined, filter: 'A' },
      ],
      'PLAIN',
      false,
      false,
    );
    checkYamlPositions([{ name: undefined, filter }], 'PLAIN', true, true);
  });
});

/** A generated file with a few characters cut, doubled or inserted: mostly almost valid, which finds the corners. */
const damaged = (text: fc.Arbitrary<string>) =>
  fc
    .tuple(
      text,
      fc.array(fc.tuple(fc.nat(), fc.constantFrom('', '{', '}', '[', ']', '"', ',', ':', '\n', '- ', '\\', '#', '&a', '*a', '\uFEFF'))),
    )
    .map(([t, edits]) => edits.reduce((s, [at, piece]) => s.slice(0, at % (s.length + 1)) + piece + s.slice((at % (s.length + 1)) + 1), t));

describe('the saved-filter reader never throws anything but SavedFileError', () => {
  const generated = fc.oneof(
    fc.tuple(fc.array(savedEntry, { minLength: 1, maxLength: 4 }), layout).map(([e, how]) => asJson(e, how)),
    fc.array(savedEntry, { minLength: 1, maxLength: 4 }).map((e) => toYaml(e)),
  );
  const anyText = fc.oneof(
    fc.string({ unit: 'binary' }),
    damaged(generated),
    fc.nat({ max: 3000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  );

  it.each(['views.json', 'views.ndjson', 'views.yaml', 'views.txt', '-'])('%s', (path) => {
    fc.assert(
      fc.property(anyText, (content) => {
        try {
          const file = readSavedFilters(path, content);
          for (const e of file.entries) {
            expect(e.range.start).toBeGreaterThanOrEqual(0);
            expect(e.range.end).toBeLessThanOrEqual(content.length);
          }
        } catch (e) {
          expect(e).toBeInstanceOf(SavedFileError);
        }
      }),
    );
  });

  it('schema field locations never throw and only name keys that are written where they say', () => {
    fc.assert(
      fc.property(anyText, (content) => {
        for (const [path, at] of schemaFieldLocations(content)) {
          expect(content[at]).toBe('"');
          expect(path.length).toBeGreaterThan(0);
        }
      }),
    );
  });
});
