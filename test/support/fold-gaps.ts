/**
 * The case-folding gaps of the SQL engines, as docs/sql.md lists them.
 *
 * docs/sql.md holds one generated table per engine and version the tests
 * run on ("Where folding differs, engine by engine"): every code point whose
 * folded form in that engine differs from `String.prototype.toLowerCase`
 * (the in-memory fold). The folding test (test/property/sql-folding.test.ts)
 * scans all of Unicode on each engine, renders the table and fails when the
 * docs are stale; `WEPQL_UPDATE_DOCS=1` rewrites them. Every other test that
 * needs an engine's gap (the differential suites keep generated text out of
 * it, or allow a disagreement only inside it) reads it from here, so the
 * list exists once: in the docs.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** The engines (and versions) whose folding the docs tabulate. */
export const FOLD_ENGINES = {
  pglite: 'PGlite 0.5 (PostgreSQL 18), `pg_unicode_fast`',
  postgres15: 'PostgreSQL 15, libc `C.UTF-8` collation (`wepql_fold`)',
  sqlite: 'SQLite (sql.js), `wepql_lower`',
  mariadb: 'MariaDB 10.11, `utf8mb4_unicode_520_ci`',
} as const;

/** One engine's table. */
export type FoldEngine = keyof typeof FOLD_ENGINES;

const DOCS = new URL('../../docs/sql.md', import.meta.url);

const begin = (engine: FoldEngine): string => `<!-- fold-gap:${engine} -->`;
const end = (engine: FoldEngine): string => `<!-- /fold-gap:${engine} -->`;

/** U+0041 style. */
const hex = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * How many code points the scan folds: every Unicode scalar value but
 * U+0000 (which a PostgreSQL text cannot hold), U+0001–U+10FFFF without the
 * surrogates U+D800–U+DFFF.
 */
export const SCANNED_CODE_POINTS = 0x10ffff - 0x800;

/**
 * `toLowerCase` of `x` + each code point whose text it changes (a couple of
 * thousand of the 1.1 million scalar values), computed over all of them once
 * per process: every other text folds to itself in JavaScript.
 */
let jsChanges: ReadonlyMap<number, string> | undefined;

function jsChanged(): ReadonlyMap<number, string> {
  if (jsChanges !== undefined) return jsChanges;
  const out = new Map<number, string>();
  for (let cp = 1; cp <= 0x10ffff; cp++) {
    if (cp === 0xd800) cp = 0xe000;
    const text = `x${String.fromCodePoint(cp)}`;
    const lower = text.toLowerCase();
    if (lower !== text) out.set(cp, lower);
  }
  return (jsChanges = out);
}

/**
 * The code points an engine folds differently, measured: the folded form
 * of `x` + the code point (the `x` makes `Σ` a final sigma, where engines
 * with simple case mapping differ) compared with `toLowerCase`.
 * `engineChanges` holds, by code point, the engine's fold of `x` + each
 * code point whose text its fold changes (compared as bytes), over every
 * scalar value: the engine makes the texts, folds and compares, so only a
 * few thousand folds come back rather than a million texts sent and read
 * back. A code point it leaves out folds to itself there, and differs
 * exactly when `toLowerCase` changes it.
 *
 * @example
 * const gap = measureFoldGap(await engineChanges()); // Map { 0x130 => 'i', … } on an engine that folds İ to i
 */
export function measureFoldGap(engineChanges: ReadonlyMap<number, string>): Map<number, string> {
  const js = jsChanged();
  const gap = new Map<number, string>();
  for (const [cp, folded] of engineChanges) {
    const text = `x${String.fromCodePoint(cp)}`;
    // A change the engine reports must be one: an equal text here means its comparison is broken.
    if (folded === text) throw new Error(`the engine reported ${hex(cp)} as changed by its fold, but it folds to itself`);
    if (folded !== (js.get(cp) ?? text)) gap.set(cp, folded.slice(1));
  }
  for (const cp of js.keys()) if (!engineChanges.has(cp)) gap.set(cp, String.fromCodePoint(cp));
  return gap;
}

/** How the engine's result differs, as one table cell. */
function difference(cp: number, engineFolded: string): string {
  const original = String.fromCodePoint(cp);
  const js = `x${original}`.toLowerCase().slice(1);
  const codes = (s: string): string => Array.from(s, (c) => hex(c.codePointAt(0)!)).join(' ');
  if (engineFolded === original) return `not folded (\`toLowerCase\`: ${codes(js)})`;
  return `folds to ${codes(engineFolded)} (\`toLowerCase\`: ${codes(js)})`;
}

/**
 * The markdown table for a measured gap: runs of consecutive code points
 * left unfolded share a row; every other difference has its own.
 *
 * @example
 * renderFoldTable(new Map([[0x130, 'i']])); // '| U+0130 | 1 | folds to U+0069 … |'
 */
export function renderFoldTable(gap: ReadonlyMap<number, string>): string {
  const rows: { from: number; to: number; what: string }[] = [];
  for (const cp of [...gap.keys()].sort((a, b) => a - b)) {
    const engineFolded = gap.get(cp)!;
    const unfolded = engineFolded === String.fromCodePoint(cp);
    const last = rows.at(-1);
    if (unfolded && last !== undefined && last.what === 'not folded' && last.to === cp - 1) {
      last.to = cp;
      continue;
    }
    rows.push({ from: cp, to: cp, what: unfolded ? 'not folded' : difference(cp, engineFolded) });
  }
  const lines = ['| code points | count | the engine |', '|---|---:|---|'];
  if (rows.length === 0) lines.push('| (none) | 0 | folds every code point as `toLowerCase` |');
  for (const r of rows) {
    const range = r.from === r.to ? hex(r.from) : `${hex(r.from)}–${hex(r.to)}`;
    lines.push(`| ${range} | ${r.to - r.from + 1} | ${r.what === 'not folded' ? 'not folded' : r.what} |`);
  }
  lines.push('', `${gap.size} code point${gap.size === 1 ? '' : 's'} in all.`);
  return lines.join('\n');
}

function block(text: string, engine: FoldEngine): { start: number; stop: number } {
  const start = text.indexOf(begin(engine));
  const stop = text.indexOf(end(engine));
  if (start < 0 || stop < start) throw new Error(`docs/sql.md has no ${begin(engine)} … ${end(engine)} block`);
  return { start: start + begin(engine).length, stop };
}

/**
 * The table docs/sql.md holds for an engine, as written.
 *
 * @example
 * documentedFoldTable('mariadb').startsWith('| code points'); // true
 */
export function documentedFoldTable(engine: FoldEngine): string {
  const text = readFileSync(DOCS, 'utf8');
  const { start, stop } = block(text, engine);
  return text.slice(start, stop).trim();
}

/**
 * Replaces an engine's table in docs/sql.md (the folding test does this
 * under `WEPQL_UPDATE_DOCS=1`).
 *
 * @example
 * writeFoldTable('sqlite', renderFoldTable(new Map()));
 */
export function writeFoldTable(engine: FoldEngine, table: string): void {
  const text = readFileSync(DOCS, 'utf8');
  const { start, stop } = block(text, engine);
  writeFileSync(DOCS, `${text.slice(0, start)}\n\n${table}\n\n${text.slice(stop)}`);
  gaps.delete(engine);
}

/**
 * Each engine's gap as read from docs/sql.md, once per process: `foldsLikeJs`
 * runs for every string a differential case generates, and reading and
 * parsing the docs again each time was most of those files' CPU (MariaDB's
 * differential: 21 of its 61 profiled seconds). `writeFoldTable` forgets
 * the engine it rewrites.
 */
const gaps = new Map<FoldEngine, ReadonlySet<number>>();

/**
 * The code points of an engine's documented gap.
 *
 * @example
 * foldGap('mariadb').has(0x130); // true
 */
export function foldGap(engine: FoldEngine): ReadonlySet<number> {
  const known = gaps.get(engine);
  if (known !== undefined) return known;
  const out = new Set<number>();
  for (const line of documentedFoldTable(engine).split('\n')) {
    const m = /^\| U\+([0-9A-F]+)(?:–U\+([0-9A-F]+))? \|/.exec(line);
    if (m === null) continue;
    const from = parseInt(m[1]!, 16);
    const to = m[2] === undefined ? from : parseInt(m[2], 16);
    for (let cp = from; cp <= to; cp++) out.add(cp);
  }
  gaps.set(engine, out);
  return out;
}

/** Engines whose case mapping is simple (no Final_Sigma rule): a `Σ` that ends a word folds to `σ`, not `ς`. */
const SIMPLE_MAPPING: ReadonlySet<FoldEngine> = new Set(['postgres15', 'mariadb']);

/**
 * Whether an engine folds `text` exactly as `toLowerCase` does: no code
 * point of its gap, and — on engines without the Final_Sigma rule — folding
 * code point by code point gives the same text.
 *
 * @example
 * foldsLikeJs('mariadb', 'Smith'); // true
 * foldsLikeJs('mariadb', 'ΟΔΟΣ');  // false
 */
export function foldsLikeJs(engine: FoldEngine, text: string): boolean {
  const gap = foldGap(engine);
  for (const c of text) if (c !== 'Σ' && gap.has(c.codePointAt(0)!)) return false;
  if (!SIMPLE_MAPPING.has(engine)) return true;
  return text.toLowerCase() === Array.from(text, (c) => c.toLowerCase()).join('');
}

/**
 * Whether any string inside `value` (plain objects and arrays, keys
 * included) is folded differently by the engine.
 *
 * @example
 * touchesFoldGap('postgres15', { S: 'Ɤ' }); // true
 */
export function touchesFoldGap(engine: FoldEngine, value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (!foldsLikeJs(engine, v)) return true;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') {
      for (const key of Object.keys(v)) stack.push(key, (v as Record<string, unknown>)[key]);
    }
  }
  return false;
}
