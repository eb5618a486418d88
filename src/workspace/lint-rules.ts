/**
 * What a project's settings make of a text's findings, for `wepql lint` and
 * the language server alike: the config's `rules` (a severity per code,
 * `off` drops it), the `overrides` whose globs match the file, and the
 * entry's own `wepql-disable` (a `# wepql-disable-next-line` comment or a
 * `"wepql-disable"` member). One module, so that the editor and the command
 * line never disagree about what is reported.
 */
import { relative, sep } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { LintConfig, RuleSetting } from './config.js';
import type { SavedEntry } from './saved-filters.js';

/** A code's severity setting, by code (`off` drops the finding). */
export type RuleSettings = LintConfig['rules'];

/**
 * A finding under the rules: `undefined` when its code is `off`, otherwise
 * the finding with the severity the rules give its code.
 *
 * @example
 * applyRule(d, { 'implicit-direction': 'off' }); // undefined for that code, d for others
 */
export function applyRule(d: Diagnostic, rules: RuleSettings): Diagnostic | undefined {
  if (rules === undefined || !Object.hasOwn(rules, d.code)) return d;
  const setting = rules[d.code]!;
  if (setting === 'off') return undefined;
  return setting === d.severity ? d : { ...d, severity: setting };
}

/**
 * The rules of each file under a config: its `rules`, then those of every
 * `overrides` entry whose `files` globs match the file's path relative to
 * the config's directory (later entries win, as in ESLint). Standard input
 * (`-`) and a file of unknown path get the config's `rules`.
 *
 * @example
 * const rulesOf = fileRules(config);
 * rulesOf('/repo/views/legacy/a.json'); // config.rules with the legacy override applied
 */
export function fileRules(config: LintConfig, cwd: string = process.cwd()): (abs: string | undefined) => RuleSettings {
  const overrides = config.overrides ?? [];
  if (overrides.length === 0) return () => config.rules;
  const base = config.base ?? cwd;
  const cache = new Map<string, RuleSettings>();
  return (abs) => {
    if (abs === undefined || abs === '-') return config.rules;
    let rules = cache.get(abs);
    if (rules === undefined) {
      const rel = relative(base, abs).split(sep).join('/');
      const merged = Object.assign(Object.create(null) as Record<string, RuleSetting>, config.rules);
      for (const o of overrides) if (o.files.some((glob) => glob.matches(rel))) Object.assign(merged, o.rules);
      cache.set(abs, (rules = merged));
    }
    return rules;
  };
}

/** Whether the entry silences this code (`wepql-disable` with the code, or `*`). */
function isDisabled(entry: Pick<SavedEntry, 'disable'>, code: string): boolean {
  return entry.disable !== undefined && (entry.disable.includes('*') || entry.disable.includes(code));
}

/**
 * The findings a text's diagnostics come to under the file's rules and the
 * entry's own `wepql-disable`, in the diagnostics' order.
 *
 * @example
 * reportedFindings(lintText(entry.text, entry.kind, options), entry, rulesOf(file));
 */
export function reportedFindings(
  diagnostics: readonly Diagnostic[],
  entry: Pick<SavedEntry, 'disable'>,
  rules: RuleSettings,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const raw of diagnostics) {
    if (isDisabled(entry, raw.code)) continue;
    const d = applyRule(raw, rules);
    if (d !== undefined) out.push(d);
  }
  return out;
}
