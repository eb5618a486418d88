/**
 * Linting the items of a run: each distinct text once, the findings under
 * the config's rules, the `overrides` of the item's file and the entry's
 * `wepql-disable` (workspace/lint-rules.ts, as the language server applies
 * them), the code frames of the pretty format, and what `--fix` rewrites.
 */
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { lintText } from '../../lint/lint-text.js';
import type { LintFinding } from '../../lint/report.js';
import { applyRule, fileRules, reportedFindings } from '../../workspace/lint-rules.js';
import type { SavedEntry } from '../../workspace/saved-filters.js';
import type { NoFiltersNotice } from '../../workspace/sources.js';
import { startProgress } from '../progress.js';
import type { KnownFindings } from './cache.js';
import { fixedText, newFixes, recordFix, type FixableCounts, type Fixes, type LintOf, potentiallyFixable } from './fixes.js';
import type { Inputs, Item } from './items.js';
import { frame, noticeLine } from './pretty.js';
import type { Settings } from './settings.js';

/**
 * What linting produced.
 *
 * @example
 * const { findings, frames } = lintItems(inputs, settings);
 */
export interface Outcome {
  readonly findings: LintFinding[];
  /** The pretty format's code frames, in order (empty for json and sarif). */
  readonly frames: string[];
  readonly fixes: Fixes;
  /** With `--cache`: each item's findings before the rules, for its text as written (undefined where `--fix` changed it). */
  readonly raw: (readonly Diagnostic[] | undefined)[];
}

/**
 * Lints every item (and reports the notices about whole files), on this
 * thread.
 *
 * @example
 * const outcome = lintItems(await readInputs(args, settings), settings);
 */
export function lintItems(inputs: Inputs, settings: Settings): Outcome {
  const outcome = startOutcome(inputs, settings);
  const lintOne = itemLinter(settings, inputs.cache?.findings);
  const progress = startProgress(inputs.items.length, 'filters and sorts');
  for (const item of inputs.items) {
    addItem(outcome, item, lintOne(toLint(item)));
    progress.tick(1);
  }
  progress.done();
  return outcome;
}

/**
 * What linting needs of an item, as plain data a worker thread can be sent:
 * its label, its entry and the path that picks the file's rules.
 *
 * @example
 * const lintOne = itemLinter(settings);
 * lintOne(toLint(item));
 */
export interface ItemToLint {
  readonly label: string;
  readonly entry: SavedEntry;
  /** The file's absolute path (`-` for standard input), undefined for a table row. */
  readonly abs: string | undefined;
}

/**
 * An item as linting needs it.
 *
 * @example
 * worker.postMessage(items.map(toLint));
 */
export function toLint(item: Item): ItemToLint {
  return { label: item.label, entry: item.entry, abs: item.file?.candidate.abs };
}

/**
 * What linting one item produced, whichever thread linted it: `addItem`
 * records it in the run's outcome in the items' order, so that a run spread
 * over threads reports byte for byte what one thread does.
 *
 * @example
 * addItem(outcome, item, itemLinter(settings)(toLint(item)));
 */
export interface ItemResult {
  readonly findings: LintFinding[];
  /** The pretty format's code frames of the findings shown. */
  readonly frames: string[];
  /** With --fix or --fix-dry-run: the text the item becomes, when it changes. */
  readonly fixed?: string;
  /** Without them: the findings `--fix` would act on, by severity (`potentiallyFixable`). */
  readonly fixable?: FixableCounts;
  /** With `--cache`, when the text was not fixed: its findings before the rules, for the cache. */
  readonly raw?: readonly Diagnostic[];
}

/**
 * The outcome before any item: the notices about whole files.
 *
 * @example
 * const outcome = startOutcome(inputs, settings);
 */
export function startOutcome(inputs: Inputs, settings: Settings): Outcome {
  const outcome: Outcome = { findings: [], frames: [], fixes: newFixes(), raw: [] };
  for (const notice of inputs.tooLarge) addNotice(outcome, notice, 'file-too-large', settings);
  for (const notice of inputs.notices) addNotice(outcome, notice, 'no-filters-found', settings);
  return outcome;
}

/**
 * Lints items one at a time under a run's settings. Saved filters repeat
 * (copied views, shared defaults): each distinct text is linted once by
 * the linter.
 *
 * @example
 * const lintOne = itemLinter(settings);
 * const results = items.map((item) => lintOne(toLint(item)));
 */
export function itemLinter(settings: Settings, known?: KnownFindings): (item: ItemToLint) => ItemResult {
  // One map per kind, keyed by the text itself: a key joined from kind and text cost a copy and a hash of every text.
  // `--cache` starts them from what earlier runs found.
  const caches: KnownFindings = known ?? { filter: new Map(), sort: new Map() };
  const keep = settings.cacheLocation !== undefined;
  const lint: LintOf = (text, kind) => {
    const cache = caches[kind];
    let found = cache.get(text);
    if (found === undefined) cache.set(text, (found = lintText(text, kind, settings.options)));
    return found;
  };
  const rulesOf = fileRules(settings.config);
  return (item) => {
    const { entry } = item;
    const rules = rulesOf(item.abs);
    const fixed = settings.fix ? fixedText(entry, settings.options, lint) : undefined;
    const text = fixed ?? entry.text;
    const raw = lint(text, entry.kind);
    const found = reportedFindings(raw, entry, rules);
    const findings: LintFinding[] = [];
    const frames: string[] = [];
    for (const d of found) {
      const finding = findingOf(item, d);
      findings.push(finding);
      if (settings.format === 'pretty' && !(settings.quiet && d.severity !== 'error')) frames.push(frame(text, d, item, finding));
    }
    const kept = keep && text === entry.text ? { raw } : {};
    if (fixed !== undefined) return fixed === entry.text ? { findings, frames, ...kept } : { findings, frames, fixed };
    if (found.length === 0) return { findings, frames, ...kept };
    // Read off the findings: linting the fixed text to count exactly cost a third of a run.
    return { findings, frames, fixable: potentiallyFixable(raw, found, settings.options, settings.quiet), ...kept };
  };
}

/**
 * Records one item's result in the run's outcome.
 *
 * @example
 * addItem(outcome, item, result);
 */
export function addItem(outcome: Outcome, item: Item, result: ItemResult): void {
  for (const finding of result.findings) outcome.findings.push(finding);
  for (const frame of result.frames) outcome.frames.push(frame);
  outcome.raw.push(result.raw);
  if (result.fixed !== undefined) recordFix(outcome.fixes, item, result.fixed);
  if (result.fixable !== undefined) {
    const { fixable } = outcome.fixes;
    fixable.error += result.fixable.error;
    fixable.warning += result.fixable.warning;
    fixable.info += result.fixable.info;
  }
}

/**
 * A finding about a file as a whole, on its first line: one that holds no
 * filter (`--strict` makes it an error, the config's rules may too), or one
 * too large to read (an error).
 */
function addNotice(outcome: Outcome, notice: NoFiltersNotice, code: 'no-filters-found' | 'file-too-large', settings: Settings): void {
  const strict = settings.strict && code === 'no-filters-found';
  const base: Diagnostic = {
    code,
    severity: strict || code === 'file-too-large' ? 'error' : 'warning',
    message: notice.message,
    start: 0,
    end: 0,
  };
  const d = applyRule(base, settings.config.rules);
  if (d === undefined) return;
  const severity = strict ? 'error' : d.severity;
  outcome.findings.push({
    file: notice.label,
    line: 1,
    column: 1,
    kind: 'file',
    code: d.code,
    severity,
    message: d.message,
    start: 0,
    end: 0,
  });
  if (settings.format === 'pretty' && !(settings.quiet && severity !== 'error'))
    outcome.frames.push(noticeLine(notice.label, severity, d.code, d.message));
}

function findingOf(item: ItemToLint, d: Diagnostic): LintFinding {
  const { entry } = item;
  return {
    file: item.label,
    line: entry.line,
    column: entry.column + d.start,
    kind: entry.kind,
    ...(entry.name === undefined ? {} : { name: entry.name }),
    code: d.code,
    severity: d.severity,
    message: d.message,
    start: d.start,
    end: d.end,
    ...(d.suggestion === undefined ? {} : { suggestion: d.suggestion }),
  };
}
