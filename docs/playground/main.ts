/**
 * The playground page: a filter and a sort typed by a person, run through
 * the library itself (bundled from src/ by esbuild at docs build time) over
 * the sample employees. Shows diagnostics as code frames, the canonical
 * form, the plain-English explanation, completions at the cursor and the
 * matching records.
 */
import type { CompletionItem } from '../../src/service/index.js';
import type { Diagnostic } from '../../src/index.js';
import { analyzeFilter, analyzeSort, hasErrors, printFilter, printSort, query, renderCodeFrame } from '../../src/index.js';
import { complete, explain } from '../../src/service/index.js';
import { employeeSchema } from '../../src/schemas/employee.js';
import employees from '../../examples/employees.json' with { type: 'json' };

const COLUMNS = ['Id', 'FirstName', 'LastName', 'Gender', 'BirthOn', 'EePortal', 'CreatedOn'] as const;
const SHOWN_ROWS = 25;
const EXAMPLES: readonly (readonly [label: string, filter: string, sort: string])[] = [
  ['starts with', 'LastName.StartsWith(Sm)', 'FirstName=Asc'],
  ['or group', 'LastName.StartsWith(S);Or(Gender.Equal(1);EePortal.Equal(true))', 'LastName=Asc;CreatedOn=Desc'],
  ['in fields', "'D'.StartsWithInFields(FirstName,LastName)", 'LastName=Asc'],
  ['list + null', 'Or(Gender.InArray(1,2);Gender.IsNull())', 'Gender=Desc;Id=Asc'],
  ['dates', 'CreatedOn.GreaterThanOrEqual(2020-01-01);BirthOn.LessThan(1970-01-01)', 'CreatedOn=Desc'],
  ['broken', 'LastName.StartWith(Sm);Gender.Equal(x)', 'LastName=Up'],
];

const records = employees as readonly Record<string, unknown>[];

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`playground: the page has no #${id}`);
  return found as T;
}

const filterInput = element<HTMLInputElement>('filter');
const sortInput = element<HTMLInputElement>('sort');
const filterSuggestions = element<HTMLDivElement>('suggestions');
const sortSuggestions = element<HTMLDivElement>('sort-suggestions');

/** Every diagnostic of one input as code frames, one span per severity colour. */
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
  const filterText = filterInput.value;
  const sortText = sortInput.value;
  const filter = analyzeFilter(filterText, { schema: employeeSchema });
  const sort = analyzeSort(sortText, { schema: employeeSchema });
  const filterOk = !hasErrors(filter.diagnostics) && filter.value !== undefined;
  const sortOk = !hasErrors(sort.diagnostics) && sort.value !== undefined;
  filterInput.classList.toggle('invalid', !filterOk);
  sortInput.classList.toggle('invalid', !sortOk);

  const diagnostics = element<HTMLPreElement>('diagnostics');
  diagnostics.replaceChildren();
  const count = renderDiagnostics(diagnostics, 'filter', filterText, filter.diagnostics) + renderDiagnostics(diagnostics, 'sort', sortText, sort.diagnostics);
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

/** The completions at the cursor of one input, as buttons that insert them. */
function showCompletions(input: HTMLInputElement, suggestions: HTMLElement, kind: 'filter' | 'sort'): void {
  const at = input.selectionStart ?? input.value.length;
  const result = complete(input.value, at, employeeSchema, { kind });
  suggestions.replaceChildren(
    ...result.items.slice(0, 30).map((item: CompletionItem) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = item.label;
      if (item.detail !== undefined) {
        const small = document.createElement('small');
        small.textContent = item.detail;
        button.append(small);
      }
      button.addEventListener('mousedown', (event) => {
        event.preventDefault();
        const text = input.value;
        input.value = text.slice(0, result.replace.start) + item.insertText + text.slice(result.replace.end);
        const caret = result.replace.start + item.insertText.length;
        input.setSelectionRange(caret, caret);
        update();
        showCompletions(input, suggestions, kind);
      });
      return button;
    }),
  );
}

function load(filter: string, sort: string): void {
  filterInput.value = filter;
  sortInput.value = sort;
  update();
  showFilterCompletions();
  showSortCompletions();
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
const showFilterCompletions = (): void => showCompletions(filterInput, filterSuggestions, 'filter');
const showSortCompletions = (): void => showCompletions(sortInput, sortSuggestions, 'sort');
for (const [input, show] of [
  [filterInput, showFilterCompletions],
  [sortInput, showSortCompletions],
] as const) {
  input.addEventListener('input', () => {
    update();
    show();
  });
  for (const event of ['click', 'keyup', 'focus'] as const) input.addEventListener(event, show);
}

const params = new URLSearchParams(location.search);
load(params.get('filter') ?? EXAMPLES[1]![1], params.get('sort') ?? EXAMPLES[1]![2]);
document.body.dataset.ready = 'true';
