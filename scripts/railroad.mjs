// Railroad diagrams of the language, drawn from grammar/filter.ebnf and
// grammar/sort.ebnf themselves: the EBNF (ISO 14977: `=`, `,`, `|`, `[ ]`,
// `{ }`, `( )`, "terminals", `? special ?`, `(* comments *)`) is parsed here
// and each production becomes one diagram, rendered to static SVG with the
// railroad-diagrams library Chevrotain ships. The parser's own rules read
// coarser tokens and some wrong forms on purpose; the diagrams show the
// language a person writes.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const LIBRARY = fileURLToPath(new URL('../node_modules/chevrotain/diagrams/vendor/railroad-diagrams.js', import.meta.url));

/**
 * The railroad-diagrams library. It is a browser script with a CommonJS
 * branch, shipped inside an ESM package that does not export it, so it is
 * evaluated with an `exports` object of its own.
 */
function railroadLibrary() {
  const exports = {};
  new Function('exports', 'define', readFileSync(LIBRARY, 'utf8'))(exports, undefined);
  return exports;
}

/** The tokens of an EBNF text, comments dropped; each with its offset for error messages. */
function tokenize(text) {
  const tokens = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (text.startsWith('(*', i)) {
      const end = text.indexOf('*)', i + 2);
      if (end < 0) throw new Error(`EBNF: unclosed comment at offset ${i}`);
      i = end + 2;
    } else if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new Error(`EBNF: unclosed terminal at offset ${i}`);
      tokens.push({ type: 'terminal', value: text.slice(i + 1, end), at: i });
      i = end + 1;
    } else if (c === '?') {
      const end = text.indexOf('?', i + 1);
      if (end < 0) throw new Error(`EBNF: unclosed special sequence at offset ${i}`);
      tokens.push({ type: 'special', value: text.slice(i + 1, end).trim(), at: i });
      i = end + 1;
    } else if (/[A-Za-z]/.test(c)) {
      const m = /^[A-Za-z][A-Za-z0-9_-]*/.exec(text.slice(i));
      tokens.push({ type: 'name', value: m[0], at: i });
      i += m[0].length;
    } else if ('=,|;[]{}()…'.includes(c)) {
      tokens.push({ type: c === '…' ? 'ellipsis' : 'symbol', value: c, at: i });
      i++;
    } else {
      throw new Error(`EBNF: unexpected ${JSON.stringify(c)} at offset ${i}`);
    }
  }
  return tokens;
}

/**
 * Parses an EBNF text into its productions, in order:
 * `[{ name, expr }]`, where expr is one of
 * `{ kind: 'choice' | 'sequence', items }`, `{ kind: 'optional' | 'repeat', item }`,
 * `{ kind: 'terminal' | 'nonterminal' | 'special' | 'ellipsis', text }`.
 */
export function parseEbnf(text) {
  const tokens = tokenize(text);
  let k = 0;
  const peek = () => tokens[k];
  const expect = (value) => {
    const t = tokens[k];
    if (t === undefined || t.value !== value || (t.type !== 'symbol' && t.type !== 'ellipsis')) {
      throw new Error(
        `EBNF: expected ${JSON.stringify(value)} at offset ${t?.at ?? 'end'}, got ${JSON.stringify(t?.value ?? 'end of text')}`,
      );
    }
    k++;
  };
  const choice = () => {
    const items = [sequence()];
    while (peek()?.value === '|' && peek().type === 'symbol') {
      k++;
      items.push(sequence());
    }
    return items.length === 1 ? items[0] : { kind: 'choice', items };
  };
  const sequence = () => {
    const items = [primary()];
    while (peek()?.value === ',' && peek().type === 'symbol') {
      k++;
      items.push(primary());
    }
    return items.length === 1 ? items[0] : { kind: 'sequence', items };
  };
  const primary = () => {
    const t = tokens[k++];
    if (t === undefined) throw new Error('EBNF: unexpected end of text');
    if (t.type === 'terminal') return { kind: 'terminal', text: t.value };
    if (t.type === 'name') return { kind: 'nonterminal', text: t.value };
    if (t.type === 'special') return { kind: 'special', text: t.value };
    if (t.type === 'ellipsis') return { kind: 'ellipsis', text: '…' };
    const close = { '[': ']', '{': '}', '(': ')' }[t.value];
    if (close === undefined) throw new Error(`EBNF: unexpected ${JSON.stringify(t.value)} at offset ${t.at}`);
    const inner = choice();
    expect(close);
    return t.value === '(' ? inner : { kind: t.value === '[' ? 'optional' : 'repeat', item: inner };
  };
  const productions = [];
  while (k < tokens.length) {
    const name = tokens[k++];
    if (name.type !== 'name') throw new Error(`EBNF: expected a production name at offset ${name.at}`);
    expect('=');
    const expr = choice();
    expect(';');
    productions.push({ name: name.value, expr });
  }
  return productions;
}

/** Every production name an expression refers to. */
export function referencedNames(expr, out = new Set()) {
  if (expr.kind === 'nonterminal') out.add(expr.text);
  for (const child of expr.items ?? (expr.item ? [expr.item] : [])) referencedNames(child, out);
  return out;
}

function toDiagramPart(rr, expr) {
  switch (expr.kind) {
    case 'choice':
      return rr.Choice(0, ...expr.items.map((e) => toDiagramPart(rr, e)));
    case 'sequence':
      return rr.Sequence(...expr.items.map((e) => toDiagramPart(rr, e)));
    case 'optional':
      return rr.Optional(toDiagramPart(rr, expr.item));
    case 'repeat':
      return rr.ZeroOrMore(toDiagramPart(rr, expr.item));
    case 'terminal':
      return rr.Terminal(expr.text);
    case 'nonterminal':
      return rr.NonTerminal(expr.text, `#${expr.text}`);
    case 'special':
    case 'ellipsis':
      return rr.Comment(expr.text);
    default:
      throw new Error(`EBNF: unknown expression kind ${expr.kind}`);
  }
}

const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A standalone HTML page with one railroad diagram (static SVG) per
 * production of an EBNF text, each under a heading whose id is the
 * production's name, so the boxes of other productions link to it.
 */
export function railroadPage(title, ebnfText, { css = '' } = {}) {
  const rr = railroadLibrary();
  const productions = parseEbnf(ebnfText);
  const sections = productions.map(({ name, expr }) => {
    // Chevrotain's copy writes its own bookkeeping attributes; unset ones say "undefined".
    const svg = rr
      .Diagram(toDiagramPart(rr, expr))
      .toString()
      .replace(/ [A-Za-z]+="undefined"/g, '');
    return `<section><h3 id="${escapeHtml(name)}">${escapeHtml(name)}</h3>\n${svg}\n</section>`;
  });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
${css === '' ? '' : `<link rel="stylesheet" href="${escapeHtml(css)}">`}
<style>
body { font: 14px system-ui, sans-serif; margin: 1rem; background: hsl(30, 20%, 95%); }
h3 { font: 600 15px ui-monospace, Menlo, Consolas, monospace; margin: 1.2rem 0 .2rem; }
svg.railroad-diagram { display: block; }
svg.railroad-diagram path { stroke-width: 2; stroke: black; fill: rgba(0, 0, 0, 0); }
svg.railroad-diagram text { font: 14px ui-monospace, Menlo, Consolas, monospace; text-anchor: middle; }
svg.railroad-diagram g.comment text { font-style: italic; fill: #5b6475; }
svg.railroad-diagram rect { stroke-width: 2; stroke: black; fill: hsl(120, 100%, 90%); }
svg.railroad-diagram g.non-terminal rect { fill: hsl(210, 100%, 92%); }
svg.railroad-diagram a text { fill: #1f5fbf; text-decoration: underline; }
</style>
</head>
<body>
<h2>${escapeHtml(title)}</h2>
${sections.join('\n')}
</body>
</html>
`;
}
