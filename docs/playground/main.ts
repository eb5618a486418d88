/**
 * The playground page: a filter and a sort typed by a person into
 * CodeMirror editors set up with `wepql/codemirror`, run through the
 * library itself (bundled from src/ by esbuild at docs build time) over the
 * sample employees. Shows every finding of `wepql lint` as code frames, the
 * canonical form, the plain-English explanation and the matching records.
 */
import { defaultKeymap, history as undoHistory, historyKeymap } from '@codemirror/commands';
import { EditorView, keymap, tooltips } from '@codemirror/view';
import type { Diagnostic } from '../../src/index.js';
import { analyzeFilter, analyzeSort, hasErrors, lintText, printFilter, printSort, query, renderCodeFrame, explain, employeeSchema } from '../../src/index.js';
import { wepql } from '../../src/codemirror/index.js';
import employees from '../../examples/employees.json' with { type: 'json' };
import { mountVisualBuilder } from './visual-builder.js';

const COLUMNS = ['Id', 'FirstName', 'LastName', 'Gender', 'BirthOn', 'EePortal', 'CreatedOn'] as const;
const SHOWN_ROWS = 25;
const EXAMPLES: readonly (readonly [label: string, filter: string, sort: string])[] = [
  ['starts with', 'LastName.StartsWith(Sm)', 'FirstName=Asc'],
  ['or group', 'LastName.StartsWith(S);Or(Gender.Equal(1);EePortal.Equal(true))', 'LastName=Asc;CreatedOn=Desc'],
  ['in fields', "'D'.StartsWithInFields(FirstName,LastName)", 'LastName=Asc'],
  ['list + null', 'Or(Gender.InArray(1,2);Gender.IsNull())', 'Gender=Desc;Id=Asc'],
  ['dates', 'CreatedOn.GreaterThanOrEqual(2020-01-01);BirthOn.LessThan(1970-01-01)', 'CreatedOn=Desc'],
  ['one day?', 'CreatedOn.Equal(2021-03-15)', 'CreatedOn=Desc'],
  ['contradiction', 'EmployeeNumber.GreaterThan(500);EmployeeNumber.LessThan(100)', 'Id=Asc'],
  ['broken', 'LastName.StartWith(Sm);Gender.Equal(x)', 'LastName=Up'],
];

const records = employees as readonly Record<string, unknown>[];

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`playground: the page has no #${id}`);
  return found as T;
}

/** Every finding of one input as code frames, one span per severity colour. */
function renderDiagnostics(target: HTMLElement, label: string, text: string, diagnostics: readonly Diagnostic[]): number {
  let shown = 0;
  for (const d of diagnostics) {
    if (d.severity === 'info') continue;
    const span = document.createElement('span');
    span.className = d.severity;
    // A blank line between frames, so each one reads as a unit.
    span.textContent = `${target.childElementCount > 0 ? '\n' : ''}${renderCodeFrame(text, d, { location: label })}\n`;
    target.append(span);
    shown++;
  }
  return shown;
}

function renderTable(rows: readonly Record<string, unknown>[]): void {
  const table = element<HTMLTableElement>('results');
  const head = document.createElement('tr');
  for (const c of COLUMNS) {
    const th = document.createElement('th');
    th.textContent = c;
    head.append(th);
  }
  table.tHead!.replaceChildren(head);
  const body = table.tBodies[0]!;
  body.replaceChildren(
    ...rows.slice(0, SHOWN_ROWS).map((r) => {
      const tr = document.createElement('tr');
      for (const c of COLUMNS) {
        const td = document.createElement('td');
        const v = Object.hasOwn(r, c) ? r[c] : undefined;
        td.textContent = v === undefined || v === null ? '—' : typeof v === 'string' && /T00:00:00(\.000)?Z$/.test(v) ? v.slice(0, 10) : String(v);
        tr.append(td);
      }
      return tr;
    }),
  );
}

function update(): void {
  const filterText = filterView.state.doc.toString();
  builder?.showText(filterText);
  const sortText = sortView.state.doc.toString();
  const filter = analyzeFilter(filterText, { schema: employeeSchema });
  const sort = analyzeSort(sortText, { schema: employeeSchema });
  const filterOk = !hasErrors(filter.diagnostics) && filter.value !== undefined;
  const sortOk = !hasErrors(sort.diagnostics) && sort.value !== undefined;
  element('filter').classList.toggle('invalid', !filterOk);
  element('sort').classList.toggle('invalid', !sortOk);

  // The same findings as `wepql lint`: syntax, typing and the semantic rules.
  const diagnostics = element<HTMLPreElement>('diagnostics');
  diagnostics.replaceChildren();
  const count =
    renderDiagnostics(diagnostics, 'filter', filterText, lintText(filterText, 'filter', { schema: employeeSchema })) +
    renderDiagnostics(diagnostics, 'sort', sortText, lintText(sortText, 'sort', { schema: employeeSchema }));
  diagnostics.classList.toggle('ok', count === 0);
  if (count === 0) diagnostics.textContent = 'No problems.';

  element('canonical-filter').textContent = filterOk ? printFilter(filter.ast, { schema: employeeSchema }) || '(empty filter)' : '—';
  element('canonical-sort').textContent = sortOk ? printSort(sort.ast, { schema: employeeSchema }) || '(no sort)' : '—';
  element('explanation').textContent = filterOk ? (explain(filter.ast, { schema: employeeSchema }).value ?? '—') : '—';
  element('sort-explanation').textContent = sortOk ? (explain(sort.ast, { schema: employeeSchema }).value ?? '—') : '—';

  const countLine = element('count');
  if (!filterOk || !sortOk) {
    countLine.textContent = 'Fix the errors above to see matching employees.';
    renderTable([]);
    return;
  }
  const rows = query(records, { filter: filter.value, sort: sort.value, schema: employeeSchema });
  countLine.textContent = `${rows.length} of ${records.length} employees match${rows.length > SHOWN_ROWS ? ` (first ${SHOWN_ROWS} shown)` : ''}.`;
  renderTable(rows);
}

/** Enter in either box: the page's address takes the filter and sort, so it can be shared. */
function submit(): void {
  const params = new URLSearchParams({ filter: filterView.state.doc.toString(), sort: sortView.state.doc.toString() });
  window.history.replaceState(null, '', `${location.pathname}?${params}`);
  element('submitted').textContent = 'The address of this page now holds this filter and sort.';
}

/**
 * Tooltips (hover, lint, completion) are placed in the part of the window
 * below the site header: a hover that opens upward flips below the line
 * rather than covering the header and cutting off its actions.
 */
const tooltipsBelowHeader = tooltips({
  position: 'fixed',
  tooltipSpace: () => {
    const header = document.querySelector('header.site')?.getBoundingClientRect().bottom ?? 0;
    return { top: Math.max(0, header), left: 0, bottom: innerHeight, right: innerWidth };
  },
});

function editor(id: string, kind: 'filter' | 'sort', label: string): EditorView {
  return new EditorView({
    parent: element(id),
    extensions: [
      undoHistory(),
      tooltipsBelowHeader,
      keymap.of([...defaultKeymap, ...historyKeymap]),
      wepql({ schema: employeeSchema, kind, oneLine: { onSubmit: submit } }),
      EditorView.contentAttributes.of({ 'aria-label': label, spellcheck: 'false', autocorrect: 'off', autocapitalize: 'off' }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) update();
      }),
    ],
  });
}

const filterView = editor('filter', 'filter', 'Filter');
const sortView = editor('sort', 'sort', 'Sort');

// The visual builder tab: the builder writes its filter into the box, and the box's valid filters show in the builder.
const builder: ReturnType<typeof mountVisualBuilder> | undefined = mountVisualBuilder(element('builder'), {
  schema: employeeSchema,
  onText: (text) => filterView.dispatch({ changes: { from: 0, to: filterView.state.doc.length, insert: text } }),
  onDiagnostics: (found) => {
    element('builder-diagnostics').textContent = found
      .filter((d) => d.severity !== 'info' && d.start === undefined)
      .map((d) => `${d.severity} ${d.code} at rule [${d.path.join(', ')}]: ${d.message}`)
      .join('\n');
  },
});
for (const [tab, builderShown] of [['tab-text', false], ['tab-builder', true]] as const) {
  element(tab).addEventListener('click', () => {
    element('builder-panel').hidden = !builderShown;
    element('tab-text').setAttribute('aria-selected', String(!builderShown));
    element('tab-builder').setAttribute('aria-selected', String(builderShown));
  });
}

function load(filter: string, sort: string): void {
  filterView.dispatch({ changes: { from: 0, to: filterView.state.doc.length, insert: filter } });
  sortView.dispatch({ changes: { from: 0, to: sortView.state.doc.length, insert: sort } });
  update();
}

element('total').textContent = String(records.length);
element('examples').replaceChildren(
  ...EXAMPLES.map(([label, filter, sort]) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.title = filter;
    button.addEventListener('click', () => load(filter, sort));
    return button;
  }),
);

const params = new URLSearchParams(location.search);
load(params.get('filter') ?? EXAMPLES[1]![1], params.get('sort') ?? EXAMPLES[1]![2]);
// For the browser tests and the console: the two editors and the loader.
Object.assign(window, { playground: { filterView, sortView, load } });
document.body.dataset.ready = 'true';
