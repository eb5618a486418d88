// The core must run in browsers unchanged: nothing in src/ outside the
// Node-only folders below may import a Node built-in (`node:*`, `fs`, `path`, …).
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a CommonJS script without declarations
import { NODE_ONLY as NODE_ONLY_FOLDERS } from '../../../scripts/layers.cjs';

const SRC = new URL('../../../src/', import.meta.url).pathname;
// The Node-only folders are listed once, with why, in scripts/layers.cjs.
const NODE_ONLY = new Set<string>(NODE_ONLY_FOLDERS);
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]!]));

// `import … from 'x'`, `export … from 'x'`, `import 'x'`, `import('x')`, `require('x')`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])([^'"\n]+)\1/g;

function coreFiles(dir: string, top = true): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (top && NODE_ONLY.has(entry.name)) continue;
      out.push(...coreFiles(path, false));
    } else if (/\.(?:ts|mts|js|mjs)$/.test(entry.name)) {
      out.push(path);
    }
  }
  return out;
}

/** The Node built-ins a source text imports. */
function nodeImports(source: string): string[] {
  const found: string[] = [];
  // TSDoc examples may mention imports; only code counts.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of code.matchAll(SPECIFIER)) {
    const spec = m[2]!;
    if (spec.startsWith('node:') || BUILTINS.has(spec) || BUILTINS.has(spec.split('/')[0]!)) found.push(spec);
  }
  return found;
}

describe('the core imports no Node built-in', () => {
  it.each([
    ["import { readFileSync } from 'node:fs';", ['node:fs']],
    ["import fs from 'fs';", ['fs']],
    ["export { join } from 'path';", ['path']],
    ["const c = await import('node:crypto');", ['node:crypto']],
    ["const z = require('zlib');", ['zlib']],
    ["import 'fs/promises';", ['fs/promises']],
    ["import { x } from './fs.js';", []],
    ["import { createToken } from 'chevrotain';", []],
    ["/** @example import { readFileSync } from 'node:fs'; */\n// import 'fs';", []],
  ])('detects %s', (source, expected) => {
    expect(nodeImports(source)).toEqual(expected);
  });

  it('finds the core files (the Node-only folders excluded)', () => {
    const files = coreFiles(SRC).map((f) => relative(SRC, f));
    expect(files).toContain('index.ts');
    expect(files).toContain('language-service/complete.ts');
    expect(files.some((f) => NODE_ONLY.has(f.split('/')[0]!))).toBe(false);
    expect(files).toContain('codemirror/index.ts');
  });

  it('no core file imports one', () => {
    const offenders = coreFiles(SRC).flatMap((file) =>
      nodeImports(readFileSync(file, 'utf8')).map((spec) => `${relative(SRC, file)} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });
});
