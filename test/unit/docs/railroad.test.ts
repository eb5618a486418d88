/**
 * The railroad diagrams of the docs site are drawn from grammar/*.ebnf: every
 * production of each grammar has its diagram, every box names a production
 * or a terminal of the EBNF, and no parser-internal token name shows.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILTER_TOKENS } from '../../../src/syntax/filter-lexer.js';
import { SORT_TOKENS } from '../../../src/syntax/sort-parser.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

interface Expr {
  readonly kind: string;
  readonly text?: string;
  readonly items?: readonly Expr[];
  readonly item?: Expr;
}
interface RailroadModule {
  parseEbnf(text: string): { name: string; expr: Expr }[];
  referencedNames(expr: Expr): Set<string>;
}
interface DocsModule {
  buildDiagrams(out: string): Promise<string[]>;
}

// The scripts are plain ESM, so they are loaded by URL.
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(join(ROOT, 'scripts', file)).href)) as T;

/** The parser's token names: none may appear in a diagram of the language. */
const INTERNAL = [...FILTER_TOKENS, ...SORT_TOKENS].map((t) => t.name).filter((n) => n !== 'NOT_APPLICABLE');

describe('railroad diagrams from the EBNF', () => {
  let out: string;
  let railroad: RailroadModule;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'wepql-railroad-'));
    railroad = await load<RailroadModule>('railroad.mjs');
    const written = await (await load<DocsModule>('build-docs.mjs')).buildDiagrams(out);
    expect(written).toEqual(['diagrams/filter.html', 'diagrams/sort.html']);
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('knows the internal token names it must not show', () => {
    expect(INTERNAL).toEqual(expect.arrayContaining(['RunPart', 'Word', 'GroupKeyword', 'LParen', 'SortWord', 'SortItemPart']));
  });

  it.each(['filter', 'sort'])('%s: every production has its diagram and refers only to defined productions', (name) => {
    const ebnf = readFileSync(join(ROOT, 'grammar', `${name}.ebnf`), 'utf8');
    const productions = railroad.parseEbnf(ebnf);
    // Every `name =` in the file (outside comments) was read as a production.
    const declared = [...ebnf.replace(/\(\*[\s\S]*?\*\)/g, '').matchAll(/^([a-z][a-z0-9-]*)\s*=/gm)].map((m) => m[1]);
    expect(productions.map((p) => p.name)).toEqual(declared);
    expect(productions.length).toBeGreaterThan(name === 'filter' ? 20 : 5);
    const html = readFileSync(join(out, 'diagrams', `${name}.html`), 'utf8');
    const defined = new Set(productions.map((p) => p.name));
    for (const p of productions) {
      expect(html).toContain(`<h3 id="${p.name}">${p.name}</h3>`);
      for (const ref of railroad.referencedNames(p.expr)) {
        expect(defined.has(ref), `${p.name} refers to ${ref}`).toBe(true);
        expect(html).toContain(`xlink:href="#${ref}"`);
      }
    }
    const svgs = html.match(/<svg class="railroad-diagram"/g) ?? [];
    expect(svgs).toHaveLength(productions.length);
  });

  it.each(['filter', 'sort'])('%s: the diagrams name no internal token', (name) => {
    const html = readFileSync(join(out, 'diagrams', `${name}.html`), 'utf8');
    const text = html.replace(/<[^>]*>/g, ' ');
    for (const token of INTERNAL) expect(text).not.toMatch(new RegExp(`\\b${token}\\b`));
    // The operator names of the language are there, as terminals.
    if (name === 'filter')
      for (const op of ['StartsWith', 'InArrayOrNull', 'EqualInFields', 'IsNull', 'And', 'Or']) expect(text).toContain(op);
    else for (const d of ['Asc', 'Desc']) expect(text).toContain(d);
  });

  it.each([
    ['a = "x" ;', 'a'],
    ['a = b , { "," , b } | [ c ] ; b = ? any ? ; c = "A" | … | "Z" ;', 'a b c'],
  ])('parses %s', (ebnf, names) => {
    expect(
      railroad
        .parseEbnf(ebnf)
        .map((p) => p.name)
        .join(' '),
    ).toBe(names);
  });

  it.each([['a = "x"'], ['a = ( "x" ;'], ['= "x" ;'], ['a = "x ;']])('refuses %s with a message', (ebnf) => {
    expect(() => railroad.parseEbnf(ebnf)).toThrow(/^EBNF: /);
  });
});
