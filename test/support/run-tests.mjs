// `npm test`: the build, then the test files (vitest), with the type check
// and each command of `npm run lint` (read from package.json, so their
// definitions stay in one place) running beside the tests at a lower CPU
// priority.
//
// Why beside and not before: the tests need only the build (dist/), and the
// checks write nothing a test reads (oxfmt, oxlint, knip and
// dependency-cruiser read the sources; the type check emits nothing). Run
// before the tests, two at a time on a 2-core machine, they held the tests
// back for ~50 s; beside them, at niceness 10, they take the CPU the test
// workers leave idle while they wait on the servers and CLI processes they
// start, and a test never waits for a lint.
//
// Output: the build's before the tests start, vitest's as it runs, then each
// check's (with its time and exit code) once the tests are done, and one
// line naming what failed. The exit code is 1 when the build, a check or a
// test failed; a failed build runs no tests. Arguments go to vitest
// (`npm test -- test/unit` runs every check and those files).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
/** The checks' priority: the tests (niceness 0) come first, a check gets the CPU they leave. */
const NICENESS = 10;
// Longest first (CPU seconds on a quiet 2-core machine: typecheck 12, knip 9, depcruise 6, oxlint 0.7, oxfmt 0.5).
const ORDER = ['typecheck', 'knip', 'depcruise', 'oxlint', 'oxfmt'];

/** Runs a shell command, its output kept until it ends; `niced` runs it (and what it starts) at NICENESS. */
function run(command, { niced = false } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    // `shell`: the commands are package.json's, written for npm's shell (`npm test` has put node_modules/.bin
    // on PATH). A niced one goes through this script's `--niced` mode, which lowers its own priority before
    // it starts the command, so every process the command starts inherits it.
    const child = niced
      ? spawn(process.execPath, [SELF, '--niced', command], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => {
      resolve({ command, ok: code === 0, code, seconds: (performance.now() - started) / 1000, out });
    });
  });
}

function report({ command, ok, code, seconds, out }) {
  process.stdout.write(`\n> ${command} (${seconds.toFixed(1)} s${ok ? '' : `, exit ${code}`})\n${out}`);
}

/** The checks, `limit` at a time, longest first. */
async function runChecks(commands, limit) {
  const rank = (command) => {
    const i = ORDER.findIndex((word) => command.includes(word));
    return i < 0 ? ORDER.length : i;
  };
  const queue = [...commands].sort((a, b) => rank(a) - rank(b));
  const results = [];
  const worker = async () => {
    for (let command = queue.shift(); command !== undefined; command = queue.shift()) {
      results.push(await run(command, { niced: true }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, queue.length) }, worker));
  return results;
}

function vitest(args) {
  const started = performance.now();
  return new Promise((resolve) => {
    // The whole suite starts the shared database servers at once (test/global-setup.ts); a run of chosen
    // files starts one only when a file asks.
    const env = args.length === 0 ? { ...process.env, WEPQL_TEST_SERVERS_EAGER: '1' } : process.env;
    const child = spawn(process.execPath, [`${ROOT}node_modules/vitest/vitest.mjs`, 'run', ...args], { stdio: 'inherit', env });
    child.on('close', (code) => resolve({ ok: code === 0, code, seconds: (performance.now() - started) / 1000 }));
  });
}

async function main(args) {
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
  const checks = runChecks(['npm run typecheck', ...pkg.scripts.lint.split(' && ')], availableParallelism());
  const build = await run('npm run build');
  report(build);
  const tests = build.ok ? await vitest(args) : undefined;
  const results = await checks;
  for (const result of results) report(result);
  const failed = [build, ...results].filter((r) => !r.ok).map((r) => r.command);
  if (tests === undefined) failed.push('vitest run (not started: the build failed)');
  else if (!tests.ok) failed.push(`vitest run (exit ${tests.code})`);
  const timings = [build, ...results].map((r) => `${r.command.replace(/^npm run /, '')} ${r.seconds.toFixed(0)} s`);
  if (tests !== undefined) timings.push(`vitest ${tests.seconds.toFixed(0)} s`);
  process.stdout.write(`\nnpm test: ${timings.join(', ')}\n`);
  if (failed.length > 0) process.stdout.write(`npm test failed: ${failed.join('; ')}\n`);
  process.exitCode = failed.length === 0 ? 0 : 1;
}

if (process.argv[2] === '--niced') {
  setPriority(NICENESS);
  const child = spawn(process.argv[3], { shell: true, stdio: 'inherit' });
  child.on('close', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
} else {
  await main(process.argv.slice(2));
}
