// `npm run bench`: runs every bench/*.bench.mjs in its own process (so one
// benchmark's JIT state cannot colour another's) and assembles
// bench/RESULTS.md from the sections they write. `node bench/run.mjs parse`
// runs only the benchmarks whose file name contains "parse".
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { machineLine } from './harness.mjs';

const here = new URL('./', import.meta.url);
const only = process.argv[2];
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  // The scale, open-loop load and million benchmarks seed a million rows: only `npm run bench:scale`,
  // `npm run bench:load` and `npm run bench:million` (or `node bench/run.mjs scale` / `load-open` / `million`) run them.
  // `npm run bench:shards` (node bench/run.mjs shards) starts four clusters and seeds a million rows twice.
  .filter((f) => only !== undefined || !f.startsWith('shards.'))
  .filter((f) =>
    only === undefined ? !f.startsWith('scale.') && !f.startsWith('load-open.') && !f.startsWith('million.') : f.includes(only),
  )
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const r = spawnSync(process.execPath, ['--expose-gc', new URL(file, here).pathname], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.error(`bench: ${file} exited with ${r.status}`);
  }
}
const resultsDir = new URL('./results/', here);
const sections = existsSync(resultsDir)
  ? readdirSync(resultsDir)
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => readFileSync(new URL(f, resultsDir), 'utf8'))
  : [];
const header = [
  '# Benchmark results',
  '',
  'Written by `npm run bench` (each section is rewritten when its benchmark runs).',
  `Last assembled: ${new Date().toISOString().slice(0, 10)} on ${machineLine()}.`,
  'Every figure is a median of several samples; ratios compare subjects measured in the same run.',
  '',
].join('\n');
writeFileSync(new URL('./RESULTS.md', here), header + '\n' + sections.join('\n'));
console.log(`\nbench: wrote bench/RESULTS.md (${sections.length} sections)`);
process.exitCode = failed ? 1 : 0;
