// The docs site's own markdown renderer and guide pages (scripts/build-docs.mjs),
// checked on the cases the guides use and on the real docs/ folder.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface DocsBuild {
  markdownToHtml(markdown: string): { html: string; headings: { level: number; text: string; id: string }[] };
  buildGuides(outDir: string): { pages: string[]; brokenLinks: string[] };
}

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
let docs: DocsBuild;

beforeAll(async () => {
  // Plain ESM without types; loaded by URL so the type checker does not look for declarations.
  const script: string = pathToFileURL(join(ROOT, 'scripts', 'build-docs.mjs')).href;
  docs = (await import(script)) as DocsBuild;
});

describe('markdownToHtml', () => {
  it.each([
    ['# Title', '<h1 id="title">Title</h1>'],
    ['## A `code` heading', '<h2 id="a-code-heading">A <code>code</code> heading</h2>'],
    ['a `b|c` and `<x>`', '<p>a <code>b|c</code> and <code>&lt;x&gt;</code></p>'],
    ['**bold** *it* snake_case_name', '<p><strong>bold</strong> <em>it</em> snake_case_name</p>'],
    [
      '[schema](schema.md#types) [web](https://example.org/a.md)',
      '<p><a href="schema.html#types">schema</a> <a href="https://example.org/a.md">web</a></p>',
    ],
    ['a \\* b <script>', '<p>a * b &lt;script&gt;</p>'],
    [
      '| a | b |\n|---|:-:|\n| `x\\|y` | 2 |',
      '<table>\n<thead><tr><th>a</th><th style="text-align:center">b</th></tr></thead>\n<tbody>\n<tr><td><code>x|y</code></td><td style="text-align:center">2</td></tr>\n</tbody>\n</table>',
    ],
    ['- one\n- two\n  - nested', '<ul>\n<li>one</li>\n<li>two\n<ul>\n<li>nested</li>\n</ul></li>\n</ul>'],
    ['1. first\n2. second', '<ol>\n<li>first</li>\n<li>second</li>\n</ol>'],
    ['> quoted\n> more', '<blockquote>\n<p>quoted\nmore</p>\n</blockquote>'],
    ['```ts\nconst a = 1 < 2;\n```', '<pre><code class="language-ts">const a = 1 &lt; 2;</code></pre>'],
    ['<!-- railroad:filter -->', '<!-- railroad:filter -->'],
    ['one\ntwo\n\nthree', '<p>one\ntwo</p>\n<p>three</p>'],
    ['a | b\nc', '<p>a | b\nc</p>'],
    ['text\n\n---\n\nmore', '<p>text</p>\n<hr>\n<p>more</p>'],
  ])('%j', (markdown, html) => {
    expect(docs.markdownToHtml(markdown).html).toBe(html);
  });

  it('gives repeated headings distinct anchors', () => {
    expect(docs.markdownToHtml('## Examples\n## Examples').headings.map((h) => h.id)).toEqual(['examples', 'examples-1']);
  });
});

describe('buildGuides on docs/', () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'wepql-guides-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('renders the index and the language reference with both railroad diagrams', () => {
    const { pages } = docs.buildGuides(out);
    expect(pages).toContain('index.html');
    expect(pages).toContain('language.html');
    const language = readFileSync(join(out, 'language.html'), 'utf8');
    expect(language).toContain('<iframe class="railroad" title="filter grammar railroad diagram" src="diagrams/filter.html"');
    expect(language).toContain('src="diagrams/sort.html"');
    expect(language).not.toContain('railroad:filter');
    expect(language).toContain('<h2 id="filter-grammar">Filter grammar</h2>');
    const index = readFileSync(join(out, 'index.html'), 'utf8');
    for (const guide of ['language', 'semantics', 'schema', 'diagnostics', 'linting', 'sql', 'server', 'sdk']) {
      expect(index).toContain(`href="${guide}.html"`);
    }
    expect(index).toContain('href="playground/index.html"');
    expect(index).toContain('href="api/index.html"');
  });
});

describe('docs-index-playground-link', () => {
  it('says how to open the playground without building the whole site, with a script that builds it alone', () => {
    const index = readFileSync(join(ROOT, 'docs', 'index.md'), 'utf8');
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const paragraph = index.slice(index.indexOf('[The playground]'), index.indexOf('## Guides'));
    for (const m of paragraph.matchAll(/`npm run ([\w:-]+)`/g)) expect(Object.keys(scripts), m[1]).toContain(m[1]);
    expect(paragraph).toContain('`npm run docs:playground`');
    expect(scripts['docs:playground']).toBe('node scripts/build-docs.mjs --playground');
    expect(paragraph).toContain('docs-site/playground/index.html');
  });
});
