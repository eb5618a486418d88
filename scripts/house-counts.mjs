#!/usr/bin/env node
/**
 * `npm run counts`: the figures that say whether the house keeps its shape
 * (docs/architecture.md). Each should only go down:
 *
 * - operator names quoted outside the operator table (src/ast/operators.ts)
 *   and its lowering (src/ast/operator-facts.ts): a stage that names an
 *   operator interprets it itself instead of reading the table's facts;
 * - `switch (….kind)` over filter tree nodes outside the fold (src/ast/fold.ts): a hand walk that a
 *   new node kind may silently skip;
 * - hand-written JSON and YAML readers, where `jsonc-parser` and `yaml`
 *   (src/workspace/json-positions.ts, yaml-positions.ts) are the one reader
 *   of each: a function or class that compares characters with both a
 *   quote (`'"'`, 34) and an opening bracket (`'{'`, `'['`, 123, 91), or
 *   holds a regular expression that measures a line's indentation
 *   (`/^( *)/`, `/^(\s*)/`) or matches a block-sequence dash (`/^\s*- /`);
 * - `.kind ===` chains over filter tree nodes outside the fold: a function
 *   comparing `….kind` with two or more node kinds dispatches by hand;
 * - hand walks of filter trees outside the fold: a function with a loop that
 *   pops or shifts a work list, or steps a variable down to `….children`,
 *   and that reads `….children` and names a filter node kind (`'group'`,
 *   `'null-check'`, …): a walk with its own stack instead of `foldFilter` or
 *   `foldFilterWith`;
 * - functions of 60 lines or more (TypeScript compiler API: declarations,
 *   methods, accessors, function expressions and arrows, each counted from
 *   its first to its last line);
 * - layer violations: the dependency-cruiser rules of .dependency-cruiser.cjs
 *   (an import up a layer, a cycle through two folders, an unknown folder);
 * - engine-name comparisons outside the dialect folders (src/sql/dialects/):
 *   `=== 'postgres'`, `.engine ===`, `dialect.name ===`, `case 'mysql':`, a
 *   stage that branches on the engine instead of asking its dialect object;
 * - dialect names quoted outside the dialect folders (`'sqlite'`): a stage
 *   that names an engine instead of taking its dialect object.
 *
 * `--list` prints what each figure counts; `--json` prints the figures as JSON.
 * `--skip-layers` leaves the layer figure out (its dependency-cruiser run is
 * about nine tenths of the script's CPU) for a caller that runs the same
 * rules itself: `npm test` runs `npm run lint`, whose `depcruise` fails on
 * any layer violation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// Required, not imported: an ES import of typescript.js (a 9 MB CommonJS file) first has Node's
// CommonJS lexer scan it for its export names, about a CPU-second on top of compiling it.
const ts = createRequire(import.meta.url)('typescript');

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const TABLE_FILES = new Set(['src/ast/operators.ts', 'src/ast/operator-facts.ts']);
const FOLD_FILES = new Set(['src/ast/fold.ts']);
const LONG_FUNCTION = 60;
const DIALECT_FOLDER = 'src/sql/dialects/';
const DIALECT_REGISTRY = 'sql/dialects/registry.ts';

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

// No figure reads a comment (node.getStart() and getText() begin after a node's JSDoc), so the parser skips
// JSDoc: every export's TSDoc, about a third of parsing src/.
function parse(path) {
  return ts.createSourceFile(
    path,
    readFileSync(path, 'utf8'),
    { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    true,
    ts.ScriptKind.TS,
  );
}

function walk(node, visit) {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

/** The keys of the `OPERATORS` object literal in src/ast/operators.ts. */
function operatorNames() {
  const names = new Set();
  walk(parse(join(SRC, 'ast/operators.ts')), (node) => {
    if (!ts.isVariableDeclaration(node) || node.name.getText() !== 'OPERATORS') return;
    let init = node.initializer;
    while (init && (ts.isSatisfiesExpression(init) || ts.isAsExpression(init))) init = init.expression;
    if (!init || !ts.isObjectLiteralExpression(init)) return;
    for (const property of init.properties) if (property.name) names.add(property.name.getText());
  });
  if (names.size === 0) throw new Error('house-counts: no OPERATORS table found in src/ast/operators.ts');
  return names;
}

/** The keys of the `DIALECTS` object literal in src/sql/dialects/registry.ts: the shipped dialects' names. */
function dialectNames() {
  const names = new Set();
  walk(parse(join(SRC, DIALECT_REGISTRY)), (node) => {
    if (!ts.isVariableDeclaration(node) || node.name.getText() !== 'DIALECTS') return;
    let init = node.initializer;
    while (init && (ts.isSatisfiesExpression(init) || ts.isAsExpression(init) || ts.isCallExpression(init))) {
      init = ts.isCallExpression(init) ? init.arguments[0] : init.expression;
    }
    if (!init || !ts.isObjectLiteralExpression(init)) return;
    for (const property of init.properties) if (property.name) names.add(property.name.getText());
  });
  if (names.size === 0) throw new Error(`house-counts: no DIALECTS table found in src/${DIALECT_REGISTRY}`);
  return names;
}

const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** An operand that names an engine: a dialect name, `….engine`, `….dialect`, or the `name` of something called dialect, rules or engine. */
function namesEngine(node, dialects) {
  if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && dialects.has(node.text)) return true;
  if (!ts.isPropertyAccessExpression(node)) return false;
  const name = node.name.text;
  return name === 'engine' || name === 'dialect' || (name === 'name' && /dialect|rules|engine/i.test(node.expression.getText()));
}

/** `a === b` (or `!==`, `==`, `!=`) with an engine on either side, or `case 'postgres':`. */
function isEngineComparison(node, dialects) {
  if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
    return namesEngine(node.left, dialects) || namesEngine(node.right, dialects);
  }
  return ts.isCaseClause(node) && namesEngine(node.expression, dialects);
}

function lineOf(file, pos) {
  return file.getLineAndCharacterOfPosition(pos).line + 1;
}

function functionName(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)))
    return parent.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

function isFunctionLike(node) {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)) &&
    node.body !== undefined
  );
}

const FILTER_NODE_KINDS = new Set(['comparison', 'null-check', 'list', 'in-fields', 'group']);

/** A `switch (….kind)` with a case for a filter tree node kind. */
function isFilterKindSwitch(node) {
  if (!ts.isSwitchStatement(node) || !ts.isPropertyAccessExpression(node.expression) || node.expression.name.text !== 'kind') return false;
  return node.caseBlock.clauses.some(
    (c) => ts.isCaseClause(c) && ts.isStringLiteral(c.expression) && FILTER_NODE_KINDS.has(c.expression.text),
  );
}

const JSON_QUOTES = new Set(['"', 34]);
const JSON_OPENERS = new Set(['{', '[', 123, 91]);
const INDENT_REGEX = /^\/\^(?:\((?: |\\s|\[ \\t\])[*+]\)|(?: |\\s)\*- )/;

/** The nearest enclosing class, else the nearest function: where a hand reader's comparisons add up. */
function readerUnit(node) {
  let fn;
  for (let at = node.parent; at; at = at.parent) {
    if (ts.isClassLike(at)) return at;
    if (fn === undefined && isFunctionLike(at)) fn = at;
  }
  return fn;
}

function innermostFunction(node) {
  for (let at = node.parent; at; at = at.parent) if (isFunctionLike(at)) return at;
  return undefined;
}

function literalOf(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  return undefined;
}

/** The character literals a `===`/`!==` comparison or a `case` tests against. */
function comparedLiterals(node) {
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op !== ts.SyntaxKind.EqualsEqualsEqualsToken && op !== ts.SyntaxKind.ExclamationEqualsEqualsToken) return [];
    return [literalOf(node.left), literalOf(node.right)].filter((v) => v !== undefined);
  }
  if (ts.isCaseClause(node)) {
    const v = literalOf(node.expression);
    return v === undefined ? [] : [v];
  }
  return [];
}

/** The filter node kind a `….kind ===|!== '<kind>'` comparison names, if it is one. */
function comparedKind(node) {
  if (!ts.isBinaryExpression(node)) return undefined;
  const op = node.operatorToken.kind;
  if (op !== ts.SyntaxKind.EqualsEqualsEqualsToken && op !== ts.SyntaxKind.ExclamationEqualsEqualsToken) return undefined;
  const [access, literal] = ts.isPropertyAccessExpression(node.left) ? [node.left, node.right] : [node.right, node.left];
  if (!ts.isPropertyAccessExpression(access) || access.name.text !== 'kind' || !ts.isStringLiteral(literal)) return undefined;
  return FILTER_NODE_KINDS.has(literal.text) ? literal.text : undefined;
}

/** Hand JSON/YAML readers and `.kind ===` chains of one file. */
function handReadersAndKindChains(rel, file) {
  const units = new Map();
  const kinds = new Map();
  walk(file, (node) => {
    if (ts.isRegularExpressionLiteral(node) && INDENT_REGEX.test(node.text)) {
      const unit = readerUnit(node) ?? file;
      units.set(unit, { ...(units.get(unit) ?? { chars: new Set() }), yaml: node.text });
    }
    const chars = comparedLiterals(node).filter((v) => JSON_QUOTES.has(v) || JSON_OPENERS.has(v));
    if (chars.length > 0) {
      const unit = readerUnit(node) ?? file;
      const entry = units.get(unit) ?? { chars: new Set() };
      for (const c of chars) entry.chars.add(c);
      units.set(unit, entry);
    }
    const kind = comparedKind(node);
    if (kind !== undefined && !FOLD_FILES.has(rel)) {
      const fn = innermostFunction(node) ?? file;
      kinds.set(fn, (kinds.get(fn) ?? new Set()).add(kind));
    }
  });
  const where = (unit) =>
    `${rel}:${lineOf(file, unit.getStart())} ${unit === file ? '(module)' : ts.isClassLike(unit) ? (unit.name?.getText() ?? '(class)') : functionName(unit)}`;
  const readers = [];
  for (const [unit, { chars, yaml }] of units) {
    const json = [...chars].some((c) => JSON_QUOTES.has(c)) && [...chars].some((c) => JSON_OPENERS.has(c));
    if (json) readers.push(`${where(unit)} compares characters with ${[...chars].map((c) => JSON.stringify(c)).join(', ')}`);
    if (yaml !== undefined) readers.push(`${where(unit)} walks indentation with ${yaml}`);
  }
  const chains = [...kinds]
    .filter(([, set]) => set.size >= 2)
    .map(([fn, set]) => `${where(fn)} tests .kind against ${[...set].join(', ')}`);
  return { readers, chains };
}

const LOOPS = new Set([
  ts.SyntaxKind.WhileStatement,
  ts.SyntaxKind.DoStatement,
  ts.SyntaxKind.ForStatement,
  ts.SyntaxKind.ForOfStatement,
  ts.SyntaxKind.ForInStatement,
]);

function insideLoopOf(node, fn) {
  for (let at = node.parent; at && at !== fn; at = at.parent) {
    if (LOOPS.has(at.kind)) return innermostFunction(at) === fn;
  }
  return false;
}

/** `….pop()` or `….shift()`: taking the next item of a work list. */
function takesWork(node) {
  return (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    (node.expression.name.text === 'pop' || node.expression.name.text === 'shift') &&
    node.arguments.length === 0
  );
}

/** `level = ….children`: stepping down a tree one level at a time. */
function stepsDown(node) {
  return (
    ts.isBinaryExpression(node) &&
    node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
    ts.isPropertyAccessExpression(node.right) &&
    node.right.name.text === 'children'
  );
}

/** A filter node kind named as a string or as a handler's key (`'null-check': …`). */
function namesFilterKind(node) {
  if (ts.isStringLiteral(node) && FILTER_NODE_KINDS.has(node.text) && node.text !== 'list') return true;
  return ts.isPropertyAssignment(node) && ts.isStringLiteral(node.name) && FILTER_NODE_KINDS.has(node.name.text);
}

/** Functions of one file that walk a filter tree with a stack (or a level variable) of their own. */
function handWalks(rel, file) {
  if (FOLD_FILES.has(rel)) return [];
  const walkers = [];
  walk(file, (fn) => {
    if (!isFunctionLike(fn)) return;
    let loopsOverWork = false;
    let readsChildren = false;
    let namesKind = false;
    walk(fn.body, (node) => {
      if ((takesWork(node) || stepsDown(node)) && insideLoopOf(node, fn)) loopsOverWork = true;
      if (ts.isPropertyAccessExpression(node) && node.name.text === 'children') readsChildren = true;
      if (namesFilterKind(node)) namesKind = true;
    });
    if (loopsOverWork && readsChildren && namesKind) walkers.push(`${rel}:${lineOf(file, fn.getStart())} ${functionName(fn)}`);
  });
  return walkers;
}

function scanSources() {
  const operators = operatorNames();
  const dialects = dialectNames();
  const found = {
    operatorNames: [],
    kindSwitches: [],
    longFunctions: [],
    engineComparisons: [],
    dialectNames: [],
    handReaders: [],
    kindChains: [],
    handWalks: [],
  };
  for (const path of sourceFiles(SRC)) {
    const rel = relative(ROOT, path).split('\\').join('/');
    const file = parse(path);
    const { readers, chains } = handReadersAndKindChains(rel, file);
    found.handReaders.push(...readers);
    found.kindChains.push(...chains);
    found.handWalks.push(...handWalks(rel, file));
    walk(file, (node) => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && operators.has(node.text) && !TABLE_FILES.has(rel)) {
        found.operatorNames.push(`${rel}:${lineOf(file, node.getStart())} '${node.text}'`);
      }
      if (!rel.startsWith(DIALECT_FOLDER)) {
        if (isEngineComparison(node, dialects)) found.engineComparisons.push(`${rel}:${lineOf(file, node.getStart())} ${node.getText()}`);
        if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && dialects.has(node.text)) {
          found.dialectNames.push(`${rel}:${lineOf(file, node.getStart())} '${node.text}'`);
        }
      }
      if (isFilterKindSwitch(node) && !FOLD_FILES.has(rel)) {
        found.kindSwitches.push(`${rel}:${lineOf(file, node.getStart())} switch (${node.expression.getText()})`);
      }
      if (isFunctionLike(node)) {
        const lines = lineOf(file, node.end) - lineOf(file, node.getStart()) + 1;
        if (lines >= LONG_FUNCTION)
          found.longFunctions.push({ where: `${rel}:${lineOf(file, node.getStart())} ${functionName(node)}`, lines });
      }
    });
  }
  found.longFunctions.sort((a, b) => b.lines - a.lines);
  return found;
}

async function layerViolations() {
  const { cruise } = await import('dependency-cruiser');
  const require = createRequire(import.meta.url);
  const config = require(join(ROOT, '.dependency-cruiser.cjs'));
  const result = await cruise(['src'], { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } });
  return result.output.summary.violations.map(
    (v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle of ${v.cycle.length})` : ''}`,
  );
}

const args = new Set(process.argv.slice(2));
process.chdir(ROOT);
const found = scanSources();
const violations = args.has('--skip-layers') ? undefined : await layerViolations();
const counts = {
  operatorNamesOutsideTable: found.operatorNames.length,
  operatorNameFiles: new Set(found.operatorNames.map((w) => w.split(':')[0])).size,
  kindSwitchesOutsideFold: found.kindSwitches.length,
  handWrittenJsonYamlReaders: found.handReaders.length,
  kindChainsOutsideFold: found.kindChains.length,
  handWalksOutsideFold: found.handWalks.length,
  functionsOver60Lines: found.longFunctions.length,
  functionsOver100Lines: found.longFunctions.filter((f) => f.lines >= 100).length,
  ...(violations === undefined ? {} : { layerViolations: violations.length }),
  engineComparisons: found.engineComparisons.length,
  dialectNamesOutsideDialects: found.dialectNames.length,
};

if (args.has('--json')) {
  process.stdout.write(`${JSON.stringify(counts, null, 2)}\n`);
} else {
  process.stdout.write(
    [
      `operator names quoted outside the table and its lowering: ${counts.operatorNamesOutsideTable} (in ${counts.operatorNameFiles} files)`,
      `switch (….kind) outside the fold:                       ${counts.kindSwitchesOutsideFold}`,
      `hand-written JSON/YAML readers:                          ${counts.handWrittenJsonYamlReaders}`,
      `.kind === chains outside the fold:                       ${counts.kindChainsOutsideFold}`,
      `hand walks of filter trees outside the fold:             ${counts.handWalksOutsideFold}`,
      `functions of ${LONG_FUNCTION} lines or more:                          ${counts.functionsOver60Lines} (${counts.functionsOver100Lines} of 100 or more)`,
      `layer violations (dependency-cruiser):                    ${counts.layerViolations ?? 'not counted (--skip-layers)'}`,
      `engine-name comparisons outside the dialect folders:      ${counts.engineComparisons}`,
      `dialect names quoted outside the dialect folders:         ${counts.dialectNamesOutsideDialects}`,
      '',
    ].join('\n'),
  );
}
if (args.has('--list')) {
  const section = (title, lines) => process.stdout.write(`\n${title}\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
  section('operator names', found.operatorNames);
  section('kind switches', found.kindSwitches);
  section('hand-written JSON/YAML readers', found.handReaders);
  section('.kind === chains', found.kindChains);
  section('hand walks of filter trees', found.handWalks);
  section(
    'long functions',
    found.longFunctions.map((f) => `${f.lines} ${f.where}`),
  );
  if (violations !== undefined) section('layer violations', violations);
  section('engine-name comparisons', found.engineComparisons);
  section('dialect names', found.dialectNames);
}
