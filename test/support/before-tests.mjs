// What `npm test` runs before vitest: `npm run build`, `npm run typecheck`
// and each command of `npm run lint` (read from package.json, so the lint's
// definition stays in one place), as many at once as the machine has cores,
// longest first. One after another they left a core idle on a 2-core machine
// for two and a half minutes (each is one process on one core). Each
// command's output is printed when it ends; the exit code is 1 when any
// failed. None of them reads what another writes: the build writes dist/,
// which Prettier, ESLint, knip (.gitignore) and dependency-cruiser (src/
// only) leave alone and the type check never imports.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
// Longest first (CPU seconds measured on a loaded 2-core machine: 49, 33, 31, 28, 12, 9).
const ORDER = ['typecheck', 'prettier', 'eslint', 'build', 'knip', 'depcruise'];
const commands = ['npm run build', 'npm run typecheck', ...pkg.scripts.lint.split(' && ')];
const rank = (command) => {
  const i = ORDER.findIndex((word) => command.includes(word));
  return i < 0 ? ORDER.length : i;
};
const queue = [...commands].sort((a, b) => rank(a) - rank(b));

function run(command) {
  const started = performance.now();
  return new Promise((resolve) => {
    // `shell`: the commands are package.json's, written for npm's shell (`npm test` has put node_modules/.bin on PATH).
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n> ${command} (${seconds} s${code === 0 ? '' : `, exit ${code}`})\n${out}`);
      resolve(code === 0);
    });
  });
}

const results = [];
async function worker() {
  for (let command = queue.shift(); command !== undefined; command = queue.shift()) results.push(await run(command));
}
await Promise.all(Array.from({ length: Math.min(availableParallelism(), commands.length) }, worker));
process.exitCode = results.every(Boolean) ? 0 : 1;
