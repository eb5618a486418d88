// Linting 10,000 saved filters (issue target: under one second). Measured
// in process (lintText over every filter) and end to end (the built CLI on a
// file, process start included), beside parse-only and JSON.parse of the
// same texts as references. The project run is the scenario: 10,000
// filters across 1,000 files found through wepql.config.json, linted against
// a schema and the schema before a rename (bench/lint-fixture.mjs).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { lintText, parseFilter, employeeSchema } from '../dist/index.js';
import { medianMs, fmt, machineLine, writeSection } from './harness.mjs';
import { writeLintProject } from './lint-fixture.mjs';

let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const names = ['Smith', 'Jones', "O''Brien", 'García', 'Łukasz', 'Ng', 'Dubois'];
const templates = [
  () => `LastName.StartsWith(${pick(names)});Or(Gender.Equal(1);Gender.Equal(2))`,
  () => `RowStatus.NotEqual(3);BirthOn.GreaterThanOrEqual(19${10 + Math.floor(rand() * 89)}-01-01)`,
  () => `Gender.InArray(${[1, 2, 3, 1].slice(0, 1 + Math.floor(rand() * 4)).join(',')})`,
  () => `EmployeeNumber.GreaterThan(${Math.floor(rand() * 900)});EmployeeNumber.LessThan(${Math.floor(rand() * 900)})`,
  () => `'${pick(['D', 'Sm', 'An'])}'.StartsWithInFields(FirstName,LastName);EePortal.Equal(true)`,
  () =>
    `Or(And(FirstName.Contains(an);LastName.EndsWith(son));WorkEmail.EndsWith(@example.com));ClientId.Equal(${1 + Math.floor(rand() * 2)})`,
  () => `lastname.equal( ${pick(names)} ) ;; gender.isnull()`,
  () => `Salary.GreaterThan(1000)`,
  () => `FirstName.Equals(${pick(names)})`,
];
const filters = Array.from({ length: 10_000 }, () => pick(templates)());
const dir = mkdtempSync(join(tmpdir(), 'wepql-bench-lint-'));
const file = join(dir, 'saved.txt');
writeFileSync(file, filters.join('\n') + '\n');
const json = JSON.stringify(filters.map((f) => ({ filter: f })));

let findings = 0;
const lintMs = medianMs(() => {
  findings = 0;
  for (const f of filters) findings += lintText(f, 'filter', { schema: employeeSchema }).length;
  return findings;
}, 7);
const parseMs = medianMs(() => {
  let n = 0;
  for (const f of filters) n += parseFilter(f).diagnostics.length;
  return n;
}, 7);
const jsonMs = medianMs(() => JSON.parse(json), 7);
const cli = new URL('../dist/cli/main.js', import.meta.url).pathname;
const cliMs = medianMs(
  () =>
    spawnSync(process.execPath, [cli, 'lint', '--schema', 'schemas/employee.json', '--format', 'json', file], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    }).status,
  3,
);
const nodeStartMs = medianMs(() => spawnSync(process.execPath, ['-e', '0']).status, 3);
const project = mkdtempSync(join(tmpdir(), 'wepql-bench-lint-project-'));
const projectFilters = writeLintProject(project);
// The same texts in one file, with the same schemas: separates the cost of many files and a config from linting.
const projectTexts = join(project, 'all-filters.txt');
{
  const { readdirSync, readFileSync } = await import('node:fs');
  const texts = [];
  for (const team of readdirSync(join(project, 'views')).sort()) {
    for (const f of readdirSync(join(project, 'views', team)).sort())
      for (const v of JSON.parse(readFileSync(join(project, 'views', team, f), 'utf8'))) texts.push(v.filter);
  }
  writeFileSync(projectTexts, texts.join('\n') + '\n');
}
const oneFileMs = medianMs(
  () =>
    spawnSync(
      process.execPath,
      [cli, 'lint', '--no-config', '--schema', 'schemas/v2.json', '--previous-schema', 'schemas/v1.json', '--format', 'json', projectTexts],
      {
        cwd: project,
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      },
    ).status,
  5,
);
let projectSummary = '';
const projectMs = medianMs(() => {
  const r = spawnSync(process.execPath, [cli, 'lint', '--format', 'json'], { cwd: project, encoding: 'utf8', maxBuffer: 1 << 28 });
  // The summary line (`N files, M filters checked: …`), not the fixable line after it.
  projectSummary = r.stderr.split('\n').find((line) => / checked: /.test(line)) ?? r.stderr.trim();
  return r.status;
}, 5);

const rows = [
  ['`lintText` × 10,000 (parse + validate + semantic rules)', lintMs],
  ['`parseFilter` × 10,000 (reference: syntax only)', parseMs],
  ['`JSON.parse` of the same 10,000 entries as JSON (reference)', jsonMs],
  ['`wepql lint --format json` on the file, end to end', cliMs],
  [
    `\`wepql lint --format json\` on 1,000 files (${fmt(projectFilters)} filters) with wepql.config.json and a previous schema, end to end`,
    projectMs,
  ],
  ['the same 10,000 texts in one file, same schemas, no config (reference for the project run)', oneFileMs],
  ['`node -e 0` (reference: process start alone)', nodeStartMs],
];
const md = [
  '## Linting 10,000 saved filters',
  '',
  `${machineLine()}; ${new Date().toISOString().slice(0, 10)}; load average ${loadavg()[0].toFixed(1)} at the end of the run. ${fmt(findings)} findings in the set (a mix of clean filters, warnings and errors).`,
  'Target: under one second for 10,000 filters.',
  '',
  '| what | median ms | vs lintText |',
  '|---|---:|---:|',
  ...rows.map(([name, ms]) => `| ${name} | ${fmt(ms, 1)} | ${(ms / lintMs).toFixed(2)}× |`),
  '',
  `Per filter: ${fmt((lintMs * 1000) / filters.length, 1)} µs in process. Target met: ${cliMs < 1000 ? 'yes' : 'no'} (CLI end to end ${fmt(cliMs)} ms).`,
  `Project run: ${projectSummary}. Target met: ${projectMs < 1000 ? 'yes' : 'no'} (${fmt(projectMs)} ms; ${(projectMs / oneFileMs).toFixed(2)}× the same texts in one file, ${(projectMs / nodeStartMs).toFixed(1)}× a bare process start).`,
].join('\n');
console.log(md);
writeSection('lint', md);
