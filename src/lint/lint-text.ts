/**
 * Linting one saved filter or sort: syntax, typing (with a schema) and the
 * semantic rules in one list, and the safe rewrite `--fix` applies.
 */
import type { Diagnostic, TextEdit } from '../diagnostics/diagnostic.js';
import type { Limits } from '../diagnostics/limits.js';
import { formatFilter, formatSort } from '../print/format.js';
import type { Policy } from '../policy/policy.js';
import { policyLimits } from '../policy/policy.js';
import { checkFilterPolicy, checkSortPolicy } from '../policy/check-policy.js';
import type { Schema } from '../schema/schema.js';
import { parseFilter } from '../syntax/parse-filter.js';
import { parseSort } from '../syntax/parse-sort.js';
import { analyzeFilter, analyzeSort } from '../validate/analyze.js';
import { evolutionDiagnostics, hasDeprecations, renameAwareSchema } from './schema-evolution.js';
import { lintFilter } from './semantic-rules.js';

/**
 * Options for linting one text.
 *
 * @example
 * lintText('Gender.Equal(1)', 'filter', { schema: employeeSchema, limits: { maxConditions: 10 } });
 */
export interface LintTextOptions {
  /** Without a schema only syntax is checked (no typing, no semantic rules). */
  readonly schema?: Schema;
  /**
   * The schema the saved text was written for. With it, fields removed,
   * renamed, retyped or whose nullability changed since are reported (a
   * rename with a safe fix). Needs `schema`.
   */
  readonly previousSchema?: Schema;
  readonly caseSensitive?: boolean;
  readonly limits?: Partial<Limits>;
  /** An endpoint's policy (`definePolicy`): its refusals are reported and its caps tighten `limits`. Needs `schema`. */
  readonly policy?: Policy;
}

/**
 * Whether a text is a filter or a sort.
 *
 * @example
 * lintText('LastName=Asc;LastName=Desc', 'sort').map((d) => d.code); // ['duplicate-sort-field']
 */
export type LintKind = 'filter' | 'sort';

function byPosition(a: Diagnostic, b: Diagnostic): number {
  return a.start - b.start || a.end - b.end;
}

/**
 * Every finding for one filter or sort text, sorted by position.
 *
 * @example
 * lintText('Gender.Equal(1);Gender.Equal(1)', 'filter', { schema: employeeSchema }).map((d) => d.code);
 * // ['duplicate-condition']
 */
export function lintText(text: string, kind: LintKind, options: LintTextOptions = {}): Diagnostic[] {
  const { schema, previousSchema, policy } = options;
  const limits = policyLimits(options.limits, policy);
  if (schema === undefined) {
    const parsed =
      kind === 'sort' ? parseSort(text, limits === undefined ? {} : { limits }) : parseFilter(text, limits === undefined ? {} : { limits });
    return [...parsed.diagnostics].sort(byPosition);
  }
  // Under a previous schema, old names of renamed fields resolve so the rest of the text is still checked.
  const typing = previousSchema === undefined ? schema : renameAwareSchema(previousSchema, schema);
  // Options built without spreads, and lists joined by loops: a run lints thousands of texts with this code
  // before V8 optimizes it, where each spread is a slow copy (bench/results/startup.md).
  const analyzeOptions = limits === undefined ? { schema: typing } : { schema: typing, limits };
  const analyzed = kind === 'sort' ? analyzeSort(text, analyzeOptions) : analyzeFilter(text, analyzeOptions);
  // The parser already attaches the safe fixes (empty clauses, single-child groups, …).
  let diagnostics = analyzed.diagnostics.slice();
  if (previousSchema !== undefined || hasDeprecations(schema)) {
    const evolution = evolutionDiagnostics(
      analyzed.ast,
      previousSchema === undefined ? { schema, analyzed: diagnostics } : { schema, previousSchema, analyzed: diagnostics },
    );
    // A removed field is reported as such, not as an unknown one.
    let removed: Set<string> | undefined;
    for (const d of evolution) if (d.code === 'field-removed') (removed ??= new Set()).add(`${d.start}:${d.end}`);
    if (removed !== undefined) diagnostics = diagnostics.filter((d) => d.code !== 'unknown-field' || !removed.has(`${d.start}:${d.end}`));
    append(diagnostics, evolution);
  }
  if (analyzed.value !== undefined && policy !== undefined) {
    if (analyzed.value.kind === 'typed-filter') append(diagnostics, checkFilterPolicy(analyzed.value, policy));
    else append(diagnostics, checkSortPolicy(analyzed.value, policy));
  }
  if (analyzed.value !== undefined && analyzed.value.kind === 'typed-filter') {
    append(diagnostics, lintFilter(analyzed.value, { text, caseSensitive: options.caseSensitive === true }));
  }
  return diagnostics.sort(byPosition);
}

function append(to: Diagnostic[], more: readonly Diagnostic[]): void {
  for (let i = 0; i < more.length; i++) to.push(more[i]!);
}

/**
 * The text with only the rename fixes applied, in place: every other byte
 * stays as written. Returns the text itself when nothing was renamed.
 *
 * @example
 * renameFields('surname.Equal(Smith)', 'filter', { schema: next, previousSchema: previous }); // 'LastName.Equal(Smith)'
 */
export function renameFields(text: string, kind: LintKind, options: LintTextOptions): string {
  if (options.schema === undefined || options.previousSchema === undefined) return text;
  return withRenames(text, lintText(text, kind, options));
}

/**
 * `renameFields` for a caller that has the text's findings already
 * (`lintText` with a previous schema): the rename fixes among them applied
 * in place.
 *
 * @example
 * withRenames('surname.Equal(Smith)', lintText('surname.Equal(Smith)', 'filter', options)); // 'LastName.Equal(Smith)'
 */
export function withRenames(text: string, findings: readonly Diagnostic[]): string {
  const edits = findings.filter((d) => d.code === 'field-renamed').flatMap((d) => d.fix ?? []);
  return edits.length === 0 ? text : applyEdits(text, edits);
}

/** Applies non-overlapping edits (later ones that overlap an earlier one are skipped). */
function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) continue;
    out += text.slice(at, e.start) + e.newText;
    at = e.end;
  }
  return out + text.slice(at);
}

/**
 * The text `--fix` writes: every finding's safe fix applied, then the
 * canonical form. Returns undefined — leave the text as it is — when some
 * finding has no safe fix or the result would still have errors.
 *
 * @example
 * fixText('gender.equal(1);;', 'filter', { schema: employeeSchema }); // 'Gender.Equal(1)'
 */
export function fixText(text: string, kind: LintKind, options: LintTextOptions = {}): string | undefined {
  return fixTextBy(text, kind, options, (t) => lintText(t, kind, options));
}

/**
 * `fixText` with the linting supplied: `lint` must answer what `lintText`
 * with the same kind and options answers (a run that lints many texts
 * answers from its cache, so a text it has linted is not linted again).
 * Each text on the way is linted once.
 *
 * @example
 * fixTextBy('gender.equal(1);;', 'filter', options, (t) => cached(t)); // 'Gender.Equal(1)'
 */
export function fixTextBy(
  text: string,
  kind: LintKind,
  options: LintTextOptions,
  lint: (text: string) => readonly Diagnostic[],
): string | undefined {
  let current = text;
  let findings = lint(current);
  for (let round = 0; round < 4 && findings.length > 0; round++) {
    // A finding without a safe fix leaves the text as the author wrote it.
    if (findings.some((d) => d.fix === undefined || d.fix.length === 0)) return undefined;
    const next = applyEdits(
      current,
      findings.flatMap((d) => d.fix ?? []),
    );
    if (next === current) break;
    current = next;
    findings = lint(current);
  }
  // What is left unfixed after the rounds keeps the text as it was.
  if (findings.length > 0) return undefined;
  const printOptions = {
    ...(options.schema === undefined ? {} : { schema: options.schema }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  };
  try {
    return kind === 'filter' ? formatFilter(current, printOptions) : formatSort(current, printOptions);
  } catch {
    return undefined;
  }
}
