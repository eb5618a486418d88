/**
 * The guide search's index builder and ranking (scripts/build-docs.mjs):
 * sections by heading with their anchors, code blocks left out on purpose,
 * text kept plain so that nothing in a guide becomes markup, and the
 * ranking that puts heading matches above text matches. The page itself is
 * driven in Chromium by test/e2e/docs-search.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

type Row = [page: string, anchor: string, heading: string, pageTitle: string, text: string];
interface Section {
  page: string;
  anchor: string;
  heading: string;
  pageTitle: string;
  text: string;
}
interface Docs {
  markdownToHtml(md: string): { html: string };
  searchSections(page: string, title: string, html: string): Section[];
  rankSections(rows: readonly Row[], query: string, limit?: number): { section: Row; score: number }[];
  buildGuides(out: string, options: { docsDir: string }): { pages: string[]; search: { sections: number; bytes: number } };
}

const ROOT = new URL('../../../', import.meta.url);
const docs = (await import(new URL('scripts/build-docs.mjs', ROOT).href)) as Docs;
const scratch = mkdtempSync(join(tmpdir(), 'wepql-search-index-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sectionsOf = (md: string): Section[] => docs.searchSections('g.html', 'Guide', docs.markdownToHtml(md).html);

describe('searchSections', () => {
  it('one section per heading, with its anchor, and the text before the first heading as the page', () => {
    const sections = sectionsOf(
      'Intro text.\n\n# Guide\n\nFirst *words*.\n\n## Paging a big table\n\nUse `next-page` &amp; tokens.\n\n### Deep\n\nx',
    );
    expect(sections.map((s) => [s.anchor, s.heading, s.text])).toEqual([
      ['', 'Guide', 'Intro text.'],
      ['guide', 'Guide', 'First words.'],
      ['paging-a-big-table', 'Paging a big table', 'Use next-page &amp; tokens.'],
      ['deep', 'Deep', 'x'],
    ]);
  });

  it('leaves fenced code blocks out on purpose and keeps inline code', () => {
    const [, section] = sectionsOf('# G\n\n## Run it\n\nCall `wepql lint`:\n\n```sh\nwepql lint --only-in-code-block\n```\n\nThen read.');
    expect(section!.text).toBe('Call wepql lint: Then read.');
    expect(section!.text).not.toContain('only-in-code-block');
  });

  it('keeps a heading with <script> as plain text, and the written index cannot close a script', () => {
    const md = '# G\n\n## Beware `<script>alert(1)</script>` & <b>bold</b>\n\nBody with `</script><img src=x onerror=alert(2)>`.\n';
    const [, section] = sectionsOf(md);
    expect(section!.heading).toBe('Beware <script>alert(1)</script> & <b>bold</b>');
    expect(section!.text).toContain('</script><img src=x onerror=alert(2)>');
    const dir = join(scratch, 'hostile');
    mkdirSync(join(dir, 'docs'), { recursive: true });
    writeFileSync(join(dir, 'docs', 'index.md'), md);
    const out = join(dir, 'site');
    const built = docs.buildGuides(out, { docsDir: join(dir, 'docs') });
    expect(built.search.sections).toBe(2);
    const script = readFileSync(join(out, 'search-index.js'), 'utf8');
    expect(script).not.toMatch(/</);
    const json = JSON.parse(readFileSync(join(out, 'search-index.json'), 'utf8')) as { sections: Row[] };
    expect(json.sections[1]![2]).toBe('Beware <script>alert(1)</script> & <b>bold</b>');
    // The page itself renders the heading escaped, and loads the index and the script from the site root.
    const page = readFileSync(join(out, 'index.html'), 'utf8');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('<script src="search-index.js"></script><script src="search.js"');
  });
});

describe('rankSections', () => {
  const rows: Row[] = [
    ['a.html', 'intro', 'Intro', 'A', 'Mentions paging in passing and tokens.'],
    ['b.html', 'paging-a-big-table', 'Paging a big table', 'B', 'How to walk.'],
    ['c.html', 'pages', 'Pages', 'C', 'Nothing else.'],
    ['d.html', 'deep', 'Deep', 'D', 'unpaginated text'],
  ];

  it('puts heading matches above text matches, and needs every word', () => {
    expect(docs.rankSections(rows, 'paging').map((h) => h.section[1])).toEqual(['paging-a-big-table', 'intro']);
    expect(docs.rankSections(rows, 'pag').map((h) => h.section[1])).toEqual(['paging-a-big-table', 'pages', 'intro']);
    expect(docs.rankSections(rows, 'paging tokens').map((h) => h.section[1])).toEqual(['intro']);
    // A word must begin a word: "paginated" inside "unpaginated" is no match.
    expect(docs.rankSections(rows, 'paginated')).toEqual([]);
  });

  it('finds nothing for an empty query or punctuation, and treats regex characters as text', () => {
    expect(docs.rankSections(rows, '')).toEqual([]);
    expect(docs.rankSections(rows, '.*(')).toEqual([]);
    expect(docs.rankSections([['x.html', 'x', 'a.b', 'X', '']], 'a.b').map((h) => h.section[1])).toEqual(['x']);
  });

  it('indexes every guide of docs/ and finds a heading of the server guide first', () => {
    const out = join(scratch, 'site');
    const built = docs.buildGuides(out, { docsDir: new URL('docs', ROOT).pathname });
    const { sections } = JSON.parse(readFileSync(join(out, 'search-index.json'), 'utf8')) as { sections: Row[] };
    expect(sections.length).toBe(built.search.sections);
    expect(new Set(sections.map((s) => s[0]))).toEqual(new Set(built.pages));
    const [first] = docs.rankSections(sections, 'scaling out');
    expect(first!.section.slice(0, 3)).toEqual(['server.html', 'scaling-out', 'Scaling out']);
    // Every anchor of the index names a heading of its page.
    for (const [page, anchor] of sections) if (anchor !== '') expect(readFileSync(join(out, page), 'utf8')).toContain(` id="${anchor}"`);
    expect(pathToFileURL(out).href).toMatch(/^file:/);
  });
});
