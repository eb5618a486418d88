/**
 * `--fix` and `--fix-dry-run`: what a text becomes (renamed fields first,
 * then the safe fixes), the rewrites a run records, the findings `--fix`
 * would act on (for the "N problems potentially fixable" line), and the
 * writing back to files and table rows.
 */
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { fixTextBy, withRenames, type LintTextOptions } from '../../lint/lint-text.js';
import { rewriteSavedFile, type SavedEntry } from '../../workspace/saved-filters.js';
import type { LoadedSource } from '../../workspace/sources.js';
import { writeSourceFile } from '../io.js';
import { writeRowFixes, type RowFix } from './database.js';
import type { Item } from './items.js';

/**
 * The rewrites and counts of a run.
 *
 * @example
 * const fixes = newFixes();
 */
export interface Fixes {
  readonly fileFixes: Map<LoadedSource, Map<SavedEntry, string>>;
  readonly rowFixes: RowFix[];
  /** `label:line: old → new` for each text --fix-dry-run would rewrite. */
  readonly changes: string[];
  fixed: number;
  /** Findings that `--fix` would act on (counted when not fixing), by severity: see `potentiallyFixable`. */
  readonly fixable: SeverityCounts;
}

/**
 * An empty record of rewrites.
 *
 * @example
 * const fixes = newFixes();
 */
export function newFixes(): Fixes {
  return { fileFixes: new Map(), rowFixes: [], changes: [], fixed: 0, fixable: { error: 0, warning: 0, info: 0 } };
}

/** Lints a text with the run's options; a run caches it per text. */
export type LintOf = (text: string, kind: 'filter' | 'sort') => readonly Diagnostic[];

/**
 * What --fix makes of a text: renames first, in place, so that they land
 * even when another finding has no safe fix; then the safe fixes. `lint`
 * gives the text's diagnostics (the run has them already): a text without
 * renames and with a finding that has no safe fix stays as it is, which
 * `fixText` would find only by linting it again.
 *
 * @example
 * fixedText(entry, options, lint); // 'Gender.Equal(1)' for 'gender.equal(1);;'
 */
export function fixedText(entry: SavedEntry, options: LintTextOptions, lint: LintOf): string {
  const found = lint(entry.text, entry.kind);
  const renames = options.previousSchema !== undefined && found.some((d) => d.code === 'field-renamed');
  if (!renames && found.some((d) => d.fix === undefined || d.fix.length === 0)) return entry.text;
  // The renames come from the findings at hand, and every text on the way to the fix is linted through the run's cache.
  const renamed = renames ? withRenames(entry.text, found) : entry.text;
  return fixTextBy(renamed, entry.kind, options, (text) => lint(text, entry.kind)) ?? renamed;
}

/**
 * Records the text --fix makes of an item: for writing back (or, dry, for
 * listing).
 *
 * @example
 * recordFix(fixes, item, fixedText(item.entry, options, lint));
 */
export function recordFix(fixes: Fixes, item: Item, fixed: string): void {
  const { entry } = item;
  fixes.fixed++;
  fixes.changes.push(`${item.label}:${entry.line}: ${entry.text} → ${fixed}`);
  if (item.file !== undefined) {
    let map = fixes.fileFixes.get(item.file);
    if (map === undefined) fixes.fileFixes.set(item.file, (map = new Map()));
    map.set(entry, fixed);
  } else if (item.row !== undefined) fixes.rowFixes.push({ entry: { ...item.row, kind: entry.kind, text: entry.text }, text: fixed });
}

/**
 * Findings counted by severity.
 *
 * @example
 * const counts: SeverityCounts = { error: 0, warning: 2, info: 0 };
 */
export interface SeverityCounts {
  error: number;
  warning: number;
  info: number;
}

/**
 * The findings `--fix` would act on, by severity (with `quiet`, errors
 * only), read off the findings alone, as ESLint counts its "potentially
 * fixable" problems: no second lint of the fixed text. `raw` are the text's
 * findings before the run's rules, `reported` those the run shows. It
 * mirrors `fixedText`'s choice: when every finding carries a safe fix,
 * every reported one counts; else, when the text uses renamed fields, the
 * `field-renamed` findings count (their fixes land in any case); else none.
 *
 * The count is what `--fix` removes whenever `--fix` rewrites the text to
 * its fixed form. It can count more in one case: every finding carries a
 * safe fix but the fixed text would still have findings (a fix that
 * uncovers a finding without one, or errors left after the rounds), so
 * `--fix` leaves the text as written (or only renamed). test/property/lint-fixable-count.test.ts
 * holds it against the findings `--fix` removes.
 *
 * @example
 * potentiallyFixable(raw, reported, options, false); // { error: 0, warning: 1, info: 0 }
 */
export function potentiallyFixable(
  raw: readonly Diagnostic[],
  reported: readonly Diagnostic[],
  options: LintTextOptions,
  quiet: boolean,
): SeverityCounts {
  const counts: SeverityCounts = { error: 0, warning: 0, info: 0 };
  const allFixable = raw.every((d) => d.fix !== undefined && d.fix.length > 0);
  const renames = options.previousSchema !== undefined && raw.some((d) => d.code === 'field-renamed');
  if (!allFixable && !renames) return counts;
  for (const d of reported) {
    if (!allFixable && d.code !== 'field-renamed') continue;
    if (!(quiet && d.severity !== 'error')) counts[d.severity]++;
  }
  return counts;
}

/**
 * The findings --fix removes, found the long way: those whose code the
 * fixed text no longer reports as often (with `quiet`, errors only). What
 * `potentiallyFixable` is held against in the tests.
 *
 * @example
 * fixableBy(before, after, false); // { error: 0, warning: 1, info: 0 }
 */
export function fixableBy(before: readonly Diagnostic[], after: readonly Diagnostic[], quiet: boolean): SeverityCounts {
  const counts: SeverityCounts = { error: 0, warning: 0, info: 0 };
  const left = new Map<string, number>();
  for (const d of after) left.set(d.code, (left.get(d.code) ?? 0) + 1);
  for (const d of before) {
    const n = left.get(d.code) ?? 0;
    if (n > 0) left.set(d.code, n - 1);
    else if (!(quiet && d.severity !== 'error')) counts[d.severity]++;
  }
  return counts;
}

/**
 * Writes the recorded rewrites back: each file with only its changed texts
 * replaced (same encoding, every other byte as it was), then the table's rows.
 *
 * @example
 * await writeFixes(fixes, settings.database);
 */
export async function writeFixes(fixes: Fixes, database: Parameters<typeof writeRowFixes>[0] | undefined): Promise<void> {
  for (const [loaded, map] of fixes.fileFixes) {
    const next = rewriteSavedFile(loaded.file, map);
    if (next !== loaded.file.content) await writeSourceFile(loaded.candidate.abs, loaded.source, next);
  }
  if (database !== undefined) await writeRowFixes(database, fixes.rowFixes);
}
