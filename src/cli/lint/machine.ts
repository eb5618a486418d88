/**
 * `wepql lint --format json|sarif`: the findings for machines on standard
 * output (a JSON array, or a SARIF 2.1.0 log for code-scanning services),
 * the summary for people on standard error.
 */
import { findingToJson, toSarif, type LintFinding } from '../../lint/report.js';
import { diagnosticsDocsUri, packageVersion } from '../package-info.js';

/**
 * Writes the findings as JSON or SARIF, and `summary` (with the fixable line) to standard error.
 *
 * @example
 * writeMachineReport('sarif', findings, summary);
 */
export function writeMachineReport(format: 'json' | 'sarif', findings: readonly LintFinding[], summary: string): void {
  const body = format === 'json' ? findings.map(findingToJson) : toSarif(findings, sarifTool());
  process.stdout.write(JSON.stringify(body, null, 2) + '\n');
  process.stderr.write(summary);
}

/** The tool's version and where its rules are documented, for the SARIF log. */
function sarifTool(): { version: string; docsUri?: string } {
  const docsUri = diagnosticsDocsUri();
  return { version: packageVersion(), ...(docsUri === undefined ? {} : { docsUri }) };
}
