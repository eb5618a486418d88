/**
 * docs/editors.md and editors/vscode agree with what ships: the extension
 * starts `wepql lsp` for .wepql files, the registered command exists, and
 * the options the guide names are the options `wepql(...)` takes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { WepqlEditorOptions } from '../../../src/codemirror/index.js';

const read = (path: string): string => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe('editors', () => {
  it('the VS Code extension starts `wepql lsp` for .wepql files', () => {
    const manifest = JSON.parse(read('editors/vscode/package.json')) as {
      main: string;
      activationEvents: string[];
      contributes: {
        languages: { id: string; extensions: string[] }[];
        configuration: { properties: Record<string, { default: unknown }> };
      };
    };
    expect(manifest.contributes.languages).toEqual([expect.objectContaining({ id: 'wepql', extensions: ['.wepql'] })]);
    expect(manifest.activationEvents).toContain('onLanguage:wepql');
    expect(manifest.contributes.configuration.properties['wepql.command']!.default).toEqual(['npx', '--no-install', 'wepql', 'lsp']);
    const extension = read(`editors/vscode/${manifest.main}`);
    expect(extension).toContain("config.get('schema'");
    expect(extension).toContain("language: 'wepql'");
  });

  it('the CLI registers the lsp command', () => {
    expect(read('src/cli/main.ts')).toMatch(/lsp: \{[\s\S]*?import\('\.\/commands\/lsp\.js'\)/);
  });

  it('docs/editors.md names the options wepql(...) takes', () => {
    const doc = read('docs/editors.md');
    const options: Record<keyof WepqlEditorOptions, true> = {
      schema: true,
      kind: true,
      caseSensitive: true,
      limits: true,
      lintDelay: true,
      oneLine: true,
    };
    for (const name of Object.keys(options)) expect(doc).toMatch(new RegExp(`\`${name}\\b|\\b${name}: `));
    expect(doc).toContain('npm run docs:serve');
    expect(doc).toContain('vim.lsp.start');
  });
});
