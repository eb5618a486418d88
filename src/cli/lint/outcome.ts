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
import type { LoadedSource, NoFiltersNotice } from '../../workspace/sources.js';
import { startProgress } from '../progress.js';
import type { KnownFindings, Replay } from './cache.js';
import { fixedText, newFixes, recordFix, type SeverityCounts, type Fixes, type LintOf, potentiallyFixable } from './fixes.js';
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
  /** The pretty format's code frames, in order (empty for json and sarif); a replayed file's as the bytes its cache held. */
  readonly frames: (string | Buffer)[];
  readonly fixes: Fixes;
  /** With `--cache`: each item's findings before the rules, for its text as written (undefined where `--fix` changed it). */
  readonly raw: (readonly Diagnostic[] | undefined)[];
  /** The findings of the files reported from their cached report parts, by severity (they are in no `findings`). */
  readonly replayed: SeverityCounts;
  /** With `--cache` and the pretty format: each linted file's report part, for the cache (`partsOf`). */
  readonly parts: Map<LoadedSource, PartInProgress> | undefined;
}

/** A file's report part as its items are added. */
interface PartInProgress {
  readonly frames: string[];
  readonly counts: SeverityCounts;
  readonly fixable: SeverityCounts;
  filters: number;
  sorts: number;
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
  addInOrder(outcome, inputs, (item) => {
    const result = lintOne(toLint(item));
    progress.tick(1);
    return result;
  });
  progress.done();
  return outcome;
}

/**
 * Records every item's result, and the report part of each file replayed
 * from the cache, in the files' order: a run reports its files in the same
 * order whichever came from the cache.
 *
 * @example
 * addInOrder(outcome, inputs, (item, i) => results[i]);
 */
export function addInOrder(outcome: Outcome, inputs: Inputs, resultOf: (item: Item, index: number) => ItemResult): void {
  const { items, replays } = inputs;
  let r = 0;
  for (let i = 0; i < items.length; i++) {
    for (; r < replays.length && replays[r]!.before === i; r++) addReplay(outcome, replays[r]!.replay);
    addItem(outcome, items[i]!, resultOf(items[i]!, i));
  }
  for (; r < replays.length; r++) addReplay(outcome, replays[r]!.replay);
}

/** A file's cached report part, in place of its items. */
function addReplay(outcome: Outcome, replay: Replay): void {
  if (replay.frames.length > 0) outcome.frames.push(replay.frames);
  addCounts(outcome.replayed, replay.counts);
  addCounts(outcome.fixes.fixable, replay.fixable);
}

function addCounts(to: SeverityCounts, from: SeverityCounts): void {
  to.error += from.error;
  to.warning += from.warning;
  to.info += from.info;
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
  readonly fixable?: SeverityCounts;
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
  const outcome: Outcome = {
    findings: [],
    frames: [],
    fixes: newFixes(),
    raw: [],
    replayed: { error: 0, warning: 0, info: 0 },
    // Report parts are gathered when the run keeps them (a view to keep them under: items.ts).
    parts: inputs.viewOf === undefined ? undefined : new Map(),
  };
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
  if (result.fixable !== undefined) addCounts(outcome.fixes.fixable, result.fixable);
  if (outcome.parts !== undefined && item.file !== undefined) addToPart(outcome.parts, item.file, item, result);
}

function addToPart(parts: Map<LoadedSource, PartInProgress>, file: LoadedSource, item: Item, result: ItemResult): void {
  let part = parts.get(file);
  if (part === undefined) {
    part = { frames: [], counts: { error: 0, warning: 0, info: 0 }, fixable: { error: 0, warning: 0, info: 0 }, filters: 0, sorts: 0 };
    parts.set(file, part);
  }
  for (const frame of result.frames) part.frames.push(frame);
  for (const finding of result.findings) part.counts[finding.severity]++;
  if (result.fixable !== undefined) addCounts(part.fixable, result.fixable);
  if (item.entry.kind === 'filter') part.filters++;
  else part.sorts++;
}

/**
 * Each linted file's report part under the run's view (`inputs.viewOf`;
 * the cache keeps them): its frames joined as the report joins them, and
 * its counts. Empty when the run keeps none.
 *
 * @example
 * const parts = partsOf(outcome, inputs);
 */
export function partsOf(outcome: Outcome, inputs: Pick<Inputs, 'viewOf'>): Map<LoadedSource, Replay> {
  const out = new Map<LoadedSource, Replay>();
  const { viewOf } = inputs;
  if (viewOf === undefined) return out;
  for (const [file, part] of outcome.parts ?? []) {
    out.set(file, {
      view: viewOf(file.candidate.abs),
      frames: part.frames.join('\n\n'),
      counts: part.counts,
      fixable: part.fixable,
      filters: part.filters,
      sorts: part.sorts,
    });
  }
  return out;
}

/**
 * The run's findings by severity: those linted and those of the replayed files.
 *
 * @example
 * const { error, warning } = severityTotals(outcome);
 */
export function severityTotals(outcome: Outcome): SeverityCounts {
  const totals = { ...outcome.replayed };
  for (const f of outcome.findings) totals[f.severity]++;
  return totals;
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
