// `npm run docs` (after `npm run build`): builds the documentation site into
// docs-site/ — the guides in docs/*.md as HTML, the language reference with
// railroad diagrams drawn from grammar/filter.ebnf and grammar/sort.ebnf, the TypeDoc API
// reference of src/index.ts, and the playground. Each part is an exported
// function so tests can build one part into a temporary directory.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

// ---------------------------------------------------------------------------
// Markdown → HTML: the subset the guides use (headings, paragraphs, lists,
// fenced code, tables, block quotes, rules, links, emphasis, code spans and
// raw HTML blocks). Small on purpose: no new dependency for the docs.
// ---------------------------------------------------------------------------

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A heading's anchor: lower-case words joined by `-`, as GitHub makes them. */
export function slugify(text) {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');
}

/**
 * Rewrites a link to another guide (`schema.md#types`) to its page
 * (`schema.html#types`). The guides sit at the site's root, and a file of
 * the repository they link to (`../examples/sql/x.mjs`, `../bench/RESULTS.md`)
 * is copied (or rendered) to the same path inside the site, so `../` is
 * dropped: the link then works wherever the site is served from.
 */
function rewriteHref(href) {
  if (/^[a-z]+:/i.test(href) || href.startsWith('#') || href.startsWith('/')) return href;
  return href.replace(/^(\.\.\/)+/, '').replace(/\.md(?=$|#)/, '.html');
}

/** The repository files a guide links to (`../path`), as paths from the repository root. */
export function repositoryLinks(markdown) {
  const links = new Set();
  for (const m of markdown.matchAll(/\]\((\.\.\/[^)#\s]+)(#[^)]*)?\)/g)) links.add(m[1].replace(/^(\.\.\/)+/, ''));
  return [...links];
}

/**
 * Puts the repository files the guides link to into the site at their own
 * paths: a markdown file rendered as a page (`bench/RESULTS.md` →
 * `bench/RESULTS.html`), anything else copied as it is. Returns the site
 * paths written and the links to files that do not exist.
 */
export function copyLinkedFiles(outDir, files, { root = ROOT } = {}) {
  const written = [];
  const missing = [];
  for (const file of files) {
    const from = join(root, file);
    if (!existsSync(from)) {
      missing.push(file);
      continue;
    }
    const to = join(outDir, file.replace(/\.md$/, '.html'));
    mkdirSync(join(to, '..'), { recursive: true });
    if (file.endsWith('.md')) {
      const { html, headings } = markdownToHtml(readFileSync(from, 'utf8'));
      const base = '../'.repeat(file.split('/').length - 1);
      writeFileSync(to, layout({ title: headings.find((h) => h.level === 1)?.text ?? file, body: html, base }));
    } else copyFileSync(from, to);
    written.push(relative(outDir, to));
  }
  return { written, missing };
}

// ---------------------------------------------------------------------------
// Link check: every href and src of every page of the built site resolves
// ---------------------------------------------------------------------------

function* htmlPages(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlPages(path);
    else if (entry.name.endsWith('.html')) yield path;
  }
}

const decodeEntities = (text) =>
  text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[e]);

/** The ids (and `name`s) a page defines, for `#fragment` links. */
function anchorsOf(html) {
  const ids = new Set();
  for (const m of html.matchAll(/\s(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) ids.add(decodeEntities(m[1] ?? m[2]));
  return ids;
}

/**
 * Every link of every HTML page under `siteDir` that does not resolve: a
 * relative `href`/`src` to a file that is not in the site (or lies outside
 * it), or a `#fragment` that names no id on its page. Links with a scheme
 * (`https:`, `mailto:`, `data:`) are not fetched. Returns one line per
 * broken link: `page → link (why)`.
 */
export function checkSiteLinks(siteDir) {
  const root = resolve(siteDir);
  const anchors = new Map();
  const anchorsIn = (file) => {
    if (!anchors.has(file)) anchors.set(file, anchorsOf(readFileSync(file, 'utf8')));
    return anchors.get(file);
  };
  const broken = [];
  for (const page of htmlPages(root)) {
    const html = readFileSync(page, 'utf8');
    // Script and style bodies hold no links of the page (and may hold strings that look like one).
    const markup = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '<script>').replace(/<style\b[^>]*>[\s\S]*?<\/style>/gi, '<style>');
    for (const m of markup.matchAll(/\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      const link = decodeEntities(m[1] ?? m[2]);
      if (link === '' || /^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
      const [pathAndQuery, fragment = ''] = link.split('#', 2);
      const path = decodeURIComponent(pathAndQuery.split('?')[0]);
      let target = path === '' ? page : path.startsWith('/') ? join(root, path) : resolve(page, '..', path);
      const where = `${relative(root, page)} → ${link}`;
      if (target !== root && !target.startsWith(`${root}/`)) {
        broken.push(`${where} (outside the site)`);
        continue;
      }
      if (existsSync(target) && statSync(target).isDirectory()) target = join(target, 'index.html');
      if (!existsSync(target)) {
        broken.push(`${where} (no such file)`);
        continue;
      }
      if (fragment !== '' && target.endsWith('.html') && !anchorsIn(target).has(decodeURIComponent(fragment))) {
        broken.push(`${where} (no id "${decodeURIComponent(fragment)}" on that page)`);
      }
    }
  }
  return broken;
}

/** Inline markdown of one line or paragraph to HTML. */
export function renderInline(text) {
  const codes = [];
  // Code spans first, so nothing inside them is read as markdown.
  let out = text.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_, __, code) => {
    codes.push(`<code>${escapeHtml(code.trim() === '' ? code : code.replace(/^ (.*) $/s, '$1'))}</code>`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  const escapes = [];
  out = out.replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, (_, ch) => {
    escapes.push(escapeHtml(ch));
    return `\u0001${escapes.length - 1}\u0001`;
  });
  out = escapeHtml(out);
  out = out.replace(/&lt;(https?:\/\/[^\s&]+)&gt;/g, (_, url) => `<a href="${url}">${url}</a>`);
  out = out.replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (_, alt, src) => `<img src="${src}" alt="${alt}">`);
  out = out.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label, href) => `<a href="${rewriteHref(href)}">${label}</a>`);
  out = out.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  out = out.replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\w)/g, '$1<em>$2</em>');
  out = out.replace(/(^|[^\w])_([^_\s][^_]*)_(?!\w)/g, '$1<em>$2</em>');
  out = out.replace(/\u0001(\d+)\u0001/g, (_, i) => escapes[+i]);
  return out.replace(/\u0000(\d+)\u0000/g, (_, i) => codes[+i]);
}

/** Splits a table row into cells at `|`s that are not escaped or inside a code span. */
function tableCells(line) {
  let body = line.trim();
  if (body.startsWith('|')) body = body.slice(1);
  if (body.endsWith('|') && !body.endsWith('\\|')) body = body.slice(0, -1);
  const cells = [];
  let cell = '';
  let inCode = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\' && body[i + 1] === '|') {
      cell += inCode ? '|' : '\\|';
      i++;
    } else if (c === '`') {
      inCode = !inCode;
      cell += c;
    } else if (c === '|' && !inCode) {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

const TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;

/**
 * Markdown to HTML. Returns the HTML and the headings (for a page's title
 * and table of contents).
 */
export function markdownToHtml(markdown) {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const headings = [];
  const usedSlugs = new Map();
  const html = renderBlocks(lines, headings, usedSlugs);
  return { html, headings };
}

function renderBlocks(lines, headings, usedSlugs) {
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = /^(\s*)(```+|~~~+)\s*([\w-]*)/.exec(line);
    if (fence) {
      const [, indent, marker, lang] = fence;
      const body = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(marker)) {
        body.push(lines[i].startsWith(indent) ? lines[i].slice(indent.length) : lines[i]);
        i++;
      }
      i++;
      const cls = lang ? ` class="language-${escapeHtml(lang)}"` : '';
      out.push(`<pre><code${cls}>${escapeHtml(body.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const level = heading[1].length;
      const inner = renderInline(heading[2]);
      let slug = slugify(inner) || 'section';
      const seen = usedSlugs.get(slug) ?? 0;
      usedSlugs.set(slug, seen + 1);
      if (seen > 0) slug = `${slug}-${seen}`;
      headings.push({ level, text: inner.replace(/<[^>]*>/g, ''), id: slug });
      out.push(`<h${level} id="${slug}">${inner}</h${level}>`);
      i++;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push('<hr>');
      i++;
      continue;
    }
    if (/^\s*<!--/.test(line)) {
      // A comment ends at its `-->` (as in CommonMark), so a fence right below it is still a fence.
      const block = [];
      while (i < lines.length && !lines[i].includes('-->')) block.push(lines[i++]);
      if (i < lines.length) block.push(lines[i++]);
      out.push(block.join('\n'));
      continue;
    }
    if (/^\s*<[!/a-zA-Z]/.test(line)) {
      // A raw HTML block: passed through up to the next blank line.
      const block = [];
      while (i < lines.length && lines[i].trim() !== '') block.push(lines[i++]);
      out.push(block.join('\n'));
      continue;
    }
    if (
      line.includes('|') &&
      i + 1 < lines.length &&
      TABLE_RULE.test(lines[i + 1]) &&
      tableCells(line).length === tableCells(lines[i + 1]).length
    ) {
      const head = tableCells(line);
      const aligns = tableCells(lines[i + 1]).map((c) =>
        c.startsWith(':') && c.endsWith(':') ? 'center' : c.endsWith(':') ? 'right' : c.startsWith(':') ? 'left' : '',
      );
      const style = (k) => (aligns[k] ? ` style="text-align:${aligns[k]}"` : '');
      i += 2;
      const rows = [];
      while (i < lines.length && lines[i].includes('|') && lines[i].trim() !== '') rows.push(tableCells(lines[i++]));
      out.push(
        '<table>\n<thead><tr>' +
          head.map((c, k) => `<th${style(k)}>${renderInline(c)}</th>`).join('') +
          '</tr></thead>\n<tbody>\n' +
          rows.map((r) => '<tr>' + head.map((_, k) => `<td${style(k)}>${renderInline(r[k] ?? '')}</td>`).join('') + '</tr>').join('\n') +
          '\n</tbody>\n</table>',
      );
      continue;
    }
    if (/^\s*>/.test(line)) {
      const quoted = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) quoted.push(lines[i++].replace(/^\s*>\s?/, ''));
      out.push(`<blockquote>\n${renderBlocks(quoted, headings, usedSlugs)}\n</blockquote>`);
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      const baseIndent = item[1].length;
      const ordered = /\d/.test(item[2]);
      const items = [];
      while (i < lines.length) {
        const m = LIST_ITEM.exec(lines[i]);
        if (m && m[1].length === baseIndent && /\d/.test(m[2]) === ordered) {
          items.push([m[3]]);
          i++;
          continue;
        }
        // Continuation: an indented line, or a blank line followed by one.
        const indented = (l) => l.trim() !== '' && l.length - l.trimStart().length > baseIndent;
        if (indented(lines[i])) {
          items[items.length - 1].push(lines[i].slice(Math.min(baseIndent + 2, lines[i].length - lines[i].trimStart().length)));
          i++;
          continue;
        }
        if (lines[i].trim() === '' && i + 1 < lines.length && indented(lines[i + 1])) {
          items[items.length - 1].push('');
          i++;
          continue;
        }
        break;
      }
      const tag = ordered ? 'ol' : 'ul';
      const rendered = items.map((body) => {
        const [first, ...rest] = body;
        // Lazy continuation lines belong to the item's first paragraph.
        const para = [first];
        while (rest.length > 0 && rest[0].trim() !== '' && !LIST_ITEM.test(rest[0]) && !/^\s*(```|~~~)/.test(rest[0])) {
          para.push(rest.shift().trim());
        }
        const tail = rest.length > 0 ? '\n' + renderBlocks(rest, headings, usedSlugs) : '';
        return `<li>${renderInline(para.join(' '))}${tail}</li>`;
      });
      out.push(`<${tag}>\n${rendered.join('\n')}\n</${tag}>`);
      continue;
    }
    const para = [];
    while (
      i < lines.length &&
      lines[i].trim() !== '' &&
      !/^(#{1,6}\s|\s*(```|~~~)|\s*>|\s*<[!/a-zA-Z])/.test(lines[i]) &&
      !LIST_ITEM.test(lines[i])
    ) {
      para.push(lines[i++].trim());
    }
    if (para.length === 0) {
      out.push(`<p>${renderInline(lines[i++].trim())}</p>`);
      continue;
    }
    out.push(`<p>${renderInline(para.join('\n'))}</p>`);
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------
// Pages
// ---------------------------------------------------------------------------

const STYLE = `
:root { --fg: #1d2330; --muted: #5b6475; --accent: #1f5fbf; --bg: #ffffff; --code: #f3f5f8; --rule: #dde2ea; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header.site { background: #14213d; color: #fff; padding: .6rem 1.5rem; display: flex; gap: 1.5rem; align-items: baseline; flex-wrap: wrap; }
header.site a { color: #fff; text-decoration: none; }
header.site .brand { font-weight: 700; font-size: 1.2rem; }
header.site nav a { margin-right: 1rem; opacity: .85; }
header.site nav a:hover, header.site nav a.current { opacity: 1; text-decoration: underline; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
h1, h2, h3 { line-height: 1.25; }
h2 { border-bottom: 1px solid var(--rule); padding-bottom: .2rem; margin-top: 2.2rem; }
a { color: var(--accent); }
code { background: var(--code); padding: .1em .3em; border-radius: 3px; font: .9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--code); padding: .8rem 1rem; border-radius: 6px; overflow-x: auto; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; margin: 1rem 0; display: block; overflow-x: auto; }
th, td { border: 1px solid var(--rule); padding: .35rem .6rem; text-align: left; vertical-align: top; }
th { background: #f7f9fc; }
blockquote { margin: 1rem 0; padding: .2rem 1rem; border-left: 4px solid var(--rule); color: var(--muted); }
nav.toc { font-size: .92rem; background: #f7f9fc; border: 1px solid var(--rule); border-radius: 6px; padding: .5rem 1rem; margin: 1rem 0 2rem; }
nav.toc ul { margin: .2rem 0; padding-left: 1.2rem; }
iframe.railroad { width: 100%; border: 1px solid var(--rule); border-radius: 6px; min-height: 24rem; background: hsl(30, 20%, 95%); }
footer { color: var(--muted); font-size: .85rem; border-top: 1px solid var(--rule); margin-top: 3rem; padding-top: 1rem; }
form.search { position: relative; margin-left: auto; }
form.search input { font: inherit; font-size: .95rem; padding: .25rem .5rem; border-radius: 4px; border: 1px solid #8a94a8; width: 16rem; }
#search-results { position: absolute; right: 0; top: 2.1rem; z-index: 10; width: 28rem; max-height: 70vh; overflow-y: auto; margin: 0; padding: .3rem 0;
  list-style: none; background: #fff; color: var(--fg); border: 1px solid var(--rule); border-radius: 6px; box-shadow: 0 6px 24px rgba(0,0,0,.18); }
#search-results li { padding: .35rem .8rem; }
#search-results li a { color: var(--fg); text-decoration: none; display: block; }
#search-results li a:hover, #search-results li a:focus { background: #f0f4fb; outline: none; }
#search-results .where { color: var(--muted); font-size: .85rem; }
#search-results .snippet { display: block; color: var(--muted); font-size: .85rem; }
#search-results mark, h1:target, h2:target, h3:target, h4:target, h5:target, h6:target { background: #fff0a8; }
`;

/**
 * Wraps a page body in the site's layout; `base` is the path back to the
 * site root. With `search`, the header holds the guides' search box (its
 * index and script are the site's search-index.js and search.js).
 */
export function layout({ title, body, current = '', base = '', guides = [], search = false }) {
  const links = [
    ['index.html', 'Guides'],
    ['language.html', 'Language'],
    ['api/index.html', 'API'],
    ['playground/index.html', 'Playground'],
  ]
    .filter(([href]) => href !== 'language.html' || guides.includes('language'))
    .map(([href, label]) => `<a href="${base}${href}"${href === current ? ' class="current"' : ''}>${label}</a>`)
    .join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — wepql</title>
<style>${STYLE}</style>
</head>
<body>
<header class="site"><a class="brand" href="${base}index.html">wepql</a><nav>${links}</nav>${search ? searchBox(base) : ''}</header>
<main>
${body}
<footer>wepql — filter and sort language toolkit. Generated by <code>npm run docs</code>.</footer>
</main>
</body>
</html>
`;
}

function tableOfContents(headings) {
  const entries = headings.filter((h) => h.level === 2 || h.level === 3);
  if (entries.length < 3) return '';
  const items = entries
    .map((h) => `<li${h.level === 3 ? ' style="margin-left:1rem"' : ''}><a href="#${h.id}">${escapeHtml(h.text)}</a></li>`)
    .join('\n');
  return `<nav class="toc"><strong>On this page</strong><ul>\n${items}\n</ul></nav>`;
}

const RAILROAD_MARKER = /<!--\s*railroad:(filter|sort)\s*-->/g;

/**
 * Renders every docs/*.md guide into `outDir` as `<name>.html`. A
 * `<!-- railroad:filter -->` / `<!-- railroad:sort -->` comment in a guide
 * becomes the diagram of that grammar (built by `buildDiagrams`). Returns
 * the pages written and the links to guides that do not exist.
 */
export function buildGuides(outDir, { docsDir = join(ROOT, 'docs') } = {}) {
  mkdirSync(outDir, { recursive: true });
  const names = readdirSync(docsDir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => basename(f, '.md'))
    .sort();
  const pages = [];
  const brokenLinks = [];
  const linkedFiles = new Set();
  const sections = [];
  for (const name of names) {
    const markdown = readFileSync(join(docsDir, `${name}.md`), 'utf8');
    for (const file of repositoryLinks(markdown)) linkedFiles.add(file);
    const { html, headings } = markdownToHtml(markdown);
    for (const m of markdown.matchAll(/\]\(([^)#\s]+\.md)(#[^)]*)?\)/g)) {
      if (!/^[a-z]+:/i.test(m[1]) && !existsSync(join(docsDir, m[1]))) brokenLinks.push(`${name}.md → ${m[1]}`);
    }
    const title = headings.find((h) => h.level === 1)?.text ?? name;
    const h1End = html.indexOf('</h1>');
    const toc = tableOfContents(headings);
    const withToc = h1End >= 0 ? html.slice(0, h1End + 5) + '\n' + toc + html.slice(h1End + 5) : toc + html;
    const body = withToc.replace(
      RAILROAD_MARKER,
      (_, grammar) =>
        `<iframe class="railroad" title="${grammar} grammar railroad diagram" src="diagrams/${grammar}.html" ` +
        `onload="try{this.style.height=(this.contentDocument.documentElement.scrollHeight+24)+'px'}catch(e){}"></iframe>` +
        `<p><a href="diagrams/${grammar}.html">Open the ${grammar} diagram on its own page</a></p>`,
    );
    const current = name === 'index' ? 'index.html' : name === 'language' ? 'language.html' : '';
    writeFileSync(join(outDir, `${name}.html`), layout({ title, body, current, guides: names, search: true }));
    pages.push(`${name}.html`);
    for (const section of searchSections(`${name}.html`, title, html)) sections.push(section);
  }
  const search = writeSearchFiles(outDir, sections);
  return { pages, brokenLinks, linkedFiles: [...linkedFiles].sort(), search };
}

// ---------------------------------------------------------------------------
// Guide search: an index of sections written at build time, searched in the
// page by a small script (no network: the index is a script, which a page
// opened from file:// may load where it may not fetch a JSON file)
// ---------------------------------------------------------------------------

// Block tags part words; inline tags (code, em, a) do not, so `*words*.` reads "words.".
const stripTags = (html) =>
  decodeEntities(
    html
      .replace(/<\/?(?:p|li|ul|ol|h[1-6]|table|thead|tbody|tr|td|th|blockquote|div|br|hr|iframe|pre)\b[^>]*>/gi, ' ')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The sections of one rendered guide, for the search index: each heading
 * with its anchor and the plain text up to the next heading (text before the
 * first heading belongs to the page itself). Fenced code blocks are left
 * out on purpose — they repeat what the prose around them names, and would
 * make the index several times larger — while inline code stays. The text
 * is plain (tags removed, entities decoded): the page's script puts it in
 * the page as text, never as markup.
 */
export function searchSections(page, pageTitle, html) {
  const prose = html
    .replace(/<pre\b[\s\S]*?<\/pre>/gi, ' ')
    .replace(/<script\b[\s\S]*?<\/script>/gi, ' ')
    .replace(/<style\b[\s\S]*?<\/style>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ');
  const sections = [];
  const heading = /<h([1-6]) id="([^"]*)">([\s\S]*?)<\/h\1>/g;
  let last = { anchor: '', title: pageTitle, from: 0 };
  const close = (to) => {
    const text = stripTags(prose.slice(last.from, to));
    if (last.anchor !== '' || text !== '') sections.push({ page, anchor: last.anchor, heading: last.title, pageTitle, text });
  };
  for (let m = heading.exec(prose); m !== null; m = heading.exec(prose)) {
    close(m.index);
    last = { anchor: decodeEntities(m[2]), title: stripTags(m[3]), from: m.index + m[0].length };
  }
  close(prose.length);
  return sections;
}

/**
 * Writes the search index (`search-index.json`, and the same data as
 * `search-index.js` for pages opened from disk) and the page script
 * (`search.js`) into `outDir`. Returns the sections indexed and the index's
 * size in bytes.
 */
export function writeSearchFiles(outDir, sections) {
  const json = JSON.stringify({ sections: sections.map((s) => [s.page, s.anchor, s.heading, s.pageTitle, s.text]) });
  writeFileSync(join(outDir, 'search-index.json'), json);
  // `<` written as \u003c: no text of a guide can close the script or open a tag.
  writeFileSync(join(outDir, 'search-index.js'), `window.WEPQL_SEARCH_INDEX = ${json.replace(/</g, '\\u003c')};\n`);
  writeFileSync(join(outDir, 'search.js'), SEARCH_SCRIPT);
  return { sections: sections.length, bytes: Buffer.byteLength(json) };
}

/** `text` as a regular expression that matches it literally (written into search.js too). */
export function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The sections matching a query, best first: every word of the query must
 * begin a word of the section's heading or text (so `pagin` finds
 * "paginate"); a word found in the heading counts ten times one found in
 * the text only, a whole-word match beats a prefix, and a heading that
 * starts with the query beats them all. `sections` are the index's rows
 * (`[page, anchor, heading, pageTitle, text]`). Runs in the page as well
 * (it is written into search.js), so it uses nothing but the language.
 */
export function rankSections(sections, query, limit = 12) {
  const words = (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) || []).slice(0, 8);
  if (words.length === 0) return [];
  const starts = words.map((w) => new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRegExp(w)}`, 'iu'));
  const whole = words.map((w) => new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRegExp(w)}(?![\\p{L}\\p{N}])`, 'iu'));
  const phrase = query.trim().toLowerCase();
  const hits = [];
  for (let i = 0; i < sections.length; i++) {
    const [, , heading, , text] = sections[i];
    let score = 0;
    let all = true;
    for (let k = 0; k < words.length && all; k++) {
      if (starts[k].test(heading)) score += whole[k].test(heading) ? 12 : 10;
      else if (starts[k].test(text)) score += whole[k].test(text) ? 1.2 : 1;
      else all = false;
    }
    if (!all) continue;
    if (heading.toLowerCase().startsWith(phrase)) score += 20;
    hits.push({ index: i, score });
  }
  // Best first; equal scores keep the index's order (the guides', then the sections').
  hits.sort((a, b) => b.score - a.score || a.index - b.index);
  return hits.slice(0, limit).map((h) => ({ section: sections[h.index], score: h.score, words }));
}

/** The search box of the header (the results list fills in as one types). */
function searchBox(base) {
  return (
    `<form class="search" role="search" onsubmit="return false">` +
    `<input type="search" id="site-search" placeholder="Search the guides" aria-label="Search the guides" autocomplete="off" aria-controls="search-results">` +
    `<ol id="search-results" aria-live="polite" hidden></ol></form>` +
    `<script src="${base}search-index.js"></script><script src="${base}search.js" data-base="${escapeHtml(base)}"></script>`
  );
}

/**
 * The page's search (search.js): results as the user types, built with DOM
 * text nodes only; Enter opens the first hit, Escape clears the box.
 */
const SEARCH_SCRIPT = `// wepql guide search: generated by scripts/build-docs.mjs (npm run docs).
(function () {
  'use strict';
  var escapeRegExp = ${escapeRegExp.toString()};
  var rankSections = ${rankSections.toString()};
  var script = document.currentScript;
  var base = (script && script.getAttribute('data-base')) || '';
  var input = document.getElementById('site-search');
  var list = document.getElementById('search-results');
  var index = window.WEPQL_SEARCH_INDEX;
  if (!input || !list || !index) return;
  var sections = index.sections;

  // The text with each query word's matches in <mark>, as text nodes and elements, never as markup.
  function highlighted(text, words) {
    var frag = document.createDocumentFragment();
    var pattern = new RegExp('(' + words.map(escapeRegExp).join('|') + ')', 'giu');
    var at = 0;
    text.replace(pattern, function (match, _w, offset) {
      if (offset > at) frag.appendChild(document.createTextNode(text.slice(at, offset)));
      var mark = document.createElement('mark');
      mark.textContent = match;
      frag.appendChild(mark);
      at = offset + match.length;
      return match;
    });
    if (at < text.length) frag.appendChild(document.createTextNode(text.slice(at)));
    return frag;
  }

  // Up to 160 characters of the text around its first match.
  function snippet(text, words) {
    var lower = text.toLowerCase();
    var first = -1;
    words.forEach(function (w) { var i = lower.indexOf(w); if (i >= 0 && (first < 0 || i < first)) first = i; });
    var from = Math.max(0, first - 60);
    return (from > 0 ? '… ' : '') + text.slice(from, from + 160) + (from + 160 < text.length ? ' …' : '');
  }

  function render() {
    var query = input.value;
    list.textContent = '';
    if (query.trim() === '') { list.hidden = true; return; }
    var hits = rankSections(sections, query);
    if (hits.length === 0) {
      var none = document.createElement('li');
      none.className = 'none';
      none.textContent = 'No results for \u201c' + query.trim() + '\u201d';
      list.appendChild(none);
    }
    hits.forEach(function (hit) {
      var s = hit.section;
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = base + s[0] + (s[1] ? '#' + encodeURIComponent(s[1]) : '');
      var strong = document.createElement('strong');
      strong.appendChild(highlighted(s[2], hit.words));
      a.appendChild(strong);
      if (s[2] !== s[3]) {
        var where = document.createElement('span');
        where.className = 'where';
        where.textContent = ' \u2014 ' + s[3];
        a.appendChild(where);
      }
      if (s[4]) {
        var small = document.createElement('span');
        small.className = 'snippet';
        small.appendChild(highlighted(snippet(s[4], hit.words), hit.words));
        a.appendChild(small);
      }
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = false;
  }

  input.addEventListener('input', render);
  input.addEventListener('keydown', function (event) {
    if (event.key === 'Enter') {
      var first = list.querySelector('a');
      if (first) { event.preventDefault(); window.location.href = first.href; }
    } else if (event.key === 'Escape') {
      input.value = '';
      render();
    }
  });
})();
`;

// ---------------------------------------------------------------------------
// Railroad diagrams, drawn from grammar/*.ebnf (scripts/railroad.mjs)
// ---------------------------------------------------------------------------

/**
 * Writes `diagrams/filter.html` and `diagrams/sort.html` into `outDir`: one
 * railroad diagram per production of grammar/filter.ebnf and
 * grammar/sort.ebnf, as static SVG (the pages need no script and work
 * offline).
 */
export async function buildDiagrams(outDir, { grammarDir = join(ROOT, 'grammar') } = {}) {
  const { railroadPage } = await import('./railroad.mjs');
  const target = join(outDir, 'diagrams');
  mkdirSync(target, { recursive: true });
  const written = [];
  for (const name of ['filter', 'sort']) {
    const ebnf = readFileSync(join(grammarDir, `${name}.ebnf`), 'utf8');
    writeFileSync(join(target, `${name}.html`), railroadPage(`wepql ${name} grammar`, ebnf));
    written.push(`diagrams/${name}.html`);
  }
  return written;
}

// ---------------------------------------------------------------------------
// API reference (TypeDoc)
// ---------------------------------------------------------------------------

/**
 * Collects what TypeDoc logs while `app` runs: the exports it reports as
 * undocumented, and every other warning (each also printed, as TypeDoc would).
 */
function captureWarnings(app, LogLevel) {
  const undocumented = [];
  const warnings = [];
  const log = app.logger.log.bind(app.logger);
  app.logger.log = (message, level) => {
    const plain = message.replace(/\x1b\[[0-9;]*m/g, '');
    if (level === LogLevel.Warn && /does not have any documentation/.test(message)) {
      undocumented.push(plain);
      return;
    }
    if (level === LogLevel.Warn) warnings.push(plain);
    log(message, level);
  };
  return { undocumented, warnings };
}

/** The exports of a converted project whose comments have no `@example` (`module: name`, or the name alone for one entry). */
function exportsWithoutExample(project, ReflectionKind) {
  // One entry point gives the exports as children; several (package.json exports) give one module each.
  // A name exported by two entries is documented once; the second is a reference to the first.
  const exported = (project.children ?? []).flatMap((c) =>
    c.kind === ReflectionKind.Module
      ? (c.children ?? []).filter((e) => e.kind !== ReflectionKind.Reference).map((e) => ({ module: c.name, reflection: e }))
      : [{ module: '', reflection: c }],
  );
  const withoutExample = [];
  for (const { module, reflection: child } of exported) {
    const comments = [child.comment, ...(child.signatures ?? []).map((s) => s.comment)].filter(Boolean);
    const hasExample = comments.some((c) => c.blockTags.some((t) => t.tag === '@example'));
    if (!hasExample) withoutExample.push(module === '' ? child.name : `${module}: ${child.name}`);
  }
  // Each entry's module page opens with its overview: the entry file's @packageDocumentation comment.
  const withoutOverview = (project.children ?? [])
    .filter((c) => c.kind === ReflectionKind.Module && (c.comment?.summary ?? []).every((part) => part.text.trim() === ''))
    .map((c) => c.name);
  return { exports: exported.length, withoutExample, withoutOverview };
}

/**
 * Runs TypeDoc on the entries of package.json `exports` (typedoc.json, kept in
 * step by `npm run api:update`) into `outDir`.
 * Counts the exports TypeDoc reports as undocumented and, separately, the
 * top-level exports whose comment has no `@example`.
 */
export async function buildApiDocs(outDir) {
  const { Application, Converter, TypeDocReader, TSConfigReader, LogLevel, ReflectionKind } = await import('typedoc');
  const { exportEntries } = await import('./api-report.mjs');
  const app = await Application.bootstrapWithPlugins({ options: join(ROOT, 'typedoc.json'), out: outDir, logLevel: 'Warn' }, [
    new TypeDocReader(),
    new TSConfigReader(),
  ]);
  // Modules are named as users import them (`wepql/kysely`), not by their path under src/
  // (`query-builders/kysely`): the names come from package.json `exports`, as the entry points do.
  const importNames = new Map(
    exportEntries()
      .filter((e) => e.source !== undefined)
      .map((e) => [resolve(ROOT, e.source), e.specifier]),
  );
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (reflection.kind !== ReflectionKind.Module) return;
    const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile().fileName;
    const name = file === undefined ? undefined : importNames.get(resolve(file));
    if (name !== undefined) reflection.name = name;
  });
  const { undocumented, warnings } = captureWarnings(app, LogLevel);
  const project = await app.convert();
  if (project === undefined) throw new Error('typedoc could not convert the entry points of typedoc.json');
  app.validate(project);
  await app.generateDocs(project, outDir);
  relativiseNavigationLinks(outDir, JSON.parse(readFileSync(join(ROOT, 'typedoc.json'), 'utf8')).navigationLinks ?? {});
  const { exports, withoutExample, withoutOverview } = exportsWithoutExample(project, ReflectionKind);
  return { exports, modules: (project.children ?? []).map((c) => c.name), undocumented, withoutExample, withoutOverview, warnings };
}

/**
 * The checks of `buildApiDocs` without writing the site, run on the BUILT
 * declarations (`dist/**\/*.d.ts`, the entries of typedoc.json moved from
 * src/ to dist/): TypeDoc's validation (`notExported`, `invalidLink`,
 * `notDocumented`) and the `@example` count. Declarations hold no function
 * bodies, so this takes about half the CPU time of converting src/ (11.7 s
 * against 22.5 s on the whole API), which is what lets `npm test` run it
 * (test/unit/docs/api-docs-validation.test.ts) so that a warning that fails
 * `npm run docs` fails the tests too. `entryPoints` and `typedocOptions`
 * replace typedoc.json's for a test's own fixture, and `compilerOptions`
 * are laid over the repository's tsconfig.json for it (a one-file fixture
 * needs neither the DOM library nor Node's types, which are most of what a
 * program of it would otherwise parse).
 */
export async function validateApiDocs({ root = ROOT, entryPoints, typedocOptions, compilerOptions = {} } = {}) {
  const { Application, TSConfigReader, LogLevel, ReflectionKind } = await import('typedoc');
  const {
    $schema: _schema,
    entryPoints: configured,
    tsconfig: _tsconfig,
    out: _out,
    navigationLinks: _links,
    ...options
  } = typedocOptions ?? JSON.parse(readFileSync(join(ROOT, 'typedoc.json'), 'utf8'));
  const files = (entryPoints ?? configured.map((e) => e.replace(/^src\//, 'dist/').replace(/\.ts$/, '.d.ts'))).map((e) => resolve(root, e));
  for (const file of files) if (!existsSync(file)) throw new Error(`${relative(root, file)} does not exist: run npm run build first`);
  // A tsconfig of just those files, in a folder of its own (TypeDoc reads the program from a tsconfig file).
  const scratch = mkdtempSync(join(tmpdir(), 'wepql-typedoc-'));
  try {
    const tsconfig = join(scratch, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        extends: join(ROOT, 'tsconfig.json'),
        compilerOptions: { noEmit: true, typeRoots: [join(ROOT, 'node_modules', '@types')], ...compilerOptions },
        files,
        include: [],
      }),
    );
    const app = await Application.bootstrapWithPlugins({ ...options, entryPoints: files, tsconfig, logLevel: 'Warn' }, [
      new TSConfigReader(),
    ]);
    const { undocumented, warnings } = captureWarnings(app, LogLevel);
    const project = await app.convert();
    if (project === undefined) throw new Error(`typedoc could not convert ${files.join(', ')}`);
    app.validate(project);
    const { exports, withoutExample, withoutOverview } = exportsWithoutExample(project, ReflectionKind);
    return { exports, undocumented, withoutExample, withoutOverview, warnings };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * TypeDoc writes typedoc.json's `navigationLinks` (`../index.html`, relative
 * to api/) verbatim into every page, also the pages one folder down
 * (api/functions/…), where they would point inside api/. Each page gets them
 * with one more `../` per folder it sits below api/.
 */
function relativiseNavigationLinks(apiDir, links) {
  for (const page of htmlPages(apiDir)) {
    const depth = relative(apiDir, page).split('/').length - 1;
    if (depth === 0) continue;
    let html = readFileSync(page, 'utf8');
    for (const [label, href] of Object.entries(links)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
      const escaped = escapeHtml(href).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      html = html.replace(
        new RegExp(`href="${escaped}"((?: class="tsd-nav-link")?>${escapeHtml(label)}</a>)`, 'g'),
        `href="${'../'.repeat(depth)}${escapeHtml(href)}"$1`,
      );
    }
    writeFileSync(page, html);
  }
}

/**
 * STYLE.md: every public export has TSDoc with one `@example`. The count of
 * exports that break the rule reached zero, so the docs build now fails on
 * any new one, so that the rule cannot slip again.
 */
export const REQUIRE_COMPLETE_API_DOCS = true;

/**
 * The exports of a `buildApiDocs` result that break STYLE.md's rule, one line
 * each, and whether the build must fail because of them.
 */
export function apiDocGaps(api, { strict = REQUIRE_COMPLETE_API_DOCS } = {}) {
  const gaps = [
    ...api.undocumented.map((m) => m.replace(/^\s*\[warning\]\s*/, '')),
    ...api.withoutExample.map((name) => `${name} has no @example`),
    ...(api.withoutOverview ?? []).map((name) => `${name} has no overview (a @packageDocumentation comment atop its entry file)`),
  ];
  return { gaps, fail: strict && gaps.length > 0 };
}

// ---------------------------------------------------------------------------
// Playground
// ---------------------------------------------------------------------------

/**
 * Bundles docs/playground/main.ts (which imports the library from src/,
 * `wepql/codemirror` with CodeMirror, and the sample employees) with esbuild for the browser and
 * copies its page into `outDir`. Returns the bundle's size and the part of it that is sample data, in bytes.
 */
export async function buildPlayground(outDir) {
  const esbuild = await import('esbuild');
  mkdirSync(outDir, { recursive: true });
  const result = await esbuild.build({
    entryPoints: [join(ROOT, 'docs', 'playground', 'main.ts')],
    outfile: join(outDir, 'main.js'),
    bundle: true,
    // A classic script, not a module: Chromium refuses module scripts of a page opened from file://.
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    metafile: true,
    logLevel: 'silent',
    // React (the visual builder) reads process.env.NODE_ENV, which a browser does not have.
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  copyFileSync(join(ROOT, 'docs', 'playground', 'index.html'), join(outDir, 'index.html'));
  const [, output] = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('main.js')) ?? [];
  let dataBytes = 0;
  for (const [input, info] of Object.entries(output?.inputs ?? {})) if (input.endsWith('.json')) dataBytes += info.bytesInOutput;
  return { bytes: output?.bytes ?? 0, dataBytes };
}

// ---------------------------------------------------------------------------

/**
 * `npm run docs:playground`: the playground alone into docs-site/playground/,
 * in seconds and without `npm run build` (esbuild bundles it from src/). The
 * page works opened from disk, so its file:// address is printed.
 */
async function playgroundOnly() {
  const out = join(ROOT, 'docs-site', 'playground');
  const { bytes } = await buildPlayground(out);
  console.log(
    `docs: playground → docs-site/playground/ (bundle ${(bytes / 1024).toFixed(1)} KiB); open ${pathToFileURL(join(out, 'index.html')).href}`,
  );
}

async function main() {
  if (process.argv.includes('--playground')) return playgroundOnly();
  const out = join(ROOT, 'docs-site');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  const guides = buildGuides(out);
  console.log(`docs: ${guides.pages.length} guides → docs-site/ (${guides.pages.join(', ')})`);
  console.log(
    `docs: guide search → search-index.json (${guides.search.sections} sections, ${(guides.search.bytes / 1024).toFixed(1)} KiB)`,
  );
  for (const link of guides.brokenLinks) console.warn(`docs: warning: broken link ${link}`);
  const linked = copyLinkedFiles(out, guides.linkedFiles);
  console.log(`docs: files the guides link to → ${linked.written.join(', ')}`);

  const diagrams = await buildDiagrams(out);
  console.log(`docs: railroad diagrams → ${diagrams.join(', ')}`);

  const playground = await buildPlayground(join(out, 'playground'));
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `docs: playground → docs-site/playground/ (bundle ${kib(playground.bytes)} minified: ${kib(playground.dataBytes)} sample data, ${kib(playground.bytes - playground.dataBytes)} code)`,
  );

  const api = await buildApiDocs(join(out, 'api'));
  console.log(`docs: API reference → docs-site/api/ (${api.exports} exports)`);
  console.log(`docs: ${api.undocumented.length} exports without documentation (typedoc's notDocumented validation)`);
  console.log(`docs: ${api.withoutExample.length} exports without an @example`);
  console.log(`docs: ${api.warnings.length} TypeDoc warnings`);
  // A warning is a reference a reader cannot follow or a page that lies: the build fails on any.
  if (api.warnings.length > 0) process.exitCode = 1;
  const broken = checkSiteLinks(out);
  console.log(`docs: link check: ${broken.length} broken link${broken.length === 1 ? '' : 's'} in docs-site/`);
  for (const link of broken) console.error(`  ${link}`);
  if (broken.length > 0) process.exitCode = 1;
  const { gaps, fail } = apiDocGaps(api);
  if (gaps.length > 0) {
    const say = fail ? console.error : console.warn;
    say(`docs: ${fail ? 'error' : 'warning'}: STYLE.md wants TSDoc with an @example on every export; ${gaps.length} do not:`);
    for (const gap of gaps) say(`  ${gap}`);
    if (fail) process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  });
}
