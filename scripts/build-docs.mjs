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
`;

/** Wraps a page body in the site's layout; `base` is the path back to the site root. */
export function layout({ title, body, current = '', base = '', guides = [] }) {
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
<header class="site"><a class="brand" href="${base}index.html">wepql</a><nav>${links}</nav></header>
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
    writeFileSync(join(outDir, `${name}.html`), layout({ title, body, current, guides: names }));
    pages.push(`${name}.html`);
  }
  return { pages, brokenLinks, linkedFiles: [...linkedFiles].sort() };
}

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
 * replace typedoc.json's for a test's own fixture.
 */
export async function validateApiDocs({ root = ROOT, entryPoints, typedocOptions } = {}) {
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
        compilerOptions: { noEmit: true, typeRoots: [join(ROOT, 'node_modules', '@types')] },
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
