/**
 * Files of saved filters and sorts, as `wepql lint` and `wepql fmt --check`
 * read them, and how to write fixed values back without touching anything
 * else in the file.
 *
 * - `.txt` (and any other extension): one filter per line; blank lines and
 *   lines starting with `#` are skipped.
 * - `.json`: an array of objects (or one object) with `filter` and/or `sort`
 *   string fields and an optional `name`.
 * - `.ndjson` / `.jsonl`: one such object per line.
 * - `.yaml` / `.yml`: like JSON (a list of objects or one object), in YAML;
 *   several documents separated by `---` are read in turn.
 * - `-` (stdin): JSON when the text starts with `[` or `{`, else text lines.
 *
 * With a selector (`--filter-path '$.views[*].filter'`, `--sort-path`), a
 * JSON or YAML document is searched for the strings the selector reaches as
 * well as the default shapes above (a string reached twice is read once);
 * an entry's `name` is a string `name` member next to it.
 */
import type { Node as YamlNode } from 'yaml';
import { trimWhitespace } from '../ast/lexical.js';
import { DIAGNOSTIC_CODES } from '../diagnostics/codes.js';
import { didYouMean } from '../diagnostics/suggest.js';
import { jsonMember, jsonValue, readJsonTree, type JsonNode, type JsonProblem } from './json-positions.js';
import { LineIndex } from './line-index.js';
import { select, type SelectorStep, type TreeAdapter } from './selector.js';
import { readYamlDocuments, yamlScalar, type YamlRead, type YamlScalarAt } from './yaml-positions.js';

type YamlModule = typeof import('yaml');
let yaml: YamlModule | undefined;

/**
 * Loads the YAML reader when some file needs it (YAML, or a selector):
 * most runs read only JSON and text, and start faster without it.
 *
 * @example
 * if (needsYaml(paths, selectors)) await loadYaml();
 */
export async function loadYaml(): Promise<void> {
  yaml ??= await import('yaml');
}

/**
 * Whether reading these files with these selectors needs `loadYaml` first.
 *
 * @example
 * needsYaml(['views/a.yaml'], {}); // true
 */
export function needsYaml(paths: readonly string[], selectors?: SavedSelectors): boolean {
  if (selectors !== undefined && (selectors.filter !== undefined || selectors.sort !== undefined)) return true;
  return paths.some((p) => /\.ya?ml$/i.test(p));
}

/** One saved filter or sort found in a file. */
export interface SavedEntry {
  readonly kind: 'filter' | 'sort';
  /** The filter or sort text itself. */
  readonly text: string;
  /** 1-based line of the file where the text starts. */
  readonly line: number;
  /** 1-based column of the file where the text starts (after an opening JSON quote). */
  readonly column: number;
  /** The entry's `name`, when the file gives one. */
  readonly name?: string;
  /** The file range holding the text as written (for JSON, the string literal with its quotes). */
  readonly range: { readonly start: number; readonly end: number };
  /** How a replacement text is written into `range`. */
  readonly encoding: 'raw' | 'json-string' | 'yaml-plain' | 'yaml-single';
  /**
   * Codes silenced for this entry (`*`: every code), by a `# wepql-disable-next-line [code…]`
   * comment on the line above it or a `"wepql-disable": [code…]` member of its object.
   */
  readonly disable?: readonly string[];
}

/** The member of a saved-filter object that silences codes for its entries. */
export const DISABLE_KEY = 'wepql-disable';

const DIRECTIVE = /^#\s*wepql-disable-next-line(?:\s+(.*))?$/;

/**
 * A `wepql-disable` naming a code that does not exist, and where it is
 * written (file offsets of the code, or of the value that holds it).
 *
 * @example
 * const u: UnknownDisableCode = { code: 'contradicton', message: 'line 1: unknown diagnostic code …', start: 26, end: 38 };
 */
export interface UnknownDisableCode {
  readonly code: string;
  readonly message: string;
  readonly start: number;
  readonly end: number;
}

/**
 * How `readSavedFilters` treats an unknown code to disable. By default it
 * throws `SavedFileError` (the command line exits 2); with `unknownCodes`,
 * each one is added there and left out of the entry's `disable` (the
 * entry's other codes still apply, and a directive of unknown codes only
 * silences nothing), so that an editor can underline it and go on showing
 * the file's findings.
 *
 * @example
 * const unknownCodes: UnknownDisableCode[] = [];
 * readSavedFilters('views.txt', text, undefined, { unknownCodes });
 */
export interface SavedReadOptions {
  readonly unknownCodes?: UnknownDisableCode[];
}

/** Where a code of a disable value is written: `at(code)` gives its file range. */
type CodeRange = (code: string) => { readonly start: number; readonly end: number };

/** The codes a directive or `wepql-disable` value names, checked against the diagnostic codes. */
function disabledCodes(path: string, where: string, raw: unknown, at: CodeRange, options: SavedReadOptions): string[] {
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list) || !list.every((c) => typeof c === 'string'))
    throw new SavedFileError(path, `${where}: "${DISABLE_KEY}" must be a code or a list of codes`);
  const codes = (list as string[]).flatMap((c) => c.split(/[\s,]+/)).filter((c) => c !== '');
  const known: string[] = [];
  for (const code of codes) {
    if (Object.hasOwn(DIAGNOSTIC_CODES, code)) {
      known.push(code);
      continue;
    }
    const near = didYouMean(code, Object.keys(DIAGNOSTIC_CODES));
    const message = `${where}: unknown diagnostic code "${code}" to disable${near === undefined ? '' : `; did you mean "${near}"?`}`;
    if (options.unknownCodes === undefined) throw new SavedFileError(path, message);
    options.unknownCodes.push({ code, message, ...at(code) });
  }
  // No codes at all silences every code; codes that are all unknown silence none.
  return codes.length === 0 ? ['*'] : known;
}

/** The codes a `# wepql-disable-next-line` comment on the line above `line` (1-based) silences, if there is one. */
function directiveAbove(
  path: string,
  content: string,
  starts: readonly number[],
  line: number,
  options: SavedReadOptions,
): string[] | undefined {
  if (line < 2) return undefined;
  const lineStart = starts[line - 2]!;
  const written = content.slice(lineStart, starts[line - 1]! - 1);
  const m = DIRECTIVE.exec(trimWhitespace(written));
  if (m === null) return undefined;
  const codesFrom = written.indexOf('wepql-disable-next-line') + 'wepql-disable-next-line'.length;
  const at: CodeRange = (code) => {
    const i = written.indexOf(code, codesFrom);
    return i < 0 ? { start: lineStart, end: lineStart + written.length } : { start: lineStart + i, end: lineStart + i + code.length };
  };
  return disabledCodes(path, `line ${line - 1}`, m[1] ?? '', at, options);
}

/**
 * Where a code sits in a `wepql-disable` value of a tree (JSON or YAML):
 * the string item that names it, else the whole value.
 */
function valueCodeRange(whole: readonly [number, number], strings: readonly { value: unknown; start: number; end: number }[]): CodeRange {
  return (code) => {
    const item = strings.find((s) => typeof s.value === 'string' && s.value.split(/[\s,]+/).includes(code));
    return item === undefined ? { start: whole[0], end: whole[1] } : { start: item.start, end: item.end };
  };
}

/**
 * Where the filters and sorts sit in a JSON or YAML document, as parsed
 * selectors (see `parseSelector`).
 *
 * @example
 * const where: SavedSelectors = { filter: [parseSelector('$.views[*].filter')] };
 */
export interface SavedSelectors {
  /** Every selector that finds filters (a file may hold them in several places). */
  readonly filter?: readonly (readonly SelectorStep[])[];
  readonly sort?: readonly (readonly SelectorStep[])[];
}

/** A parsed saved-filter file. */
export interface SavedFile {
  readonly path: string;
  readonly content: string;
  readonly format: 'txt' | 'json' | 'ndjson' | 'yaml';
  readonly entries: readonly SavedEntry[];
}

/** Why a file could not be read as saved filters. */
export class SavedFileError extends Error {
  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = 'SavedFileError';
  }
}

function formatOf(path: string, content: string): SavedFile['format'] {
  const lower = path.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return 'ndjson';
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  if (path === '-') {
    const first = content.trimStart()[0];
    if (first === '[') return 'json';
    if (first === '{') {
      // One object per line is NDJSON; a single (possibly multi-line) object is JSON.
      const lines = content.split('\n').filter((l) => l.trim() !== '');
      return lines.length > 1 && lines.every((l) => l.trim().startsWith('{')) ? 'ndjson' : 'json';
    }
  }
  return 'txt';
}

/** A JSON object of a saved-filter file: its node, how messages name it, and the file offset its text's offsets count from. */
interface JsonObjectAt {
  readonly node: JsonNode;
  readonly where: string;
  /** 0 for a JSON file; an NDJSON line's start. */
  readonly base: number;
}

/** The entries of one JSON object (an array item, an NDJSON line, or the whole file). */
function entriesFromObject(path: string, o: JsonObjectAt, lines: LineIndex, options: SavedReadOptions): SavedEntry[] {
  const { node, where, base } = o;
  if (node.type !== 'object') {
    throw new SavedFileError(path, `${where}: expected an object with "filter" and/or "sort" fields`);
  }
  const out: SavedEntry[] = [];
  const nameNode = jsonMember(node, 'name');
  const name = nameNode?.type === 'string' ? (nameNode.value as string) : undefined;
  const disableNode = jsonMember(node, DISABLE_KEY);
  const disable =
    disableNode === undefined
      ? undefined
      : disabledCodes(
          path,
          where,
          jsonValue(disableNode),
          valueCodeRange(
            [base + disableNode.offset, base + disableNode.offset + disableNode.length],
            [disableNode, ...(disableNode.children ?? [])].map((n) => ({
              value: n.value,
              start: base + n.offset,
              end: base + n.offset + n.length,
            })),
          ),
          options,
        );
  for (const kind of ['filter', 'sort'] as const) {
    const text = jsonMember(node, kind);
    if (text === undefined || text.type === 'null') continue;
    if (text.type !== 'string') throw new SavedFileError(path, `${where}: "${kind}" must be a string`);
    const range = { start: base + text.offset, end: base + text.offset + text.length };
    const pos = lines.position(range.start);
    out.push({
      kind,
      text: text.value as string,
      line: pos.line,
      column: pos.column + 1,
      ...(name === undefined ? {} : { name }),
      range,
      encoding: 'json-string',
      ...(disable === undefined ? {} : { disable }),
    });
  }
  return out;
}

/**
 * The entries of a list of objects (JSON array items or NDJSON lines). A
 * list in which no object has a `filter` or `sort` is not a saved-filter
 * list at all (no entries; the caller says the file holds none); a list in
 * which some do and one has neither is malformed.
 */
function entriesOfObjects(path: string, objects: readonly JsonObjectAt[], lines: LineIndex, options: SavedReadOptions): SavedEntry[] {
  const out: SavedEntry[] = [];
  let empty: string | undefined;
  for (const o of objects) {
    const found = entriesFromObject(path, o, lines, options);
    if (found.length === 0) empty ??= o.where;
    // A loop, not push(...found): a spread of a huge list overflows the stack.
    for (const e of found) out.push(e);
  }
  if (out.length > 0 && empty !== undefined) throw new SavedFileError(path, `${empty}: has neither a "filter" nor a "sort" string`);
  return out;
}

/**
 * Reads the saved filters and sorts of one file's content. Throws
 * `SavedFileError` with the file and position for content that is not of the
 * file's format (invalid JSON, an entry that is not an object, a non-string
 * filter).
 *
 * @example
 * readSavedFilters('saved.txt', 'Gender.Equal(1)\n# comment\n').entries[0].text; // 'Gender.Equal(1)'
 */
export function readSavedFilters(path: string, content: string, selectors?: SavedSelectors, options: SavedReadOptions = {}): SavedFile {
  const format = formatOf(path, content);
  const selecting = selectors !== undefined && (selectors.filter !== undefined || selectors.sort !== undefined);
  let entries: SavedEntry[];
  // Selectors need a tree to walk: a JSON file's own, when it reads as plain JSON (jsonSelectedEntries);
  // NDJSON, and JSON the JSON reader refuses (its error is worded by the YAML reader, as it always was), are read as YAML.
  if (format === 'yaml' || (selecting && (format === 'json' || format === 'ndjson'))) {
    entries =
      (selecting && format === 'json' ? jsonSelectedEntries(path, content, selectors, options) : undefined) ??
      yamlEntries(path, content, selecting ? selectors : undefined, options);
  } else if (format === 'txt') {
    entries = txtEntries(path, content, new LineIndex(content), options);
  } else if (format === 'json') {
    entries = jsonEntries(path, content, new LineIndex(content), options);
  } else {
    entries = ndjsonEntries(path, content, new LineIndex(content), options);
  }
  return { path, content, format, entries };
}

/** Entries of a text file: each line not blank and not a `#` comment is a filter. */
function txtEntries(path: string, content: string, lines: LineIndex, options: SavedReadOptions): SavedEntry[] {
  const { starts } = lines;
  const entries: SavedEntry[] = [];
  for (let n = 0; n < starts.length; n++) {
    const start = starts[n]!;
    let end = n + 1 < starts.length ? starts[n + 1]! - 1 : content.length;
    if (end > start && content.charCodeAt(end - 1) === 13) end--;
    const text = content.slice(start, end);
    // A line is filter text: blank means the language's whitespace only (docs/reference.md
    // §"Lexical rules"), so a line of U+00A0 is an entry the parser reports, not a skipped line.
    const trimmed = trimWhitespace(text);
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const disable = directiveAbove(path, content, starts, n + 1, options);
    entries.push({
      kind: 'filter',
      text,
      line: n + 1,
      column: 1,
      range: { start, end },
      encoding: 'raw',
      ...(disable === undefined ? {} : { disable }),
    });
  }
  return entries;
}

/** The message of a JSON text that does not read, with the line and column of the problem. */
function jsonProblem(path: string, read: JsonProblem, lines: LineIndex, base: number): SavedFileError {
  if (read.problem === 'too-deep') return new SavedFileError(path, 'the document nests too deeply to read');
  const at = lines.position(base + read.offset);
  return new SavedFileError(path, `line ${at.line}, column ${at.column}: not valid JSON (${read.error})`);
}

/** Entries of a JSON file: one object, or a list of them. */
function jsonEntries(path: string, content: string, lines: LineIndex, options: SavedReadOptions): SavedEntry[] {
  const read = readJsonTree(content, 'json');
  if (read.problem !== undefined) throw jsonProblem(path, read, lines, 0);
  const { tree } = read;
  const list = tree.type === 'array' ? (tree.children ?? []) : [tree];
  const where = (k: number) => (tree.type === 'array' ? `entry ${k}` : 'the object');
  return entriesOfObjects(
    path,
    list.map((node, k) => ({ node, where: where(k), base: 0 })),
    lines,
    options,
  );
}

/** Entries of an NDJSON file: one object per non-blank line. */
function ndjsonEntries(path: string, content: string, lines: LineIndex, options: SavedReadOptions): SavedEntry[] {
  const { starts } = lines;
  const objects: JsonObjectAt[] = [];
  for (let n = 0; n < starts.length; n++) {
    const start = starts[n]!;
    const end = n + 1 < starts.length ? starts[n + 1]! - 1 : content.length;
    const line = content.slice(start, end);
    if (line.trim() === '') continue;
    const read = readJsonTree(line, 'json');
    if (read.problem !== undefined) throw jsonProblem(path, read, lines, start);
    objects.push({ node: read.tree, where: `line ${n + 1}`, base: start });
  }
  return entriesOfObjects(path, objects, lines, options);
}

/**
 * The documents of a JSON, NDJSON or YAML text as plain values, or
 * undefined when the text does not parse (YAML needs `loadYaml` first).
 *
 * @example
 * plainDocuments('dash.yaml', 'views:\n  - filter: A.Equal(1)\n'); // [{ views: [{ filter: 'A.Equal(1)' }] }]
 */
export function plainDocuments(path: string, content: string): unknown[] | undefined {
  try {
    const format = formatOf(path, content);
    const plainJson = (text: string): unknown => {
      const read = readJsonTree(text, 'json');
      if (read.problem !== undefined) throw new SyntaxError(read.error);
      return jsonValue(read.tree);
    };
    if (format === 'json') return [plainJson(content)];
    if (format === 'ndjson')
      return content
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map(plainJson);
    if (format === 'yaml' && yaml !== undefined) {
      const read = readYamlDocuments(yaml, content);
      return read?.documents.map((d) => d.toJS({ maxAliasCount: 100 }) as unknown);
    }
  } catch {
    // Not parseable: no documents to search.
  }
  return undefined;
}

function yamlTree(y: YamlModule): TreeAdapter<unknown> {
  return {
    members: (n) =>
      y.isMap(n) ? n.items.map((p) => [y.isScalar(p.key) ? String(p.key.value) : String(p.key), p.value] as const) : undefined,
    items: (n) => (y.isSeq(n) ? n.items : undefined),
  };
}

const DEFAULT_SELECTORS: Record<'filter' | 'sort', readonly (readonly SelectorStep[])[]> = {
  filter: [[{ kind: 'member', key: 'filter' }], [{ kind: 'wildcard' }, { kind: 'member', key: 'filter' }]],
  sort: [[{ kind: 'member', key: 'sort' }], [{ kind: 'wildcard' }, { kind: 'member', key: 'sort' }]],
};

/** Entries of a YAML (or JSON, read as YAML) file, found by selectors or in the default places. */
function yamlEntries(path: string, content: string, selectors: SavedSelectors | undefined, options: SavedReadOptions): SavedEntry[] {
  if (yaml === undefined) throw new Error('readSavedFilters: call loadYaml() before reading YAML or using selectors');
  const y = yaml;
  const tree = yamlTree(y);
  const read = readYamlDocuments(y, content);
  if (read === undefined) throw new SavedFileError(path, 'the document nests too deeply to read');
  const out: { entry: SavedEntry; at: number }[] = [];
  for (const doc of read.documents) {
    // A document with a syntax error stops the reading there, so an earlier document's entry errors come first.
    const error = doc.errors[0];
    if (error !== undefined) {
      const pos = read.lines.linePos(error.pos[0]);
      const format = path.toLowerCase().endsWith('.json') ? 'JSON' : 'YAML';
      throw new SavedFileError(path, `line ${pos.line}, column ${pos.col}: not valid ${format} (${error.message.split('\n')[0]})`);
    }
    for (const kind of ['filter', 'sort'] as const) {
      // Selectors add to the default shapes: a plain list of {name, filter, sort} stays read beside nested views.
      const chosen = [...DEFAULT_SELECTORS[kind], ...(selectors?.[kind] ?? [])];
      const seen = new Set<unknown>();
      for (const steps of chosen) {
        for (const { node, parent } of select<unknown>(doc.contents, steps, tree)) {
          const scalar = yamlScalar(y, node);
          if (scalar === undefined || scalar.value === null || seen.has(scalar)) continue;
          seen.add(scalar);
          out.push({ at: scalar.range[0], entry: yamlEntry(y, path, content, read, kind, scalar, parent, options) });
        }
      }
    }
  }
  return out.sort((a, b) => a.at - b.at).map((e) => e.entry);
}

/** How the selectors walk a JSON tree: an object's properties in document order (a key written twice is listed twice, as the YAML reader lists it), an array's items. */
const JSON_TREE: TreeAdapter<JsonNode> = {
  members: (n) =>
    n.type === 'object' ? (n.children ?? []).map((p) => [String(p.children![0]!.value), p.children![1]!] as const) : undefined,
  items: (n) => (n.type === 'array' ? (n.children ?? []) : undefined),
};

/**
 * Deeper than this, a JSON document with selectors is left to the YAML
 * reader, which says when a document nests too deeply for it: a saved-filter
 * document is never near it, and a hostile one is refused as it always was.
 */
const JSON_SELECTED_DEPTH = 64;

function deeperThan(root: JsonNode, limit: number): boolean {
  const stack: [JsonNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    for (const child of node.children ?? []) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The entries the selectors (with the default shapes) find in a JSON file,
 * read with the JSON reader: what `yamlEntries` finds in the same text
 * (test/property/json-selectors.test.ts holds the two equal), at a fraction
 * of the cost. Undefined — read it as YAML — when the text is not plain JSON
 * or nests deeper than JSON_SELECTED_DEPTH.
 */
function jsonSelectedEntries(
  path: string,
  content: string,
  selectors: SavedSelectors,
  options: SavedReadOptions,
): SavedEntry[] | undefined {
  const read = readJsonTree(content, 'json');
  if (read.problem !== undefined || deeperThan(read.tree, JSON_SELECTED_DEPTH)) return undefined;
  const lines = new LineIndex(content);
  const out: { entry: SavedEntry; at: number }[] = [];
  for (const kind of ['filter', 'sort'] as const) {
    const chosen = [...DEFAULT_SELECTORS[kind], ...(selectors[kind] ?? [])];
    const seen = new Set<JsonNode>();
    for (const steps of chosen) {
      for (const { node, parent } of select(read.tree, steps, JSON_TREE)) {
        if (node.type === 'object' || node.type === 'array' || node.type === 'null' || seen.has(node)) continue;
        seen.add(node);
        out.push({ at: node.offset, entry: jsonSelectedEntry(path, content, lines, kind, node, parent, options) });
      }
    }
  }
  return out.sort((a, b) => a.at - b.at).map((e) => e.entry);
}

/** The entry of one selected JSON value, with the name and disable list of the object it sits in (the first of a key written twice, as in YAML). */
function jsonSelectedEntry(
  path: string,
  content: string,
  lines: LineIndex,
  kind: 'filter' | 'sort',
  node: JsonNode,
  parent: JsonNode | undefined,
  options: SavedReadOptions,
): SavedEntry {
  const at = lines.position(node.offset);
  if (node.type !== 'string') throw new SavedFileError(path, `line ${at.line}: "${kind}" must be a string`);
  const sibling = (key: string) =>
    parent?.type === 'object' ? parent.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1] : undefined;
  const nameNode = sibling('name');
  const name = nameNode?.type === 'string' ? (nameNode.value as string) : undefined;
  const disableNode = sibling(DISABLE_KEY);
  const disable =
    disableNode !== undefined
      ? disabledCodes(path, `line ${at.line}`, jsonValue(disableNode), jsonCodeRange(disableNode), options)
      : directiveAbove(path, content, lines.starts, at.line, options);
  return {
    kind,
    text: node.value as string,
    line: at.line,
    column: at.column + 1,
    ...(name === undefined ? {} : { name }),
    range: { start: node.offset, end: node.offset + node.length },
    encoding: 'json-string',
    ...(disable === undefined ? {} : { disable }),
  };
}

/** Where a code sits in a JSON `wepql-disable` value: the array item that names it, else the whole value (as `yamlCodeRange`). */
function jsonCodeRange(node: JsonNode): CodeRange {
  const items = node.type === 'array' ? (node.children ?? []) : [node];
  return valueCodeRange(
    [node.offset, node.offset + node.length],
    items.map((i) => ({
      value: i.type === 'object' || i.type === 'array' ? undefined : i.value,
      start: i.offset,
      end: i.offset + i.length,
    })),
  );
}

/** Where a code sits in a YAML `wepql-disable` value: the sequence item that names it, else the whole value. */
function yamlCodeRange(y: YamlModule, node: YamlNode): CodeRange {
  const span = (n: YamlNode): readonly [number, number] => [n.range?.[0] ?? 0, n.range?.[1] ?? 0];
  const items = y.isSeq(node) ? node.items.filter((i): i is YamlNode => y.isNode(i)) : [node];
  return valueCodeRange(
    span(node),
    items.map((i) => ({ value: y.isScalar(i) ? i.value : undefined, start: span(i)[0], end: span(i)[1] })),
  );
}

/** The entry of one selected scalar, with the name and disable directive of the map it sits in. */
function yamlEntry(
  y: YamlModule,
  path: string,
  content: string,
  read: YamlRead,
  kind: 'filter' | 'sort',
  scalar: YamlScalarAt,
  parent: unknown,
  options: SavedReadOptions,
): SavedEntry {
  const { isMap, isScalar } = y;
  const { line, col } = read.lines.linePos(scalar.range[0]);
  const at = { line, column: col };
  if (typeof scalar.value !== 'string') {
    throw new SavedFileError(path, `line ${at.line}: "${kind}" must be a string`);
  }
  const sibling = (key: string) => (isMap(parent) ? parent.items.find((p) => isScalar(p.key) && p.key.value === key)?.value : undefined);
  const nameNode = sibling('name');
  const name = isScalar(nameNode) && typeof nameNode.value === 'string' ? nameNode.value : undefined;
  const disableNode = sibling(DISABLE_KEY) as YamlNode | undefined;
  const disable =
    disableNode !== undefined
      ? disabledCodes(path, `line ${at.line}`, disableNode.toJSON(), yamlCodeRange(y, disableNode), options)
      : directiveAbove(path, content, read.lines.lineStarts, at.line, options);
  const quoted = scalar.type === 'QUOTE_DOUBLE' || scalar.type === 'QUOTE_SINGLE';
  return {
    kind,
    text: scalar.value,
    line: at.line,
    column: at.column + (quoted ? 1 : 0),
    ...(name === undefined ? {} : { name }),
    range: { start: scalar.range[0], end: scalar.range[1] },
    encoding: scalar.type === 'PLAIN' ? 'yaml-plain' : scalar.type === 'QUOTE_SINGLE' ? 'yaml-single' : 'json-string',
    ...(disable === undefined ? {} : { disable }),
  };
}

/** A YAML plain scalar may hold the text as written when it reads back as the same string on one line. */
function plainYamlSafe(text: string): boolean {
  return (
    /^[A-Za-z_(][^\n\r]*$/.test(text) &&
    !/:\s|\s#|[\s:]$|^[-?:,[\]{}#&*!|>'"%@`]/.test(text) &&
    !/^(true|false|null|yes|no|on|off|~)$/i.test(text)
  );
}

function encodeEntry(entry: SavedEntry, text: string): string {
  switch (entry.encoding) {
    case 'raw':
      return text;
    case 'json-string':
      return JSON.stringify(text);
    case 'yaml-plain':
      return plainYamlSafe(text) ? text : JSON.stringify(text);
    case 'yaml-single':
      return /[\n\r]/.test(text) ? JSON.stringify(text) : `'${text.replace(/'/g, "''")}'`;
  }
}

/**
 * The file content with some entries' texts replaced; everything else stays
 * byte-identical. Returns the original string when nothing changes.
 *
 * @example
 * rewriteSavedFile(file, new Map([[file.entries[0], 'Gender.Equal(1)']]));
 */
export function rewriteSavedFile(file: SavedFile, replacements: ReadonlyMap<SavedEntry, string>): string {
  const edits = [...replacements]
    .filter(([entry, text]) => text !== entry.text)
    .map(([entry, text]) => ({ ...entry.range, newText: encodeEntry(entry, text) }))
    .sort((a, b) => a.start - b.start);
  if (edits.length === 0) return file.content;
  // Pieces joined once: splicing edit by edit would copy the file once per edit.
  const pieces: string[] = [];
  let at = 0;
  for (const e of edits) {
    pieces.push(file.content.slice(at, e.start), e.newText);
    at = e.end;
  }
  pieces.push(file.content.slice(at));
  return pieces.join('');
}
