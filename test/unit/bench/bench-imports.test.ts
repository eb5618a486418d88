/**
 * The benchmarks import the built package (`../dist/…`), which no test
 * builds; a module moved in `src/` leaves a benchmark that fails only when
 * someone runs `npm run bench`. This reads each benchmark's static imports of
 * `dist/`, maps them back to the source module they are built from, and checks
 * that the module exists and exports every name the benchmark asks for.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const benchDir = join(root, 'bench');
const importPattern = /import\s*(?:\{([^}]*)\}\s*from\s*)?['"]\.\.\/dist\/([^'"]+)\.js['"]/g;

interface DistImport {
  bench: string;
  source: string;
  names: string[];
}

function distImports(): DistImport[] {
  const found: DistImport[] = [];
  for (const bench of readdirSync(benchDir).filter((name) => name.endsWith('.mjs'))) {
    const text = readFileSync(join(benchDir, bench), 'utf8');
    for (const match of text.matchAll(importPattern)) {
      const names = (match[1] ?? '')
        .split(',')
        .map((part) => part.trim().split(/\s+as\s+/)[0] ?? '')
        .filter((name) => name !== '');
      found.push({ bench, source: join(root, 'src', `${match[2]}.ts`), names });
    }
  }
  return found;
}

describe('benchmarks import what the source exports', () => {
  const imports = distImports();

  it('finds the benchmarks’ imports of dist/', () => {
    expect(imports.length).toBeGreaterThan(10);
  });

  it.each(imports.map((entry) => [`${entry.bench} → ${relative(root, entry.source)}`, entry] as const))('%s', async (_label, entry) => {
    expect(existsSync(entry.source), `${entry.bench} imports a module built from ${entry.source}`).toBe(true);
    const module = (await import(entry.source)) as Record<string, unknown>;
    const missing = entry.names.filter((name) => !(name in module));
    expect(missing, `${entry.bench} imports names ${relative(root, entry.source)} does not export`).toEqual([]);
  });
});
