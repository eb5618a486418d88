// Bundles the package's executables after tsc has emitted the library:
// `wepql` (dist/cli/main.js) and the reference server
// (dist/reference-server/main.js) are each replaced by one file holding
// their code and that of the runtime dependencies (chevrotain and the
// 640 files of its lodash-es among them), so a start opens a handful of
// files instead of hundreds. The CLI's commands stay behind dynamic imports
// (src/cli/main.ts), so each becomes a chunk of dist/cli-chunks/ loaded only
// when that command runs. The commands a save or a commit hook runs (`lint`,
// `fmt`) are then each merged into one file (mergeCommand below): a start
// that opens a few files instead of thirty spends a third less CPU beyond
// Node's own start, for some bytes held twice in the package. Packages that are not runtime dependencies (the
// database drivers, the frameworks, the UI peers) stay imports: a command
// loads one when it needs it, from the user's node_modules. The library
// entries (`wepql`, `wepql/sql`, …) stay tsc's ES modules, for bundlers.
import { build } from 'esbuild';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
// yaml stays an import (a runtime dependency, installed with the package): only YAML files load it,
// and its Node build is CommonJS whose named exports a bundled dynamic import does not see.
const runtime = new Set(Object.keys(pkg.dependencies ?? {}).filter((name) => name !== 'yaml'));

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * What src/ imports by package name is bundled when it is a runtime
 * dependency and left an import otherwise (an optional peer, a driver);
 * whatever a bundled dependency imports in turn is bundled with it.
 */
const runtimeDependenciesOnly = {
  name: 'runtime-dependencies-only',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point' || args.path.startsWith('node:')) return undefined;
      if (args.importer.includes('/node_modules/')) return undefined;
      return runtime.has(packageOf(args.path)) ? undefined : { external: true };
    });
  },
};

const common = {
  absWorkingDir: new URL('.', root).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // A dependency's ES build where it ships one (jsonc-parser's CommonJS build is UMD, whose requires a bundler cannot follow).
  mainFields: ['module', 'main'],
  // This checkout's node_modules may be a link; paths in the maps stay node_modules/…
  preserveSymlinks: true,
  // Source maps name the shipped src/ files (sources relative to the map);
  // the dependencies' code is carried inside the map (shipSources below).
  sourcemap: 'linked',
  sourcesContent: true,
  // Whitespace and syntax only: names stay, so a stack trace reads without the map.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  plugins: [runtimeDependenciesOnly],
  // Some dependencies are CommonJS and `require` Node's modules; an ES module has no `require` of its own.
  banner: {
    js: "import { createRequire as __wepqlCreateRequire } from 'node:module'; const require = __wepqlCreateRequire(import.meta.url);",
  },
};

/**
 * Modules of src/ that the CLI loads on their first call rather than at
 * start: the Chevrotain halves of the parsers, which a run whose texts are
 * all well formed never calls (parseFilter's fast path reads them), and
 * Chevrotain itself, which only they import. Each is an entry point of the
 * CLI build of its own (dist/cli-chunks/<name>.js); every other module that
 * imports one gets, in its place, a module of the same exported functions
 * that load it on the first call with a synchronous `require` (an ES module
 * required from an ES module is the same instance, and what it imports
 * shares the chunks the process has loaded already). Such a module exports
 * functions only: the build fails otherwise.
 */
const LOADED_ON_FIRST_CALL = {
  'src/syntax/parse-filter-chevrotain.ts': 'parse-filter-chevrotain',
  'src/syntax/parse-sort.ts': 'parse-sort',
};

/** The names a module exports, by esbuild's reading of it alone. */
async function exportsOf(file) {
  const r = await build({
    entryPoints: [file],
    bundle: false,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  return Object.values(r.metafile.outputs).find((o) => o.entryPoint !== undefined).exports;
}

async function loadedOnFirstCall() {
  const shims = new Map();
  for (const [file, name] of Object.entries(LOADED_ON_FIRST_CALL)) {
    const names = await exportsOf(file);
    const chunk = `../cli-chunks/${name}.js`;
    shims.set(
      new URL(file, root).pathname,
      [
        `import { createRequire } from 'node:module';`,
        `import { fileURLToPath } from 'node:url';`,
        `let loaded;`,
        `function load() {`,
        `  if (loaded !== undefined) return loaded;`,
        // Chunks and commands are in dist/cli-chunks/, the CLI in dist/cli/: the same path from either.
        `  const module = createRequire(import.meta.url)(fileURLToPath(new URL(${JSON.stringify(chunk)}, import.meta.url)));`,
        `  for (const name of ${JSON.stringify(names)}) if (typeof module[name] !== 'function') throw new Error(\`${file}: \${name} is not a function, so it cannot be loaded on its first call\`);`,
        `  return (loaded = module);`,
        `}`,
        ...names.map((n) => `export function ${n}(...args) { return load().${n}(...args); }`),
      ].join('\n'),
    );
  }
  return {
    name: 'loaded-on-first-call',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.kind === 'entry-point' || args.namespace !== 'file') return undefined;
        const target = new URL(args.path.replace(/\.js$/, '.ts'), `file://${args.importer}`).pathname;
        return shims.has(target) ? { path: target, namespace: 'loaded-on-first-call' } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'loaded-on-first-call' }, (args) => ({
        contents: shims.get(args.path),
        loader: 'js',
        resolveDir: root.pathname,
      }));
    },
  };
}

const started = performance.now();
rmSync(new URL('dist/cli-chunks/', root), { recursive: true, force: true });
const results = await Promise.all([
  build({
    ...common,
    plugins: [await loadedOnFirstCall(), ...common.plugins],
    entryPoints: {
      'cli/main': 'src/cli/main.ts',
      ...Object.fromEntries(Object.entries(LOADED_ON_FIRST_CALL).map(([file, name]) => [`cli-chunks/${name}`, file])),
    },
    outdir: 'dist',
    splitting: true,
    // Beside dist/cli/, at the same depth as every module of src/ is in dist/:
    // `new URL('../../package.json', import.meta.url)` means the same in a chunk.
    chunkNames: 'cli-chunks/[name]-[hash]',
    metafile: true,
  }),
  build({ ...common, entryPoints: { 'reference-server/main': 'src/reference-server/main.ts' }, outdir: 'dist', metafile: true }),
]);
for (const entry of ['dist/cli/main.js', 'dist/reference-server/main.js']) chmodSync(new URL(entry, root), 0o755);

/**
 * The commands merged into one file each: the ones run on every save and in
 * every commit hook, and the language server, whose answer to `initialize`
 * waits for every file loaded before it.
 */
const MERGED = ['lint', 'fmt', 'lsp'];
/**
 * Merged commands whose dynamic imports stay chunks of their own: the
 * language server loads the language (src/lsp/server.ts, most of the CLI)
 * behind its first answer, so that answer must not wait for it.
 */
const KEEP_DYNAMIC_IMPORTS = new Set(['lsp']);

/**
 * The chunks main.js loads whatever command runs (its imports and those of
 * its error reporting, with theirs): a merged command keeps importing these,
 * so that each module main.js shares with it (the error classes whose
 * `instanceof` main.js tests, the colour switch) exists once in the process.
 */
function sharedWithMain(outputs) {
  const isCommand = (file) => /^src\/cli\/commands\//.test(outputs[file]?.entryPoint ?? '');
  const shared = new Set();
  // What the modules loaded on first call import must be the instances the command uses: those chunks stay files too.
  const todo = ['dist/cli/main.js', ...Object.values(LOADED_ON_FIRST_CALL).map((name) => `dist/cli-chunks/${name}.js`)];
  while (todo.length > 0) {
    for (const { path } of outputs[todo.pop()].imports) {
      if (!path.startsWith('dist/') || shared.has(path) || isCommand(path)) continue;
      shared.add(path);
      todo.push(path);
    }
  }
  return shared;
}

/**
 * Re-bundles a command's chunk with every chunk it imports that main.js does
 * not share (sharedWithMain), in place: the command then loads as one file
 * beside the few main.js has loaded already. Its source map is chained
 * through the chunks' own, so it still points at src/.
 */
async function mergeCommand(outputs, name) {
  const chunk = Object.keys(outputs).find((f) => outputs[f].entryPoint === `src/cli/commands/${name}.ts`);
  const shared = sharedWithMain(outputs);
  const merged = await build({
    ...common,
    plugins: [
      {
        name: 'keep-shared-chunks',
        setup(b) {
          b.onResolve({ filter: /^\.\/chunk-[A-Z0-9]+\.js$|^\.\/[a-z-]+-[A-Z0-9]+\.js$/ }, (args) =>
            shared.has(`dist/cli-chunks/${args.path.slice(2)}`) || (args.kind === 'dynamic-import' && KEEP_DYNAMIC_IMPORTS.has(name))
              ? { path: args.path, external: true }
              : undefined,
          );
          b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('node:') ? undefined : { path: args.path, external: true }));
        },
      },
    ],
    entryPoints: [chunk],
    outfile: chunk,
    allowOverwrite: true,
    // The chunks carry the banner already.
    banner: {},
    // Keep every module the chunks evaluate, as the split build does (package.json's "sideEffects": false is for library users' bundlers).
    ignoreAnnotations: true,
    write: false,
  });
  for (const out of merged.outputFiles) writeFileSync(out.path, out.contents);
  return merged.outputFiles.length;
}
const mergedFiles = (await Promise.all(MERGED.map((name) => mergeCommand(results[0].metafile.outputs, name)))).length;

/**
 * A map's sources from src/ point at the files the package ships, so their
 * copies are dropped from it; a dependency's stay, since its files are
 * somewhere else once installed (or bundled away).
 */
function shipSources(mapFile) {
  const map = JSON.parse(readFileSync(mapFile, 'utf8'));
  map.sourcesContent = map.sources.map((source, i) => (source.startsWith('../../src/') ? null : map.sourcesContent[i]));
  writeFileSync(mapFile, JSON.stringify(map));
}
for (const r of results) for (const f of Object.keys(r.metafile.outputs)) if (f.endsWith('.map')) shipSources(new URL(f, root));
const files = results.reduce((n, r) => n + Object.keys(r.metafile.outputs).filter((f) => f.endsWith('.js')).length, 0);
console.log(
  `bundle: dist/cli/main.js (${MERGED.map((n) => `wepql ${n}`).join(' and ')} one file each: ${mergedFiles} merged) and dist/reference-server/main.js (${files} files) in ${Math.round(performance.now() - started)} ms`,
);
