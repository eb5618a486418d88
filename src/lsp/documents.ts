/**
 * Saved-filter documents as the language server sees them: the entries
 * `wepql lint` reads from a file (one filter per line with `# comments`, or
 * the `filter`/`sort` strings of a JSON/NDJSON file), with the mapping from
 * an offset in an entry's text to an offset in the file. In a JSON string a
 * character may be written as an escape (`\"`, `\u00e9`), so the two differ.
 */
import { jsonMembers, readJsonTreeTolerantly, type JsonNode } from '../workspace/json-positions.js';
import {
  readSavedFilters,
  rewriteSavedFile,
  type SavedEntry,
  type SavedSelectors,
  type UnknownDisableCode,
} from '../workspace/saved-filters.js';

/** One entry with its offset mapping. */
export interface DocumentEntry {
  readonly entry: SavedEntry;
  /** File offset of each UTF-16 unit of `entry.text`, plus one past the end. */
  readonly offsets: readonly number[];
}

/**
 * The entries of a document; none when the file cannot be read as saved
 * filters. With `unknownCodes`, a `wepql-disable` of a code that does not
 * exist is added there and the entries are still read.
 */
export function documentEntries(
  path: string,
  content: string,
  selectors?: SavedSelectors,
  unknownCodes?: UnknownDisableCode[],
): DocumentEntry[] {
  let entries: readonly SavedEntry[];
  try {
    entries = readSavedFilters(path, content, selectors, unknownCodes === undefined ? {} : { unknownCodes }).entries;
  } catch {
    return [];
  }
  return entries.map((entry) => ({ entry, offsets: offsetMap(content, entry) }));
}

function offsetMap(content: string, entry: SavedEntry): number[] {
  const { start, end } = entry.range;
  if (entry.encoding === 'raw' || entry.encoding === 'yaml-plain') {
    // The text as written; a folded YAML scalar over several lines maps each offset as near as it can.
    const raw = content.slice(start, end);
    const lead = Math.max(raw.indexOf(entry.text), 0);
    return Array.from({ length: entry.text.length + 1 }, (_, i) => Math.min(start + lead + i, end));
  }
  // A quoted literal: skip the opening quote, step over escapes (JSON and
  // YAML double quotes: `\x`, `\uXXXX`; YAML single quotes: `''`).
  const out: number[] = [];
  let i = start + 1;
  while (i < end - 1 && out.length < entry.text.length) {
    out.push(i);
    if (entry.encoding === 'yaml-single') i += content[i] === "'" && content[i + 1] === "'" ? 2 : 1;
    else if (content.charCodeAt(i) === 92) i += content[i + 1] === 'u' ? 6 : 2;
    else i++;
  }
  while (out.length <= entry.text.length) out.push(Math.min(i, end - 1));
  return out;
}

/** The file offset of offset `at` of an entry's text (clamped to the text). */
export function toFileOffset(e: DocumentEntry, at: number): number {
  return e.offsets[Math.max(0, Math.min(at, e.offsets.length - 1))]!;
}

/** The entry whose text spans file offset `offset` (ends included) and the offset inside its text. */
export function entryAt(entries: readonly DocumentEntry[], offset: number): { entry: DocumentEntry; at: number } | undefined {
  for (const e of entries) {
    const first = e.offsets[0]!;
    const last = e.offsets[e.offsets.length - 1]!;
    if (offset < first || offset > last) continue;
    let at = 0;
    while (at + 1 < e.offsets.length && e.offsets[at + 1]! <= offset) at++;
    return { entry: e, at };
  }
  return undefined;
}

/**
 * A replacement of a whole entry, written as the file stores it (raw, a
 * JSON string, a YAML scalar), by the same encoder `wepql lint --fix` uses.
 */
export function encodeEntryText(entry: SavedEntry, text: string, content: string): string {
  const raw = content.slice(entry.range.start, entry.range.end);
  const local: SavedEntry = { ...entry, range: { start: 0, end: raw.length } };
  return rewriteSavedFile({ path: '', content: raw, format: 'txt', entries: [local] }, new Map([[local, text]]));
}

/**
 * Where each schema field's key is written in a schema JSON file: a map
 * from the field's path (`Address.Zip`) to the offset of its key's opening
 * quote. Read through `jsonc-parser`'s tree, which keeps going after a
 * syntax error, so a file that is not JSON yields what it could read; nesting
 * deeper than a schema has (64 levels) is not searched.
 */
export function schemaFieldLocations(json: string): Map<string, number> {
  const locations = new Map<string, number>();
  const tree = readJsonTreeTolerantly(json);
  // Iterative, with the path each value belongs to; `fieldsOf` is that path when the value is a `fields` map.
  const stack: { node: JsonNode; path: readonly string[]; fieldsOf: readonly string[] | undefined; depth: number }[] = [];
  if (tree !== undefined) stack.push({ node: tree, path: [], fieldsOf: undefined, depth: 0 });
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    const { node, path, fieldsOf, depth } = at;
    if (depth > 64) continue;
    if (node.type === 'array')
      for (const item of node.children ?? []) stack.push({ node: item, path, fieldsOf: undefined, depth: depth + 1 });
    for (const [key, value, keyNode] of jsonMembers(node)) {
      if (fieldsOf === undefined) {
        stack.push({ node: value, path, fieldsOf: key === 'fields' ? path : undefined, depth: depth + 1 });
        continue;
      }
      const fieldPath = [...fieldsOf, key];
      locations.set(fieldPath.join('.'), keyNode.offset);
      stack.push({ node: value, path: fieldPath, fieldsOf: undefined, depth: depth + 1 });
    }
  }
  return locations;
}
