// Rewrites test/durations.json, the durations the test sequencer
// (test/support/sequencer.ts) orders a fresh clone's files by, from what the
// last vitest run measured (.tmp/test-durations.json, written by the
// sequencer's DurationsReporter on every run): the files it ran take their
// new durations (seconds), the files it did not run keep theirs, and entries
// whose file no longer exists are dropped. A run of a few files updates those
// few.
//
//   npm run test:durations [-- --report <file> --out <file> --root <dir>]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { report: { type: 'string' }, out: { type: 'string' }, root: { type: 'string' } },
});
const root = values.root ?? fileURLToPath(new URL('..', import.meta.url));
const reportPath = values.report ?? join(root, '.tmp', 'test-durations.json');
const outPath = values.out ?? join(root, 'test', 'durations.json');

const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const previous = existsSync(outPath) ? (JSON.parse(readFileSync(outPath, 'utf8')).files ?? {}) : {};
const files = { ...previous };
let updated = 0;
for (const [path, seconds] of Object.entries(report.files ?? {})) {
  if (typeof seconds !== 'number') continue;
  files[path] = seconds;
  updated++;
}
const kept = Object.fromEntries(
  Object.entries(files)
    .filter(([path]) => existsSync(join(root, path)))
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(
  outPath,
  `${JSON.stringify({ about: 'Seconds per test file, longest started first (test/support/sequencer.ts); npm run test:durations rewrites it.', files: kept }, null, 2)}\n`,
);
console.log(`${relative(root, outPath)}: ${updated} durations from ${relative(root, reportPath)}, ${Object.keys(kept).length} files`);
