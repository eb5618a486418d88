// Bundle size of the browser core: parser, validator, printer and evaluator
// bundled by esbuild from the built library (dist/index.js) for the browser,
// with every dependency (chevrotain included) bundled in. Reports raw,
// minified and gzipped bytes, stage by stage, against chevrotain alone as
// the reference measured in the same run. Sizes are deterministic, so each
// figure is one measurement, not a median.
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { fmt, writeSection } from './harness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = JSON.stringify(fileURLToPath(new URL('../dist/index.js', import.meta.url)));

// Each entry adds one stage to the previous: what a page pays for each.
const ENTRIES = [
  ['chevrotain alone (reference)', `export * from 'chevrotain';`],
  ['parser', `export { parseFilter, parseSort } from ${dist};`],
  ['+ validator', `export { parseFilter, parseSort, analyzeFilter, analyzeSort } from ${dist};`],
  ['+ printer', `export { parseFilter, parseSort, analyzeFilter, analyzeSort, formatFilter, formatSort } from ${dist};`],
  ['core: + evaluator', `export { parseFilter, parseSort, analyzeFilter, analyzeSort, formatFilter, formatSort, query } from ${dist};`],
  ['whole public entry (dist/index.js)', `export * from ${dist};`],
];

// package.json does not (yet) declare `"sideEffects": false`, so a module
// with top-level calls (a schema built at import time) stays in the bundle
// even when nothing uses it. This plugin declares dist/ free of side effects
// to measure what that declaration would save.
const pureDist = {
  name: 'pure-dist',
  setup(build) {
    build.onResolve({ filter: /^\.{1,2}\/|dist\/index\.js$/ }, (args) => {
      const path = args.path.startsWith('/') ? args.path : fileURLToPath(new URL(args.path, `file://${args.resolveDir}/`));
      return path.includes('/dist/') ? { path, sideEffects: false } : undefined;
    });
  },
};

async function bundle(contents, minify, plugins = []) {
  const result = await esbuild.build({
    stdin: { contents, resolveDir: root, loader: 'js', sourcefile: 'entry.js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify,
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
    plugins,
  });
  const output = result.outputFiles[0].contents;
  // The dependencies' share of the output (chevrotain, its @chevrotain/*
  // packages and lodash-es), from esbuild's own accounting.
  let dependencies = 0;
  for (const out of Object.values(result.metafile.outputs)) {
    for (const [input, info] of Object.entries(out.inputs)) {
      if (input.includes('node_modules/')) dependencies += info.bytesInOutput;
    }
  }
  return { bytes: output.byteLength, output, dependencies };
}

const rows = [];
for (const [name, contents] of ENTRIES) {
  const raw = await bundle(contents, false);
  const min = await bundle(contents, true);
  const gzip = gzipSync(min.output, { level: 9 }).byteLength;
  const brotli = brotliCompressSync(min.output, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength;
  const pure = await bundle(contents, true, [pureDist]);
  const pureGzip = gzipSync(pure.output, { level: 9 }).byteLength;
  rows.push({ name, raw: raw.bytes, min: min.bytes, gzip, brotli, pureGzip, dependencyShare: min.dependencies / min.bytes });
  console.log(
    `${name}: raw ${raw.bytes} B, minified ${min.bytes} B, gzip ${gzip} B, brotli ${brotli} B, gzip without side effects ${pureGzip} B`,
  );
}

const reference = rows[0];
const core = rows.find((r) => r.name.startsWith('core'));
const kib = (n) => `${fmt(n / 1024, 1)} KiB`;
const table = [
  "| bundle | raw | minified | gzipped | brotli | gzipped ÷ chevrotain | dependencies' share of minified | gzipped with `sideEffects: false` |",
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${kib(r.raw)} | ${kib(r.min)} | ${kib(r.gzip)} | ${kib(r.brotli)} | ${fmt(r.gzip / reference.gzip, 2)}× | ${fmt(
        r.dependencyShare * 100,
        0,
      )} % | ${kib(r.pureGzip)} |`,
  ),
];

writeSection(
  'bundle',
  [
    '## bundle — browser bundle size of the core',
    '',
    'esbuild (minify, `platform: browser`, ESM, es2022) bundling the named exports of `dist/index.js` with every',
    'dependency included; gzip level 9 and brotli quality 11 via node:zlib. Each row adds one stage to the row',
    "above. Reference: all of chevrotain bundled alone, the parser's only runtime dependency.",
    '',
    ...table,
    '',
    `The core (parser, validator, printer, evaluator) is ${kib(core.gzip)} gzipped; the dependencies (chevrotain,`,
    `@chevrotain/*, lodash-es) are ${fmt(core.dependencyShare * 100, 0)} % of its minified bytes. The last column is the`,
    `same bundle with dist/ declared free of side effects (\`"sideEffects": false\` in package.json), which lets`,
    'esbuild drop modules that run code at import time but are not used (the employee schema, the builder).',
  ].join('\n'),
);

// The UI converters: what `wepql/querybuilder` and `wepql/grid` add to a page,
// against the core above. Their component libraries are used for types only,
// so no peer package may appear in their bundles (checked here).
const uiDist = (path) => JSON.stringify(fileURLToPath(new URL(`../dist/${path}`, import.meta.url)));
const UI_ENTRIES = [
  ['core: parse, validate, format, evaluate (reference)', ENTRIES.find(([name]) => name.startsWith('core'))[1]],
  ['`wepql/querybuilder` (every export)', `export * from ${uiDist('react-querybuilder/index.js')};`],
  ['`wepql/grid` (every export)', `export * from ${uiDist('grid/index.js')};`],
  [
    '`wepql/querybuilder` + `wepql/grid`',
    `export * from ${uiDist('react-querybuilder/index.js')}; export * from ${uiDist('grid/index.js')};`,
  ],
];
const PEERS = ['@react-querybuilder', 'react-querybuilder', 'ag-grid', '@mui/', '@tanstack/', 'react/', 'react-dom'];
const uiRows = [];
for (const [name, contents] of UI_ENTRIES) {
  const min = await esbuild.build({
    stdin: { contents, resolveDir: root, loader: 'js', sourcefile: 'entry.js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const inputs = Object.keys(min.metafile.inputs);
  const peer = inputs.find((i) => PEERS.some((p) => i.includes(`node_modules/${p}`)));
  if (peer !== undefined) throw new Error(`${name} bundles a peer package: ${peer}`);
  const output = min.outputFiles[0].contents;
  uiRows.push({ name, min: output.byteLength, gzip: gzipSync(output, { level: 9 }).byteLength });
  console.log(`${name}: minified ${output.byteLength} B, gzip ${uiRows.at(-1).gzip} B`);
}
const uiReference = uiRows[0];
writeSection(
  'bundle-ui',
  [
    '## bundle-ui — `wepql/querybuilder` and `wepql/grid`',
    '',
    'esbuild (minify, `platform: browser`, ESM, es2022) bundling every export of each entry from dist/ with its',
    'dependencies (chevrotain included); gzip level 9. Reference: the core bundle of the section above. The',
    'component libraries (react-querybuilder, AG Grid, MUI X, TanStack Table) are used for types only: none of',
    'their code is in these bundles (the benchmark fails if it is).',
    '',
    '| bundle | minified | gzipped | gzipped ÷ core | gzipped − core |',
    '|---|---:|---:|---:|---:|',
    ...uiRows.map(
      (r) => `| ${r.name} | ${kib(r.min)} | ${kib(r.gzip)} | ${fmt(r.gzip / uiReference.gzip, 2)}× | ${kib(r.gzip - uiReference.gzip)} |`,
    ),
  ].join('\n'),
);
