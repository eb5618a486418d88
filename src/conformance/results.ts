/**
 * The result of one conformance case, whatever the suite, and the reports
 * made from a run's results: lines like a test runner's, JUnit XML and TAP.
 */

/**
 * One case's outcome. `details` says what was sent and what differed (a
 * failure) or why the case did not run (excluded).
 *
 * @example
 * const r: CaseResult = { suite: 'list-http', name: 'first page', family: 'token-paging', outcome: 'pass', details: [], ms: 4 };
 */
export interface CaseResult {
  readonly suite: string;
  readonly name: string;
  readonly family: string;
  readonly outcome: 'pass' | 'fail' | 'excluded';
  readonly details: readonly string[];
  readonly ms: number;
}

/** The reporters `wepql conformance --reporter` offers. */
export const REPORTERS = ['text', 'junit', 'tap'] as const;

/**
 * A reporter's name.
 *
 * @example
 * const r: Reporter = 'junit';
 */
export type Reporter = (typeof REPORTERS)[number];

/**
 * Counts of a run.
 *
 * @example
 * tally(results); // { pass: 150, fail: 0, excluded: 3 }
 */
export function tally(results: readonly CaseResult[]): Record<CaseResult['outcome'], number> {
  const counts = { pass: 0, fail: 0, excluded: 0 };
  for (const r of results) counts[r.outcome]++;
  return counts;
}

function summary(results: readonly CaseResult[]): string {
  const t = tally(results);
  return `${results.length} cases: ${t.pass} passed, ${t.fail} failed, ${t.excluded} excluded`;
}

/**
 * The report as text: one line per case (`✓`, `✗`, `-` excluded) under
 * its suite, the details of each failure and exclusion indented under it,
 * then the counts.
 *
 * @example
 * process.stdout.write(textReport(results));
 */
export function textReport(results: readonly CaseResult[]): string {
  const lines: string[] = [];
  let suite: string | undefined;
  for (const r of results) {
    if (r.suite !== suite) {
      suite = r.suite;
      lines.push('', suite);
    }
    const mark = r.outcome === 'pass' ? '✓' : r.outcome === 'fail' ? '✗' : '-';
    lines.push(`  ${mark} ${r.family}: ${r.name}${r.outcome === 'excluded' ? ' (excluded)' : ''}`);
    if (r.outcome !== 'pass') for (const d of r.details) lines.push(...d.split('\n').map((l) => `      ${l}`));
  }
  const failed = results.filter((r) => r.outcome === 'fail');
  lines.push('', summary(results));
  if (failed.length > 0) lines.push('failed:', ...failed.map((r) => `  ${r.suite} › ${r.family}: ${r.name}`));
  return `${lines.join('\n').trimStart()}\n`;
}

const xml = (text: string) =>
  text
    // XML 1.0 cannot hold most control characters at all, escaped or not.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The report as JUnit XML: a `<testsuite>` per suite, a `<testcase>` per
 * case, `<failure>` with the details, `<skipped>` for an excluded case.
 *
 * @example
 * writeFileSync('conformance.xml', junitReport(results));
 */
export function junitReport(results: readonly CaseResult[]): string {
  const suites = [...new Set(results.map((r) => r.suite))];
  const t = tally(results);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="wepql conformance" tests="${results.length}" failures="${t.fail}" skipped="${t.excluded}">`,
  ];
  for (const suite of suites) {
    const mine = results.filter((r) => r.suite === suite);
    const s = tally(mine);
    const seconds = (mine.reduce((n, r) => n + r.ms, 0) / 1000).toFixed(3);
    out.push(`  <testsuite name="${xml(suite)}" tests="${mine.length}" failures="${s.fail}" skipped="${s.excluded}" time="${seconds}">`);
    for (const r of mine) {
      const head = `    <testcase classname="${xml(`${suite}.${r.family}`)}" name="${xml(r.name)}" time="${(r.ms / 1000).toFixed(3)}"`;
      if (r.outcome === 'pass') out.push(`${head}/>`);
      else if (r.outcome === 'excluded') out.push(`${head}>`, `      <skipped message="${xml(r.details.join('; '))}"/>`, '    </testcase>');
      else {
        out.push(
          `${head}>`,
          `      <failure message="${xml(r.details[r.details.length - 1] ?? 'failed')}">${xml(r.details.join('\n'))}</failure>`,
          '    </testcase>',
        );
      }
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/**
 * The report as TAP version 14: `ok`/`not ok` per case, `# SKIP` for an
 * excluded case, the details of a failure as a YAML block.
 *
 * @example
 * process.stdout.write(tapReport(results));
 */
export function tapReport(results: readonly CaseResult[]): string {
  const out = ['TAP version 14', `1..${results.length}`];
  results.forEach((r, i) => {
    // A description may not hold a line break, and `#` starts a directive.
    const title = `${r.suite} › ${r.family}: ${r.name}`.replace(/[\r\n]/g, ' ').replace(/#/g, '\\#');
    if (r.outcome === 'pass') out.push(`ok ${i + 1} - ${title}`);
    else if (r.outcome === 'excluded') out.push(`ok ${i + 1} - ${title} # SKIP ${r.details.join('; ').replace(/[\r\n]/g, ' ')}`);
    else {
      out.push(`not ok ${i + 1} - ${title}`, '  ---', '  details: |');
      for (const d of r.details) for (const line of d.split('\n')) out.push(`    ${line}`);
      out.push('  ...');
    }
  });
  out.push(`# ${summary(results)}`);
  return `${out.join('\n')}\n`;
}

/**
 * The report in the named form.
 *
 * @example
 * renderReport('tap', results);
 */
export function renderReport(reporter: Reporter, results: readonly CaseResult[]): string {
  return reporter === 'junit' ? junitReport(results) : reporter === 'tap' ? tapReport(results) : textReport(results);
}
