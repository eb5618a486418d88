/**
 * `wepql lsp` answers `initialize` before the language loads (src/lsp/start.ts):
 * what start.ts imports at run time — its static imports and theirs, not the
 * `import('./server.js')` behind the answer — must not reach the parser,
 * whose load (chevrotain and its lodash-es) is what the answer does not wait
 * for. The semantic token legend it announces is the one list the
 * highlighter numbers by (src/lsp/token-legend.ts), so it sits on this path.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The module specifiers a file imports at run time: `import type` and `export type` leave nothing behind, `import()` is not followed. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly !== true) {
      out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
    if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.moduleSpecifier !== undefined) {
      out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out;
}

/** Every module start.ts loads before it answers: src/ files by path, packages by name. */
function earlyPath(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [join(ROOT, entry)];
  while (todo.length > 0) {
    const file = todo.pop()!;
    const rel = relative(ROOT, file).split('\\').join('/');
    if (files.has(rel)) continue;
    files.add(rel);
    for (const specifier of runtimeImports(file)) {
      if (specifier.startsWith('.')) todo.push(join(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
    }
  }
  return { files, packages };
}

describe('the language server before initialize', () => {
  const { files, packages } = earlyPath('src/lsp/start.ts');

  it('loads the early answer and the legend: no package, not even the protocol library', () => {
    expect(files).toContain('src/lsp/token-legend.ts');
    expect(files).toContain('src/lsp/early-answer.ts');
    expect([...files].filter((f) => !f.startsWith('src/lsp/'))).toEqual([]);
    expect([...packages].sort()).toEqual(['node:module', 'node:stream']);
  });

  it('the highlighter behind it numbers its tokens by the same legend module', () => {
    const { files: behind, packages: behindPackages } = earlyPath('src/lsp/server.ts');
    expect(behind).toContain('src/lsp/token-legend.ts');
    expect(behind).toContain('src/lsp/semantic-tokens.ts');
    // The premise of the first test: what start.ts leaves behind its answer does load the parser.
    expect(behindPackages).toContain('chevrotain');
  });
});
