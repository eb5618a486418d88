/**
 * Adding an operator is a compile error everywhere a stage must say
 * something new about it, and nowhere else: the evaluator's back ends, SQL,
 * lint's logic, schema evolution, the policy checks and the index
 * advisor read the lowered facts (src/ast/operator-facts.ts) and need no
 * change. The test copies src/ to a temporary directory, adds a fake order
 * operator to the name list and the OPERATORS table, runs the compiler and
 * compares the files it names with the places docs/architecture.md lists.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'wepql-new-operator-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function edit(file: string, before: string, after: string): void {
  const path = join(work, file);
  const text = readFileSync(path, 'utf8');
  expect(text, `${file} holds ${JSON.stringify(before)}`).toContain(before);
  writeFileSync(path, text.replace(before, after));
}

/** The files `tsc` reports errors in, relative to the copy. */
function compileErrors(): string[] {
  try {
    // One thread: the native compiler's parallel checkers each check the global types again, more CPU in all
    // for a wall time this file does not need (the other worker has the other core).
    const tsc = [join(ROOT, 'node_modules/typescript-7/bin/tsc'), '-p', join(work, 'tsconfig.check.json'), '--singleThreaded'];
    execFileSync(process.execPath, tsc, {
      cwd: work,
      encoding: 'utf8',
    });
    return [];
  } catch (error) {
    const out = String((error as { stdout?: string }).stdout ?? '');
    return [...new Set([...out.matchAll(/^(src\/[^(]+)\(\d+,\d+\): error/gm)].map((m) => m[1]!))].sort();
  }
}

describe('a new operator', () => {
  it('fails to compile exactly where a stage needs its own words for it', { timeout: 600_000 }, () => {
    cpSync(join(ROOT, 'src'), join(work, 'src'), { recursive: true });
    cpSync(join(ROOT, 'tsconfig.json'), join(work, 'tsconfig.json'));
    cpSync(join(ROOT, 'package.json'), join(work, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir');
    writeFileSync(
      join(work, 'tsconfig.check.json'),
      JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true }, include: ['src'] }),
    );
    edit('src/ast/operators.ts', "  'NotEndsWith',\n] as const;", "  'NotEndsWith',\n  'FakeBefore',\n] as const;");
    edit(
      'src/ast/operators.ts',
      "  IsNull: { arity: 'no-value'",
      "  FakeBefore: { arity: 'single-value', family: 'order', types: ORDERED_TYPES, negation: null, negative: false, nullMatches: false, relation: '<' },\n  IsNull: { arity: 'no-value'",
    );
    expect(compileErrors()).toEqual([
      // The builder's method for it (`field('X').fakeBefore(v)`).
      'src/builder/filter-builder.ts',
      // Each grid's word for it (or null when the grid has none).
      'src/grid/ag-grid.ts',
      'src/grid/mui.ts',
      'src/grid/tanstack.ts',
      // How explain reads it aloud.
      'src/language-service/explain.ts',
      // react-querybuilder's name for it (or null when the builder has none).
      'src/react-querybuilder/operators.ts',
    ]);
  });
});
