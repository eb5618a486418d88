// Writes the generated conformance files of grammar/corpus/ (semantics.json,
// list-http.json and the dataset as SQL) from test/conformance/generate.ts:
// the hand-written specs, with the expected ids computed by the evaluator and
// cross-checked against the reference evaluator and the hand-worked ids.
// test/conformance/generated.test.ts fails when the committed files differ.
//
//   node scripts/conformance-generate.mjs           write the files
//   node scripts/conformance-generate.mjs --check   exit 1 when a file differs
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// Two folders deep, like test/conformance/ and src/conformance/, so that their ../../grammar/ paths still hold.
const out = `${root}.tmp/conformance/generate.mjs`;
mkdirSync(`${root}.tmp/conformance`, { recursive: true });
// The generator is TypeScript beside the tests; bundle it (packages stay external) and run it.
await build({
  entryPoints: [`${root}test/conformance/generate.ts`],
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outfile: out,
  logLevel: 'error',
});
const { generatedFiles } = await import(pathToFileURL(out).href);
const check = process.argv.includes('--check');
let differ = 0;
for (const [path, text] of await generatedFiles()) {
  const file = `${root}${path}`;
  let old;
  try {
    old = readFileSync(file, 'utf8');
  } catch {
    old = undefined;
  }
  if (old === text) continue;
  differ++;
  if (check) console.error(`${path} differs from a fresh generation`);
  else {
    writeFileSync(file, text);
    console.log(`wrote ${path}`);
  }
}
if (check && differ > 0) process.exit(1);
if (!check && differ === 0) console.log('conformance files already up to date');
