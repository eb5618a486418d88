/**
 * `wepql lint [--schema FILE] [--policy FILE] [--format pretty|json|sarif] [--fix] [--case-sensitive] FILE...`
 *
 * Checks saved filters and sorts like a compiler checks code. Exit 0 when
 * there are no errors (warnings allowed), 1 when there is any error, 2 on a
 * usage error (unknown flag, unreadable file, invalid schema file).
 */
import { renderCodeFrame } from '../../diagnostics/code-frame.js';
import { lintText, fixText } from '../../lint/lint-text.js';
import { findingToJson, toSarif, type LintFinding } from '../../lint/report.js';
import type { Schema } from '../../schema/schema.js';
import { parseArgs, UsageError } from '../args.js';
import { loadPolicyFile } from '../policy-file.js';
import { readInput, loadSchemaFile, writeFileText } from '../io.js';
import { readSavedFilters, rewriteSavedFile, SavedFileError, type SavedEntry, type SavedFile } from '../saved-filters.js';

const VERSION = '0.1.0';

/** Runs `wepql lint`. */
export async function run(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { values: ['--schema', '--policy', '--format'], switches: ['--fix', '--case-sensitive'] });
  const format = args.values.get('--format') ?? 'pretty';
  if (format !== 'pretty' && format !== 'json' && format !== 'sarif') {
    throw new UsageError(`--format must be pretty, json or sarif, got ${JSON.stringify(format)}`);
  }
  if (args.positionals.length === 0) throw new UsageError('name at least one FILE (- reads standard input)');
  const fix = args.switches.has('--fix');
  if (fix && args.positionals.includes('-')) throw new UsageError('--fix cannot rewrite standard input; name files');
  const schemaPath = args.values.get('--schema');
  const schema: Schema | undefined = schemaPath === undefined ? undefined : await loadSchemaFile(schemaPath);
  const policyPath = args.values.get('--policy');
  const policy = policyPath === undefined ? undefined : await loadPolicyFile(policyPath, schema);
  const options = { ...(schema === undefined ? {} : { schema }), ...(policy === undefined ? {} : { policy }), caseSensitive: args.switches.has('--case-sensitive') };

  // Read every file first so that a usage problem in any file stops the run before output.
  const files: SavedFile[] = [];
  for (const path of args.positionals) {
    const content = await readInput(path);
    try {
      files.push(readSavedFilters(path, content));
    } catch (e) {
      if (e instanceof SavedFileError) throw new UsageError(e.message);
      throw e;
    }
  }

  const findings: LintFinding[] = [];
  const frames: string[] = [];
  let checked = 0;
  let fixedCount = 0;
  for (const file of files) {
    const replacements = new Map<SavedEntry, string>();
    for (const entry of file.entries) {
      checked++;
      let text = entry.text;
      if (fix) {
        const fixed = fixText(text, entry.kind, options);
        if (fixed !== undefined && fixed !== text) {
          replacements.set(entry, fixed);
          text = fixed;
          fixedCount++;
        }
      }
      for (const d of lintText(text, entry.kind, options)) {
        const finding: LintFinding = {
          file: file.path,
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
        findings.push(finding);
        if (format === 'pretty') {
          const frame = renderCodeFrame(text, d, { location: file.path, lineOffset: entry.line - 1 });
          // The frame counts columns in the filter text; a JSON entry starts further right in its file line.
          frames.push(entry.column === 1 ? frame : frame.replace(/^([^\n]*?):(\d+):(\d+):/, (_m, loc, line) => `${loc}:${line}:${finding.column}:`));
        }
      }
    }
    if (replacements.size > 0) {
      const next = rewriteSavedFile(file, replacements);
      if (next !== file.content) await writeFileText(file.path, next);
    }
  }

  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  const infos = findings.length - errors - warnings;
  const summary =
    `${files.length} file${files.length === 1 ? '' : 's'}, ${checked} filter${checked === 1 ? '' : 's'} and sorts checked: ` +
    `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}, ${infos} info` +
    (fix ? `, ${fixedCount} fixed` : '') +
    (schema === undefined ? ' (no --schema: syntax only)' : '');

  if (format === 'pretty') {
    if (frames.length > 0) process.stdout.write(frames.join('\n\n') + '\n\n');
    process.stdout.write(summary + '\n');
  } else if (format === 'json') {
    process.stdout.write(JSON.stringify(findings.map(findingToJson), null, 2) + '\n');
    process.stderr.write(summary + '\n');
  } else {
    process.stdout.write(JSON.stringify(toSarif(findings, { version: VERSION }), null, 2) + '\n');
    process.stderr.write(summary + '\n');
  }
  return errors > 0 ? 1 : 0;
}
