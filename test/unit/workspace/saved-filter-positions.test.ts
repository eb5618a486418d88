/**
 * The positions `readSavedFilters` reports in JSON, NDJSON and YAML files
 * and where it says a file does not read, and the schema key locations the
 * language server jumps to.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { schemaFieldLocations } from '../../../src/lsp/documents.js';
import { loadYaml, readSavedFilters } from '../../../src/workspace/saved-filters.js';

beforeAll(loadYaml);

const at = (path: string, content: string) =>
  readSavedFilters(path, content).entries.map((e) => ({
    text: e.text,
    line: e.line,
    column: e.column,
    written: content.slice(e.range.start, e.range.end),
  }));

describe('positions in JSON and NDJSON', () => {
  it.each([
    [
      'views.json',
      '[\n  {"name": "a", "filter": "A.Equal(1)"},\n  {"filter": "B.IsNull()"}\n]',
      [
        [2, 28],
        [3, 15],
      ],
    ],
    [
      'views.json',
      '[\r\n  {"filter": "A.Equal(1)"},\r\n\t{"filter": "B.IsNull()"}\r\n]',
      [
        [2, 15],
        [3, 14],
      ],
    ],
    [
      'views.json',
      '{"filter": "A.Equal(\\"é\\")", "sort": "A"}',
      [
        [1, 13],
        [1, 39],
      ],
    ],
    [
      'views.ndjson',
      '{"filter": "A.Equal(1)"}\r\n\r\n  {"filter": "B.IsNull()"}\n',
      [
        [1, 13],
        [3, 15],
      ],
    ],
  ] as const)('%s %#', (path, content, expected) => {
    expect(at(path, content).map((e) => [e.line, e.column])).toEqual(expected);
  });

  it('a key written twice gives the last value and the range of that value (as JSON.parse keeps the last)', () => {
    const [entry] = at('views.json', '{"filter": "A.Equal(1)", "filter": "B.Equal(2)"}');
    expect(entry).toEqual({ text: 'B.Equal(2)', line: 1, column: 37, written: '"B.Equal(2)"' });
  });

  it('a __proto__ member is only a member', () => {
    const file = readSavedFilters('views.json', '{"__proto__": {"filter": "X"}, "filter": "A.Equal(1)", "name": "n"}');
    expect(file.entries.map((e) => [e.text, e.name])).toEqual([['A.Equal(1)', 'n']]);
  });

  it.each([
    ['views.json', '[{"filter": "A.Equal(1)"},\n {"filter": }]', 'views.json: line 2, column 13: not valid JSON (ValueExpected)'],
    ['views.json', '{"filter": "A" // note\n}', 'views.json: line 1, column 16: not valid JSON (InvalidCommentToken)'],
    ['views.json', '[{"filter": "A"},]', 'views.json: line 1, column 18: not valid JSON (ValueExpected)'],
    ['views.json', '', 'views.json: line 1, column 1: not valid JSON (ValueExpected)'],
    ['views.ndjson', '{"filter": "A"}\n{"filter" "B"}\n', 'views.ndjson: line 2, column 11: not valid JSON (ColonExpected)'],
    ['views.json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'views.json: the document nests too deeply to read'],
    ['views.json', '[{"filter": 1}]', 'views.json: entry 0: "filter" must be a string'],
    ['views.json', '[{"filter": "A"}, {"name": "x"}]', 'views.json: entry 1: has neither a "filter" nor a "sort" string'],
  ])('%s %# is refused: %s', (path, content, message) => {
    expect(() => readSavedFilters(path, content)).toThrow(message);
  });
});

describe('positions in YAML', () => {
  it.each([
    [
      '- name: a\n  filter: A.Equal(1)\n- filter: "B.IsNull()"\n',
      [
        [2, 11],
        [3, 12],
      ],
    ],
    [
      "- filter: A.Equal(1)\r\n- filter: 'B.IsNull()'\r\n",
      [
        [1, 11],
        [2, 12],
      ],
    ],
    [
      'filter: A.Equal(1)\n---\n[{filter: B.IsNull()}]\n',
      [
        [1, 9],
        [3, 11],
      ],
    ],
  ] as const)('YAML %#', (content, expected) => {
    expect(at('views.yaml', content).map((e) => [e.line, e.column])).toEqual(expected);
  });

  it('a syntax error names its line and column', () => {
    expect(() => readSavedFilters('views.yaml', '- filter: A\n- filter: "B\n')).toThrow(
      'views.yaml: line 3, column 1: not valid YAML (Missing closing "quote)',
    );
  });
});

describe('schema field locations', () => {
  it('maps each field path to its key, nested fields through "fields", and keeps what reads before a syntax error', () => {
    const json = '{"fields": {\n  "Age": {"type": "integer"},\n  "Address": {"fields": {"Zip": {"type": "string"}}},\n  "Broken": {';
    const locations = schemaFieldLocations(json);
    expect([...locations.keys()].sort()).toEqual(['Address', 'Address.Zip', 'Age', 'Broken']);
    for (const [path, offset] of locations) expect(json.slice(offset).startsWith(`"${path.split('.').pop()}"`)).toBe(true);
  });
});
