/**
 * Lint findings as data, and their machine-readable renderings: JSON
 * objects and SARIF 2.1.0 for code-scanning UIs.
 */
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

/**
 * One diagnostic located in a file of saved filters.
 *
 * @example
 * const finding: LintFinding = {
 *   file: 'saved.txt', line: 3, column: 8, kind: 'filter', code: 'unknown-operator',
 *   severity: 'error', message: 'unknown operator "Equals"; did you mean "Equal"?', start: 7, end: 13,
 * };
 */
export interface LintFinding {
  readonly file: string;
  /** 1-based file line where the filter or sort text starts. */
  readonly line: number;
  /** 1-based file column of the diagnostic's start (exact for text files; for JSON, counted in the decoded string). */
  readonly column: number;
  /** What the finding is about: a filter, a sort, or the file as a whole (`no-filters-found`). */
  readonly kind: 'filter' | 'sort' | 'file';
  /** The saved entry's name, when the file gives one. */
  readonly name?: string;
  readonly code: DiagnosticCode;
  readonly severity: Diagnostic['severity'];
  readonly message: string;
  /** Offsets into the filter or sort text (UTF-16). */
  readonly start: number;
  readonly end: number;
  readonly suggestion?: string;
}

/**
 * The JSON object `wepql lint --format json` prints for a finding.
 *
 * @example
 * findingToJson(finding); // { file: 'saved.txt', line: 3, kind: 'filter', code: 'unknown-field', … }
 */
export function findingToJson(f: LintFinding): Record<string, unknown> {
  return {
    file: f.file,
    line: f.line,
    column: f.column,
    kind: f.kind,
    ...(f.name === undefined ? {} : { name: f.name }),
    code: f.code,
    severity: f.severity,
    message: f.message,
    start: f.start,
    end: f.end,
    ...(f.suggestion === undefined ? {} : { suggestion: f.suggestion }),
  };
}

const SARIF_LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/**
 * A SARIF 2.1.0 log of findings, with one rule per diagnostic code used.
 * `docsUri` (the web address of docs/diagnostics.md) becomes the tool's
 * `informationUri` and each rule's `helpUri`; without it both are left out
 * rather than pointing at an address nobody confirmed.
 *
 * @example
 * JSON.stringify(toSarif(findings, { version: '0.1.0' }));
 */
export function toSarif(
  findings: readonly LintFinding[],
  tool: { readonly version: string; readonly docsUri?: string },
): Record<string, unknown> {
  const codes = [...new Set(findings.map((f) => f.code))].sort();
  const ruleIndex = new Map(codes.map((c, i) => [c, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'wepql',
            version: tool.version,
            ...(tool.docsUri === undefined ? {} : { informationUri: tool.docsUri }),
            rules: codes.map((code) => ({
              id: code,
              name: code,
              shortDescription: { text: DIAGNOSTIC_CODES[code].summary },
              ...(tool.docsUri === undefined ? {} : { helpUri: `${tool.docsUri}#${code}` }),
              defaultConfiguration: { level: SARIF_LEVEL[DIAGNOSTIC_CODES[code].severity] },
            })),
          },
        },
        results: findings.map((f) => ({
          ruleId: f.code,
          ruleIndex: ruleIndex.get(f.code),
          level: SARIF_LEVEL[f.severity],
          message: { text: f.suggestion === undefined ? f.message : `${f.message} (suggestion: ${f.suggestion})` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: f.file === '-' ? 'stdin' : f.file.replace(/\\/g, '/') },
                region: { startLine: f.line, startColumn: f.column, endColumn: f.column + Math.max(1, f.end - f.start) },
              },
            },
          ],
        })),
      },
    ],
  };
}
