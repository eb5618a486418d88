/**
 * The VS Code extension's TextMate grammar (editors/vscode/syntaxes), read by
 * the same engine VS Code uses (vscode-textmate on vscode-oniguruma): sample
 * lines tokenize into fields, operators, values, keywords and punctuation,
 * and the extension's package.json registers the grammar for `.wepql`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import oniguruma from 'vscode-oniguruma';
import textmate from 'vscode-textmate';
import type { IGrammar } from 'vscode-textmate';

const require = createRequire(import.meta.url);
const EXTENSION = new URL('../../editors/vscode/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', EXTENSION), 'utf8'));
let grammar: IGrammar;

beforeAll(async () => {
  await oniguruma.loadWASM(readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer);
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (p: string[]) => new oniguruma.OnigScanner(p),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) =>
      scope === 'source.wepql'
        ? textmate.parseRawGrammar(readFileSync(new URL('syntaxes/wepql.tmLanguage.json', EXTENSION), 'utf8'), 'wepql.tmLanguage.json')
        : null,
  });
  grammar = (await registry.loadGrammar('source.wepql'))!;
});

/** Each token of each line as `text:kind`, the kind being the innermost wepql scope's first two parts. */
function tokens(text: string): string[] {
  let state = textmate.INITIAL;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const result = grammar.tokenizeLine(line, state);
    for (const t of result.tokens) {
      const piece = line.slice(t.startIndex, t.endIndex);
      if (piece.trim() === '') continue;
      const scope = t.scopes[t.scopes.length - 1]!;
      out.push(`${piece}:${scope === 'source.wepql' ? 'none' : scope.split('.').slice(0, 2).join('.')}`);
    }
    state = result.ruleStack;
  }
  return out;
}

describe('the VS Code extension', () => {
  it('registers the grammar for the wepql language of .wepql files', () => {
    expect(manifest.contributes.languages[0]).toMatchObject({ id: 'wepql', extensions: ['.wepql'] });
    expect(manifest.contributes.grammars).toEqual([
      { language: 'wepql', scopeName: 'source.wepql', path: './syntaxes/wepql.tmLanguage.json' },
    ]);
    expect(grammar).toBeDefined();
  });

  it('no longer promises JSON support it does not have', () => {
    const source = readFileSync(new URL('extension.js', EXTENSION), 'utf8');
    expect(source).toContain("documentSelector: [{ scheme: 'file', language: 'wepql' }]");
    expect(source).not.toMatch(/and the filter\/sort strings of JSON files/);
  });
});

describe('the TextMate grammar', () => {
  it('reads a filter: fields, the operator, values, punctuation', () => {
    expect(tokens('LastName.StartsWith(Sm);Gender.Equal(1)')).toEqual([
      'LastName:variable.other',
      '.:punctuation.accessor',
      'StartsWith:support.function',
      '(:punctuation.section',
      'Sm:string.unquoted',
      '):punctuation.section',
      ';:punctuation.separator',
      'Gender:variable.other',
      '.:punctuation.accessor',
      'Equal:support.function',
      '(:punctuation.section',
      '1:constant.numeric',
      '):punctuation.section',
    ]);
  });

  it('reads And/Or groups, nested paths, quoted values with doubled quotes and InFields', () => {
    expect(tokens("or(Address.City.InArray('O''Hare', Boston);'D'.StartsWithInFields(FirstName,LastName))")).toEqual([
      'or:keyword.control',
      '(:punctuation.section',
      'Address:variable.other',
      '.:punctuation.accessor',
      'City:variable.other',
      '.:punctuation.accessor',
      'InArray:support.function',
      '(:punctuation.section',
      "':punctuation.definition",
      'O:string.quoted',
      "'':constant.character",
      'Hare:string.quoted',
      "':punctuation.definition",
      ',:punctuation.separator',
      'Boston:string.unquoted',
      '):punctuation.section',
      ';:punctuation.separator',
      "':punctuation.definition",
      'D:string.quoted',
      "':punctuation.definition",
      '.:punctuation.accessor',
      'StartsWithInFields:support.function',
      '(:punctuation.section',
      'FirstName:variable.other',
      ',:punctuation.separator',
      'LastName:variable.other',
      '):punctuation.section',
      '):punctuation.section',
    ]);
  });

  it('reads comments and sorts', () => {
    expect(tokens('# the payroll team\nLastName=Asc;CreatedOn=desc')).toEqual([
      '#:punctuation.definition',
      ' the payroll team:comment.line',
      'LastName:variable.other',
      '=:keyword.operator',
      'Asc:keyword.other',
      ';:punctuation.separator',
      'CreatedOn:variable.other',
      '=:keyword.operator',
      'desc:keyword.other',
    ]);
  });
});
