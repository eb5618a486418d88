// The editor integration: (1) what `wepql/codemirror` costs a page, bundled
// by esbuild with its CodeMirror peers, against the CodeMirror peers alone
// (the reference) in the same run; (2) the time from a keystroke to
// diagnostics for a 2 KB filter: in Node, the work CodeMirror runs (the
// transaction with the highlighting, then the lint source), against
// `parseFilter` and `lintText` of the same text; and in headless Chromium,
// a real EditorView from the keystroke's transaction to the lint marks
// painted (lint delay 0, so the figure is the work, not the debounce).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { fmt, machineLine, median, medianMs, writeSection } from './harness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = (p) => JSON.stringify(fileURLToPath(new URL(`../dist/${p}`, import.meta.url)));
const CHROMIUM = '/usr/bin/chromium';

// ---------------------------------------------------------------- bundle size
async function bundle(contents, external = []) {
  const result = await esbuild.build({
    stdin: { contents, resolveDir: root, loader: 'js', sourcefile: 'entry.js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    external,
  });
  const out = result.outputFiles[0].contents;
  return { min: out.byteLength, gzip: gzipSync(out, { level: 9 }).byteLength };
}

const PEERS = ['@codemirror/state', '@codemirror/view', '@codemirror/lint', '@codemirror/autocomplete'];
const SIZE_ENTRIES = [
  ['CodeMirror peers alone (reference: state, view, lint, autocomplete)', PEERS.map((p) => `export * from '${p}';`).join('\n'), []],
  ['`wepql/codemirror` with its CodeMirror peers', `export { wepql } from ${dist('codemirror/index.js')};`, []],
  ['`wepql/codemirror` alone (peers external: the wepql share)', `export { wepql } from ${dist('codemirror/index.js')};`, PEERS],
];
const sizes = [];
for (const [name, contents, external] of SIZE_ENTRIES) {
  const s = await bundle(contents, external);
  sizes.push({ name, ...s });
  console.log(`${name}: minified ${s.min} B, gzip ${s.gzip} B`);
}

// ------------------------------------------------- keystroke to diagnostics
const { employeeSchema } = await import(dist('schemas/employee.js').slice(1, -1));
const { parseFilter, lintText } = await import(dist('index.js').slice(1, -1));
const { wepqlDiagnostics } = await import(dist('codemirror/index.js').slice(1, -1));
const { highlightTokens } = await import(dist('service/index.js').slice(1, -1));
const { EditorState } = await import('@codemirror/state');

/** A realistic filter of about 2 KB: clauses on the sample fields, groups, lists, dates, one warning. */
function filterOf(size) {
  // Each And branch differs (values vary with n), as the branches of a real saved filter do.
  const branch = (n) =>
    [
      `LastName.StartsWith(Sm${n})`,
      `Or(Gender.Equal(${n % 3});EePortal.Equal(true))`,
      `CreatedOn.GreaterThanOrEqual(20${String(10 + (n % 15))}-01-01)`,
      `FirstName.Contains('an${n}')`,
      `EmployeeNumber.InArray(${n},${n + 100},${n + 200})`,
      `BirthOn.LessThan(19${50 + (n % 40)}-06-30)`,
    ].join(';');
  const parts = [];
  for (let n = 0; parts.join(';').length < size - 250; n++) parts.push(`And(${branch(n)})`);
  let text = `Or(${parts.join(';')});'D'.StartsWithInFields(FirstName,LastName);LastName.IsNotNull()`;
  // Top up to the size with short distinct clauses.
  for (let n = 1; text.length < size; n++) text += `;EmployeeNumber.NotEqual(${n})`;
  return text;
}
const text = filterOf(2048);
const options = { schema: employeeSchema };
const findings = lintText(text, 'filter', options).length;
console.log(`filter: ${text.length} chars, ${findings} findings`);

// One keystroke: a character typed at the end of the text, then what the editor computes for it.
let state = EditorState.create({ doc: text });
let typed = 0;
const keystroke = () => {
  // Type a space, then delete it again, so the text stays the same size.
  const end = state.doc.length;
  const tr = state.update({ changes: typed++ % 2 === 0 ? { from: end, insert: ' ' } : { from: end - 1, to: end } });
  state = tr.state;
  const doc = state.doc.toString();
  return [highlightTokens(doc).length, wepqlDiagnostics(doc, options).length];
};
const REPEAT = 200;
const perCall = (fn) =>
  medianMs(() => {
    let sink;
    for (let i = 0; i < REPEAT; i++) sink = fn();
    return sink;
  }, 9) / REPEAT;
for (let i = 0; i < 300; i++) keystroke();
const node = [
  ['keystroke → highlighting + diagnostics (transaction, `highlightTokens`, `wepqlDiagnostics`)', perCall(keystroke)],
  ['`lintText` alone (reference: parse + validate + semantic rules)', perCall(() => lintText(text, 'filter', options))],
  ['`parseFilter` alone (reference: syntax only)', perCall(() => parseFilter(text))],
];
for (const [name, ms] of node) console.log(`${name}: ${ms.toFixed(3)} ms`);

// ------------------------------------------------------ in a real browser
let browserRows = [];
let browserNote = '';
if (!existsSync(CHROMIUM)) {
  browserNote = `Chromium part skipped: ${CHROMIUM} is not installed.`;
} else {
  const page = await esbuild.build({
    stdin: {
      contents: `
        import { EditorView } from '@codemirror/view';
        import { diagnosticCount } from '@codemirror/lint';
        import { wepql } from ${dist('codemirror/index.js')};
        import { employeeSchema } from ${dist('schemas/employee.js')};
        let waiting;
        const view = new EditorView({
          doc: ${JSON.stringify(text)},
          parent: document.body,
          extensions: [
            wepql({ schema: employeeSchema, lintDelay: 0 }),
            EditorView.updateListener.of((u) => {
              if (waiting && diagnosticCount(u.state) !== waiting.before) { const w = waiting; waiting = undefined; requestAnimationFrame(() => w.resolve(performance.now())); }
            }),
          ],
        });
        // Alternately types ';;' (an empty clause: one warning more) and deletes it, and waits for the marks.
        window.keystroke = (add) => new Promise((resolve, reject) => {
          const t0 = performance.now();
          waiting = { before: diagnosticCount(view.state), resolve: (t1) => resolve(t1 - t0) };
          setTimeout(() => reject(new Error('no new diagnostics within 5 s')), 5000);
          const end = view.state.doc.length;
          view.dispatch(add ? { changes: { from: end, insert: ';;' }, userEvent: 'input.type' } : { changes: { from: end - 2, to: end }, userEvent: 'delete.backward' });
        });
      `,
      resolveDir: root,
      loader: 'js',
    },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    logLevel: 'silent',
  });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const tab = await browser.newPage();
    tab.on('crash', () => console.error('bench: the Chromium tab crashed'));
    tab.on('pageerror', (e) => console.error(`bench: page error: ${e.message}`));
    await tab.setContent('<!DOCTYPE html><html><body></body></html>');
    await tab.addScriptTag({ content: page.outputFiles[0].text });
    // The first lint pass of the loaded text.
    await tab.waitForTimeout(500);
    const times = [];
    for (let i = 0; i < 60; i++) times.push(await tab.evaluate((add) => window.keystroke(add), i % 2 === 0));
    const settled = times.slice(10);
    browserRows = [['Chromium: keystroke → lint marks painted (EditorView, lint delay 0)', median(settled)]];
    console.log(`${browserRows[0][0]}: ${median(settled).toFixed(2)} ms (median of ${settled.length})`);
  } finally {
    await browser.close();
  }
}

const kib = (n) => `${fmt(n / 1024, 1)} KiB`;
const ref = sizes[0];
writeSection(
  'editors',
  [
    '## editors — `wepql/codemirror` size, and keystroke to diagnostics',
    '',
    `${machineLine()}; ${new Date().toISOString().slice(0, 10)}.`,
    '',
    'Bundle size: esbuild (minify, browser, ESM, es2022), gzip level 9. The first row is the reference: the four',
    'CodeMirror packages `wepql/codemirror` needs, bundled alone.',
    '',
    '| bundle | minified | gzipped | gzipped ÷ peers alone |',
    '|---|---:|---:|---:|',
    ...sizes.map((s) => `| ${s.name} | ${kib(s.min)} | ${kib(s.gzip)} | ${fmt(s.gzip / ref.gzip, 2)}× |`),
    '',
    `Keystroke to diagnostics for a ${fmt(text.length)}-character filter (${findings} findings in it): in Node, a character typed`,
    'at the end and what the editor computes for it (median of 9 samples of 200 keystrokes); in Chromium, `;;` typed',
    'at the end (or deleted again) until the changed lint marks are on screen, the next animation frame included',
    '(median of 50 keystrokes after 10 warm-up ones). The lint source runs after the `lintDelay` debounce (150 ms',
    'by default), which is not included; highlighting runs in the keystroke itself.',
    '',
    '| what | median ms | vs lintText |',
    '|---|---:|---:|',
    ...[...node, ...browserRows].map(([name, ms]) => `| ${name} | ${fmt(ms, 3)} | ${fmt(ms / node[1][1], 2)}× |`),
    ...(browserNote === '' ? [] : ['', browserNote]),
  ].join('\n'),
);
