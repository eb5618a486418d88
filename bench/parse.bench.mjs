// Parse throughput: lex + parse + AST of small, medium and large filters,
// against JSON.parse of a JSON text encoding the same tree (measured in the
// same run), with peer query-language parsers on the nearest equivalent text.
import { parse as rsqlParse } from '@rsql/parser';
import { filter as odataFilter } from 'odata-v4-parser';
import { parse as liqeParse } from 'liqe';
import { parseFilter, parseSort } from '../dist/index.js';
import { filterLexer } from '../dist/syntax/filter-lexer.js';
import { scanFilter } from '../dist/syntax/filter-scanner.js';
import { parseFilterWithChevrotain } from '../dist/syntax/parse-filter.js';
import { fmt, median, opsPerSecond, writeSection } from './harness.mjs';

// The machine may be shared and its load may change while we run, so a
// subject and its reference are measured in alternating short rounds and the
// ratio is the median of the per-round ratios.
function paired(subject, reference, rounds = 7) {
  const a = [];
  const b = [];
  const ratios = [];
  for (let r = 0; r < rounds; r++) {
    const options = { samples: 3, sampleMs: 60, warmupMs: r === 0 ? 200 : 20 };
    const x = opsPerSecond(subject, options);
    const y = opsPerSecond(reference, options);
    a.push(x);
    b.push(y);
    ratios.push(x / y);
  }
  return { subject: median(a), reference: median(b), ratio: median(ratios) };
}

// ---- fixtures ------------------------------------------------------------

const small = 'LastName.StartsWith(Sm);Gender.Equal(1)';
const medium =
  "LastName.StartsWith(Sm);Or(Gender.Equal(1);Salary.GreaterThan(1000));City.InArray(New York,Boston,'San Francisco');" +
  "'D'.StartsWithInFields(FirstName,LastName);HireDate.GreaterThanOrEqual(2020-01-01);Email.IsNotNull()";
const largeParts = [];
for (let i = 0; largeParts.join(';').length < 5000; i++) {
  largeParts.push(
    [
      `Field${i}.Equal(${i})`,
      `Or(Name${i}.StartsWith('O''Br');Code${i}.InArray(A,B,C,${i}))`,
      `And(Salary.GreaterThan(${i * 100});Salary.LessThanOrEqual(${i * 100 + 99}))`,
      `City${i}.Contains(New York)`,
      `Deleted${i}.IsNull()`,
    ][i % 5],
  );
}
const large = largeParts.join(';');
const sortText = 'LastName=Asc;FirstName=Asc;CreatedOn=Desc';

// ---- equivalent texts for the peers (built from our tree, outside timing) --

const isNumber = (s) => /^-?\d+(\.\d+)?$/.test(s);
function rsql(n) {
  const q = (v) => (/^[A-Za-z0-9_.*-]+$/.test(v) ? v : `"${v.replaceAll('"', '\\"')}"`);
  switch (n.kind) {
    case 'group':
      return `(${n.children.map(rsql).join(n.operator === 'And' ? ';' : ',')})`;
    case 'null-check':
      return `${n.field.name}==${n.operator === 'IsNull' ? 'null' : '!null'}`.replace('==!null', '!=null');
    case 'list':
      return `${n.field.name}=in=(${n.values.map((v) => q(v.value)).join(',')})`;
    case 'in-fields':
      return `(${n.fields.map((f) => `${f.name}==${q(n.value.value + '*')}`).join(',')})`;
    default: {
      const v = n.value.value;
      const op = { Equal: '==', GreaterThan: '>', GreaterThanOrEqual: '>=', LessThan: '<', LessThanOrEqual: '<=' }[n.operator];
      if (op) return `${n.field.name}${op}${q(v)}`;
      return `${n.field.name}==${q(n.operator === 'Contains' ? `*${v}*` : `${v}*`)}`;
    }
  }
}
function odata(n) {
  const lit = (v) => (isNumber(v) ? v : `'${v.replaceAll("'", "''")}'`);
  switch (n.kind) {
    case 'group':
      return `(${n.children.map(odata).join(n.operator === 'And' ? ' and ' : ' or ')})`;
    case 'null-check':
      return `${n.field.name} ${n.operator === 'IsNull' ? 'eq' : 'ne'} null`;
    case 'list':
      return `(${n.values.map((v) => `${n.field.name} eq ${lit(v.value)}`).join(' or ')})`;
    case 'in-fields':
      return `(${n.fields.map((f) => `startswith(${f.name},${lit(n.value.value)})`).join(' or ')})`;
    default: {
      const op = { Equal: 'eq', GreaterThan: 'gt', GreaterThanOrEqual: 'ge', LessThan: 'lt', LessThanOrEqual: 'le' }[n.operator];
      if (op) return `${n.field.name} ${op} ${lit(n.value.value)}`;
      return `${n.operator === 'Contains' ? 'contains' : 'startswith'}(${n.field.name},${lit(n.value.value)})`;
    }
  }
}
function liqe(n) {
  const q = (v) => (/^[A-Za-z0-9_.-]+$/.test(v) ? v : `"${v.replaceAll('"', '\\"')}"`);
  switch (n.kind) {
    case 'group':
      return `(${n.children.map(liqe).join(n.operator === 'And' ? ' AND ' : ' OR ')})`;
    case 'null-check':
      return `${n.operator === 'IsNull' ? '' : 'NOT '}${n.field.name}:null`;
    case 'list':
      return `(${n.values.map((v) => `${n.field.name}:${q(v.value)}`).join(' OR ')})`;
    case 'in-fields':
      return `(${n.fields.map((f) => `${f.name}:${q(n.value.value)}*`).join(' OR ')})`;
    default: {
      const op = { Equal: '', GreaterThan: '>', GreaterThanOrEqual: '>=', LessThan: '<', LessThanOrEqual: '<=' }[n.operator];
      if (op !== undefined) return `${n.field.name}:${op}${q(n.value.value)}`;
      // A quoted liqe value cannot carry a wildcard; such values are matched whole.
      const v = n.value.value;
      if (q(v) !== v) return `${n.field.name}:${q(v)}`;
      return n.operator === 'Contains' ? `${n.field.name}:*${v}*` : `${n.field.name}:${v}*`;
    }
  }
}

// The same tree as JSON: everything parseFilter returns (spans included), and
// a compact form without positions and raw text, for a stricter reference.
const compactReplacer = (k, v) => (k === 'span' || k === 'operatorSpan' || k === 'raw' || k === 'path' ? undefined : v);

// The smallest JSON text that encodes the same tree without positions:
// {"t":"and","c":[{"t":"f","f":"RowStatus","o":"Equal","a":[1]},…]}. Values
// that read back as the same JSON number are written as numbers.
function minimal(n) {
  const value = (v) => (v.value !== '' && String(Number(v.value)) === v.value ? Number(v.value) : v.value);
  switch (n.kind) {
    case 'group':
      return { t: n.operator === 'And' ? 'and' : 'or', c: n.children.map(minimal) };
    case 'comparison':
      return { t: 'f', f: n.field.name, o: n.operator, a: [value(n.value)] };
    case 'null-check':
      return { t: 'f', f: n.field.name, o: n.operator };
    case 'list':
      return { t: 'f', f: n.field.name, o: n.operator, a: n.values.map(value) };
    case 'in-fields':
      return { t: 'f', f: n.fields.map((f) => f.name), o: n.operator, a: [value(n.value)] };
  }
  throw new Error(`unknown node ${n.kind}`);
}

const fixtures = [
  ['small', small],
  ['medium', medium],
  ['large', large],
];

const rows = [];
const peerRows = [];
for (const [name, text] of fixtures) {
  const result = parseFilter(text);
  if (result.diagnostics.some((d) => d.severity === 'error'))
    throw new Error(`${name} fixture has errors: ${JSON.stringify(result.diagnostics[0])}`);
  const fullJson = JSON.stringify(result.ast);
  const compactJson = JSON.stringify(result.ast, compactReplacer);
  const minimalJson = JSON.stringify({ t: 'and', c: result.ast.clauses.map(minimal) });
  const texts = {
    rsql: result.ast.clauses.map(rsql).join(';'),
    odata: result.ast.clauses.map(odata).join(' and '),
    liqe: result.ast.clauses.map(liqe).join(' AND '),
  };
  // Every peer must accept its text before it is timed.
  rsqlParse(texts.rsql);
  odataFilter(texts.odata);
  liqeParse(texts.liqe);

  const parseFn = () => parseFilter(text);
  const full = paired(parseFn, () => JSON.parse(fullJson));
  const compact = paired(parseFn, () => JSON.parse(compactJson));
  const least = paired(parseFn, () => JSON.parse(minimalJson));
  // The Chevrotain parser alone: the path of every text with an error, and
  // the whole of parseFilter before the fast path.
  const chevrotain = paired(
    () => parseFilterWithChevrotain(text),
    () => JSON.parse(minimalJson),
  );
  const lexer = paired(
    () => filterLexer.tokenize(text),
    () => JSON.parse(fullJson),
    3,
  );
  const scanner = paired(
    () => scanFilter(text),
    () => JSON.parse(fullJson),
    3,
  );
  const parse = full.subject;
  const lex = lexer.subject;
  const jsonFull = full.reference;
  const jsonCompact = compact.reference;
  rows.push({
    name,
    chars: text.length,
    parse,
    lex,
    scan: scanner.subject,
    jsonFull,
    jsonCompact,
    jsonMinimal: least.reference,
    fullRatio: full.ratio,
    compactRatio: compact.ratio,
    minimalRatio: least.ratio,
    chevrotain: chevrotain.subject,
    chevrotainRatio: chevrotain.ratio,
    fullJson: fullJson.length,
    compactJson: compactJson.length,
    minimalJson: minimalJson.length,
  });
  for (const [peer, peerText, fn] of [
    ['@rsql/parser', texts.rsql, () => rsqlParse(texts.rsql)],
    ['odata-v4-parser', texts.odata, () => odataFilter(texts.odata)],
    ['liqe', texts.liqe, () => liqeParse(texts.liqe)],
  ]) {
    const p = paired(parseFn, fn, 3);
    peerRows.push({ name, peer, chars: peerText.length, ops: p.reference, ratio: p.ratio });
  }
  console.log(
    `${name}: parseFilter ${fmt(parse)} ops/s, ${fmt(full.ratio, 2)}× JSON.parse (full), ${fmt(compact.ratio, 2)}× (compact), ${fmt(least.ratio, 2)}× (minimal); Chevrotain path ${fmt(chevrotain.subject)} ops/s, ${fmt(chevrotain.ratio, 2)}× (minimal); lexer ${fmt(lex)} ops/s`,
  );
}
const sortJson = JSON.stringify(parseSort(sortText).ast);
const sortPair = paired(
  () => parseSort(sortText),
  () => JSON.parse(sortJson),
);

const mb = (ops, chars) => fmt((ops * chars) / 1e6, 1);
const md = [
  '## parse',
  '',
  '`parseFilter` (a hand-written recursive-descent fast path for text without errors; the hand-written scanner producing Chevrotain tokens + Chevrotain EmbeddedActionsParser for every other text, and alone in the "Chevrotain path" columns, which are `parseFilter` before the fast path) against `JSON.parse` of a JSON text encoding the same tree, measured in the same run in alternating rounds (ratio = median of per-round ratios, so changing machine load cancels out). "full" is exactly what `parseFilter` returns, spans included; "compact" drops positions and raw text (a smaller, stricter reference); "minimal" is the smallest JSON text of the same tree without positions (`{"t":"and","c":[{"t":"f","f":"RowStatus","o":"Equal","a":[1]},…]}`), the strictest reference (target ≥ 1.0× on medium and large). MB/s counts input characters.',
  '',
  '| filter | chars | parseFilter ops/s | MB/s | JSON.parse full ops/s (JSON chars) | ratio | JSON.parse compact ops/s (JSON chars) | ratio | JSON.parse minimal ops/s (JSON chars) | ratio | Chevrotain path ops/s | ratio to minimal | Chevrotain lexer only ops/s | scanner only ops/s |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.chars} | ${fmt(r.parse)} | ${mb(r.parse, r.chars)} | ${fmt(r.jsonFull)} (${r.fullJson}) | **${fmt(r.fullRatio, 2)}×** | ${fmt(r.jsonCompact)} (${r.compactJson}) | ${fmt(r.compactRatio, 2)}× | ${fmt(r.jsonMinimal)} (${r.minimalJson}) | **${fmt(r.minimalRatio, 2)}×** | ${fmt(r.chevrotain)} | ${fmt(r.chevrotainRatio, 2)}× | ${fmt(r.lex)} | ${fmt(r.scan)} |`,
  ),
  '',
  `Sort \`${sortText}\`: ${fmt(sortPair.subject)} ops/s, ${fmt(sortPair.ratio, 2)}× JSON.parse of its tree.`,
  '',
  'Peers on the nearest equivalent query text (generated from the same tree: InArray as an OR of equalities where the language has no list, InFields as an OR of prefix tests). Ratio > 1 means wepql is faster.',
  '',
  '| filter | peer | peer text chars | peer ops/s | wepql ÷ peer |',
  '|---|---|---:|---:|---:|',
  ...peerRows.map((r) => `| ${r.name} | ${r.peer} | ${r.chars} | ${fmt(r.ops)} | ${fmt(r.ratio, 2)}× |`),
];
writeSection('parse', md.join('\n'));
console.log(md.join('\n'));
