/**
 * Saved-filter documents as the language server sees them: the entries
 * `wepql lint` reads from a file (one filter per line with `# comments`, or
 * the `filter`/`sort` strings of a JSON/NDJSON file), with the mapping from
 * an offset in an entry's text to an offset in the file. In a JSON string a
 * character may be written as an escape (`\"`, `\u00e9`), so the two differ.
 */
import { readSavedFilters, rewriteSavedFile, type SavedEntry, type SavedSelectors } from '../workspace/saved-filters.js';

/** One entry with its offset mapping. */
export interface DocumentEntry {
  readonly entry: SavedEntry;
  /** File offset of each UTF-16 unit of `entry.text`, plus one past the end. */
  readonly offsets: readonly number[];
}

/** The entries of a document; none when the file cannot be read as saved filters. */
export function documentEntries(path: string, content: string, selectors?: SavedSelectors): DocumentEntry[] {
  let entries: readonly SavedEntry[];
  try {
    entries = readSavedFilters(path, content, selectors).entries;
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
 * quote. A small reader of its own because the locations are needed, not the
 * values; a file that is not JSON yields what was read before the problem.
 */
export function schemaFieldLocations(json: string): Map<string, number> {
  const out = new Map<string, number>();
  let i = 0;
  const space = (): void => {
    while (i < json.length && /\s/.test(json[i]!)) i++;
  };
  const string = (): string | undefined => {
    const start = i;
    i++;
    while (i < json.length && json[i] !== '"') i += json[i] === '\\' ? 2 : 1;
    i++;
    try {
      return JSON.parse(json.slice(start, i)) as string;
    } catch {
      return undefined;
    }
  };
  // `fieldsOf` is the field path when the object being read is a `fields` map.
  const value = (path: readonly string[], fieldsOf: readonly string[] | undefined, depth: number): void => {
    space();
    if (depth > 64 || i >= json.length) return;
    const c = json[i];
    if (c === '"') {
      string();
      return;
    }
    if (c === '[') {
      i++;
      for (space(); i < json.length && json[i] !== ']'; space()) {
        value(path, undefined, depth + 1);
        space();
        if (json[i] === ',') i++;
        else break;
      }
      i++;
      return;
    }
    if (c !== '{') {
      while (i < json.length && !/[,\]}\s]/.test(json[i]!)) i++;
      return;
    }
    i++;
    for (space(); i < json.length && json[i] === '"'; space()) {
      const keyAt = i;
      const key = string();
      space();
      if (key === undefined || json[i] !== ':') return;
      i++;
      if (fieldsOf !== undefined) {
        const fieldPath = [...fieldsOf, key];
        out.set(fieldPath.join('.'), keyAt);
        value(fieldPath, undefined, depth + 1);
      } else {
        value(path, key === 'fields' ? path : undefined, depth + 1);
      }
      space();
      if (json[i] === ',') i++;
    }
    i++;
  };
  value([], undefined, 0);
  return out;
}
