// Start-up: what a user waits for before the tools answer. Whole processes,
// each paired with `node -e 0` (a bare Node start) in the same round, the
// order rotating from round to round, so that changing machine load falls on
// both sides of every ratio. CPU time and peak memory are the processes' own
// (bench/cpu-at-exit.cjs, preloaded into every process, the reference too);
// wall time is from spawn to exit, or to the first answer for the servers.
//
// WEPQL_BENCH_BASELINE=DIR (a built checkout of another commit) measures
// that tree in the same rounds as this one, for a before/after table;
// WEPQL_BENCH_BASELINE_LABEL names it in the table. WEPQL_BENCH_ROUNDS=N
// caps the rounds of every command (for a quick look on a busy machine);
// WEPQL_BENCH_ONLY=WORD measures only the commands whose name holds WORD.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, machineLine, median, writeSection } from './harness.mjs';
import { writeLintProject } from './lint-fixture.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CPU_AT_EXIT = fileURLToPath(new URL('./cpu-at-exit.cjs', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'wepql-bench-startup-'));
const loadBefore = loadavg()[0];

const trees = [{ label: 'this tree', root: ROOT }];
if (process.env.WEPQL_BENCH_BASELINE) {
  const root = resolve(process.env.WEPQL_BENCH_BASELINE);
  if (!existsSync(join(root, 'dist/cli/main.js')))
    throw new Error(`WEPQL_BENCH_BASELINE: ${root} has no dist/cli/main.js (build it first)`);
  trees.unshift({ label: process.env.WEPQL_BENCH_BASELINE_LABEL ?? 'baseline', root });
}

// One filter in a file of saved filters, as a newcomer's first `wepql lint`.
writeFileSync(join(scratch, 'a.wepql'), 'LastName.StartsWith(Sm);Gender.Equal(1)\n');
// The project of bench/lint-fixture.mjs: 1,000 files of 10 filters, wepql.config.json, a schema and the one before it.
const project = join(scratch, 'project');
const projectFilters = writeLintProject(project);

let cpuFiles = 0;

/**
 * Runs `node [--require cpu-at-exit] ...args` to its exit and resolves to
 * { wallMs, cpuMs, maxRssMiB, answerMs }. `drive(child, answered)` talks to
 * a server: it calls `answered()` when the first answer is in, then makes
 * the process exit.
 */
function runNode(args, { cwd = scratch, env = {}, drive } = {}) {
  const cpuFile = join(scratch, `cpu-${cpuFiles++}.json`);
  return new Promise((done, fail) => {
    const started = performance.now();
    let answerMs;
    const child = spawn(process.execPath, ['--require', CPU_AT_EXIT, ...args], {
      cwd,
      env: { ...process.env, ...env, WEPQL_BENCH_CPU_FILE: cpuFile, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    if (drive === undefined) {
      child.stdin.end();
      child.stdout.resume();
    } else {
      drive(child, () => (answerMs = performance.now() - started)).catch((error) => {
        child.kill('SIGKILL');
        fail(error);
      });
    }
    child.on('error', fail);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0 && code !== 1) return fail(new Error(`node ${args.join(' ')} exited with ${code}: ${stderr}`));
      if (!existsSync(cpuFile)) return fail(new Error(`node ${args.join(' ')} wrote no CPU figure: ${stderr}`));
      const { cpuMs, maxRssKiB } = JSON.parse(readFileSync(cpuFile, 'utf8'));
      rmSync(cpuFile);
      done({ wallMs, cpuMs, maxRssMiB: maxRssKiB / 1024, answerMs });
    });
  });
}

/** LSP framing: a JSON-RPC message with its Content-Length header. */
function frame(message) {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** An editor's first words: `initialize` as soon as the process exists; after the answer, `shutdown` and `exit`. */
async function driveLsp(child, answered) {
  child.stdin.write(frame({ id: 1, method: 'initialize', params: { processId: process.pid, rootUri: null, capabilities: {} } }));
  let out = '';
  await new Promise((done, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (/"id":\s*1\b/.test(out) && /"capabilities"/.test(out)) done();
    });
    child.on('close', () => fail(new Error(`the language server exited before answering initialize: ${out}`)));
  });
  answered();
  child.stdin.write(frame({ id: 2, method: 'shutdown' }));
  child.stdin.end(frame({ method: 'exit' }));
}

/** A client's first request to the reference server once it says where it listens; then SIGTERM (it exits 0). */
async function driveServer(child, answered) {
  child.stdin.end();
  let out = '';
  const url = await new Promise((done, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) done(m[1]);
    });
    child.on('close', () => fail(new Error(`the reference server exited before listening: ${out}`)));
  });
  const response = await fetch(`${url}/api/public/clients/1/employees?limit=5`, { headers: { authorization: 'Bearer bench-token' } });
  if (response.status !== 200) throw new Error(`the reference server answered ${response.status}`);
  await response.arrayBuffer();
  answered();
  child.kill('SIGTERM');
}

const cli = (tree) => join(tree.root, 'dist/cli/main.js');
const cacheFor = (tree, what) => join(scratch, `${what}-${trees.indexOf(tree)}.wepqlcache`);
let touches = 0;
/** Gives 10 of the project's files a trailing newline more, or one less: a run with --cache finds them changed. */
function touchTenFiles() {
  const grow = touches++ % 2 === 0;
  for (let f = 0; f < 10; f++) {
    const file = join(project, 'views', `team-${f % 20}`, `views-${f}.json`);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, grow ? `${text}\n` : text.replace(/\n$/, ''));
  }
}
let edits = 0;
/**
 * Edits one filter in each of 10 of the project's files: its first filter gains a condition that is new on
 * every run (a run with --cache lints those 10 texts; the files' other texts keep their cached findings).
 */
function editTenFilters() {
  const round = edits++;
  for (let f = 10; f < 20; f++) {
    const file = join(project, 'views', `team-${f}`, `views-${f}.json`);
    const views = JSON.parse(readFileSync(file, 'utf8'));
    const first = views[0].filter.replace(/;Id\.NotEqual\(\d+\)$/, '');
    views[0].filter = `${first};Id.NotEqual(${round})`;
    writeFileSync(file, JSON.stringify(views, null, 2) + '\n');
  }
}
const subjects = [
  { name: '`wepql --version`', rounds: 15, args: (t) => [cli(t), '--version'], cpuTarget: 1.3 },
  {
    name: '`wepql lint` on one file (one filter, `--schema`)',
    rounds: 15,
    args: (t) => [cli(t), 'lint', '--schema', join(t.root, 'schemas/employee.json'), 'a.wepql'],
    cpuTarget: 2,
  },
  {
    name: `\`wepql lint\` on 1,000 files (${fmt(projectFilters)} filters; wepql.config.json, a previous schema)`,
    rounds: 7,
    args: (t) => [cli(t), 'lint'],
    cwd: project,
    wallTargetMs: 500,
  },
  {
    // The same run held to one thread: what the worker threads add or save, in the same rounds.
    name: `\`wepql lint\` on 1,000 files, one thread (\`WEPQL_LINT_THREADS=1\`)`,
    rounds: 7,
    args: (t) => [cli(t), 'lint'],
    cwd: project,
    env: { WEPQL_LINT_THREADS: '1' },
  },
  {
    // --cache (new in this tree: a baseline tree is not run): the warm-up run writes the cache, every round reads it.
    name: '`wepql lint --cache` on the 1,000 files, none changed since the last run',
    rounds: 7,
    args: (t) => [cli(t), 'lint', '--cache', '--cache-location', cacheFor(t, 'unchanged')],
    cwd: project,
    wallTargetMs: 500,
    thisTreeOnly: true,
  },
  {
    // Before each run 10 of the files (1%) gain or lose a trailing newline: their 100 filters are linted again and the cache rewritten.
    name: '`wepql lint --cache` on the 1,000 files, 10 of them changed since the last run',
    rounds: 7,
    args: (t) => [cli(t), 'lint', '--cache', '--cache-location', cacheFor(t, 'changed')],
    before: touchTenFiles,
    cwd: project,
    wallTargetMs: 500,
    thisTreeOnly: true,
  },
  {
    // Before each run one filter of each of 10 other files is edited: those 10 texts are linted, the rest come from the cache.
    name: '`wepql lint --cache` on the 1,000 files, one filter edited in 10 of them since the last run',
    rounds: 7,
    args: (t) => [cli(t), 'lint', '--cache', '--cache-location', cacheFor(t, 'edited')],
    before: editTenFilters,
    cwd: project,
    wallTargetMs: 500,
    thisTreeOnly: true,
  },
  {
    name: '`wepql lsp` to its `initialize` answer',
    rounds: 11,
    args: (t) => [cli(t), 'lsp', '--stdio'],
    drive: driveLsp,
    answerTargetMs: 150,
  },
  {
    name: 'reference server to its first answer (`GET …/employees?limit=5`)',
    rounds: 11,
    args: (t) => [join(t.root, 'dist/reference-server/main.js')],
    env: { PORT: '0', WEPQL_DEMO_TOKEN: 'bench-token', WEPQL_SECRET: 'bench-secret-bench-secret' },
    drive: driveServer,
  },
];

const cap = Number(process.env.WEPQL_BENCH_ROUNDS) || Infinity;
for (const subject of subjects) subject.rounds = Math.min(subject.rounds, cap);
const only = process.env.WEPQL_BENCH_ONLY;
if (only !== undefined) subjects.splice(0, subjects.length, ...subjects.filter((s) => s.name.includes(only)));

const reference = { label: '`node -e 0` (reference)', args: ['-e', '0'] };
const sections = [];
for (const subject of subjects) {
  const measured = subject.thisTreeOnly ? trees.filter((t) => t.root === ROOT) : trees;
  // Warm the file cache once for each tree, outside the figures.
  for (const tree of measured) await runNode(subject.args(tree), { cwd: subject.cwd, env: subject.env, drive: subject.drive });
  const runs = [reference, ...measured].map(() => []);
  for (let round = 0; round < subject.rounds; round++) {
    const order = [...runs.keys()];
    for (let k = 0; k < round % order.length; k++) order.push(order.shift());
    for (const i of order) {
      if (i !== 0) subject.before?.();
      runs[i][round] =
        i === 0
          ? await runNode(reference.args)
          : await runNode(subject.args(measured[i - 1]), { cwd: subject.cwd, env: subject.env, drive: subject.drive });
    }
  }
  sections.push({ subject, runs, measured });
  console.log(`${subject.name}: done`);
}
rmSync(scratch, { recursive: true, force: true });

const ratio = (runs, i, key) => median(runs[i].map((r, round) => r[key] / runs[0][round][key]));
const lines = [
  '## startup: whole-process time of the commands',
  '',
  `${machineLine()}; ${new Date().toISOString().slice(0, 10)}; 1-minute load average ${loadBefore.toFixed(1)} before and ${loadavg()[0].toFixed(1)} after.`,
  'Each command runs as a new process (`node dist/cli/main.js …`, `node dist/reference-server/main.js`), paired in every round with `node -e 0`',
  '(the order rotating from round to round); medians of the rounds, ratios are medians of the per-round ratios. CPU is user + system time of',
  'the process itself; wall time is spawn to exit, and for the servers spawn to their first answer (the language server gets `initialize` at once,',
  'as an editor sends it; the reference server is asked for a page of the sample once it prints its address).',
  trees.length > 1 ? `"${trees[0].label}" is a build of that commit measured in the same rounds.` : '',
  '',
  '| command | tree | rounds | wall ms | CPU ms | CPU ÷ `node -e 0` | wall ÷ `node -e 0` | answered at ms | peak RSS MiB |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|',
];
const verdicts = [];
for (const { subject, runs, measured } of sections) {
  const row = (label, i) => {
    const wall = median(runs[i].map((r) => r.wallMs));
    const cpu = median(runs[i].map((r) => r.cpuMs));
    const rss = median(runs[i].map((r) => r.maxRssMiB));
    const answer = i === 0 || subject.drive === undefined ? '' : fmt(median(runs[i].map((r) => r.answerMs)));
    const ratios = i === 0 ? ['1.00×', '1.00×'] : [`${ratio(runs, i, 'cpuMs').toFixed(2)}×`, `${ratio(runs, i, 'wallMs').toFixed(2)}×`];
    return `| ${i === 0 ? reference.label : subject.name} | ${label} | ${subject.rounds} | ${fmt(wall)} | ${fmt(cpu)} | ${ratios[0]} | ${ratios[1]} | ${answer} | ${fmt(rss, 1)} |`;
  };
  lines.push(row('—', 0));
  measured.forEach((tree, t) => lines.push(row(tree.label, t + 1)));
  const current = runs.length - 1;
  if (subject.cpuTarget !== undefined) {
    const r = ratio(runs, current, 'cpuMs');
    verdicts.push(
      `${subject.name}: CPU ${r.toFixed(2)}× \`node -e 0\`, target ≤ ${subject.cpuTarget}× — ${r <= subject.cpuTarget ? 'met' : 'not met'}.`,
    );
  }
  if (subject.wallTargetMs !== undefined) {
    const ms = median(runs[current].map((r) => r.wallMs));
    verdicts.push(
      `${subject.name}: ${fmt(ms)} ms wall, target ≤ ${subject.wallTargetMs} ms — ${ms <= subject.wallTargetMs ? 'met' : 'not met'}.`,
    );
  }
  if (subject.answerTargetMs !== undefined) {
    const ms = median(runs[current].map((r) => r.answerMs));
    const overNode = median(runs[current].map((r, round) => r.answerMs - runs[0][round].wallMs));
    verdicts.push(
      `${subject.name}: answered ${fmt(ms)} ms after spawn (${fmt(overNode)} ms more than a whole \`node -e 0\`), target ≤ ${subject.answerTargetMs} ms — ${ms <= subject.answerTargetMs ? 'met' : 'not met'}.`,
    );
  }
}
const md = [
  ...lines.filter((l, i) => l !== '' || lines[i - 1] !== ''),
  '',
  'Targets (this tree):',
  '',
  ...verdicts.map((v) => `- ${v}`),
].join('\n');
console.log(md);
// A partial run (WEPQL_BENCH_ONLY) is printed only: bench/results/startup.md keeps every command.
if (only === undefined) writeSection('startup', md);
