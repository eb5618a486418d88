/**
 * The CodeMirror 6 extension for wepql filter and sort inputs. Every answer
 * comes from the language services (`highlightTokens`, `lintText`,
 * `complete`, `hoverAt`); this module only maps them onto CodeMirror's
 * decorations, lint marks, completion source and hover tooltips, so an
 * editor never disagrees with `wepql lint` or the server.
 */
import { autocompletion, type CompletionContext, type CompletionResult as CmCompletionResult } from '@codemirror/autocomplete';
import { linter, type Action, type Diagnostic as CmDiagnostic } from '@codemirror/lint';
import { EditorState, Prec, RangeSetBuilder, type Extension, type TransactionSpec } from '@codemirror/state';
import { Decoration, EditorView, hoverTooltip, keymap, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Limits } from '../diagnostics/limits.js';
import { lintText } from '../lint/lint-text.js';
import type { Schema } from '../schema/schema.js';
import { complete, type CompletionKind } from '../language-service/complete.js';
import { hoverAt } from '../language-service/hover.js';
import { highlightTokens, type TokenKind } from '../language-service/tokens.js';

/**
 * Options for `wepql`.
 *
 * @example
 * const options: WepqlEditorOptions = { schema: employeeSchema, kind: 'filter', oneLine: { onSubmit: (text) => search(text) } };
 */
export interface WepqlEditorOptions {
  /** Fields, their types and spelling: drives typing, lint rules, completion and hover. */
  readonly schema: Schema;
  /** Whether the editor holds a filter (default) or a sort. */
  readonly kind?: 'filter' | 'sort';
  /** Whether string comparisons are case-sensitive, for the lint rules (default false). */
  readonly caseSensitive?: boolean;
  readonly limits?: Partial<Limits>;
  /** Milliseconds after the last keystroke before diagnostics are recomputed (default 150). */
  readonly lintDelay?: number;
  /**
   * A filter bar: one line, newlines typed or pasted become spaces, and
   * Enter (when no completion is open) calls `onSubmit` instead of breaking
   * the line.
   */
  readonly oneLine?:
    | boolean
    | {
        /** Called with the editor's text when Enter is pressed and no completion is open. */
        readonly onSubmit?: (text: string, view: EditorView) => void;
      };
}

/**
 * The CodeMirror diagnostics of a text: every finding of `wepql lint`
 * (syntax, typing and the semantic rules), each fix as a "Fix" action and
 * each suggestion as a "Replace with …" action.
 *
 * @example
 * const marks = wepqlDiagnostics('EmployeeNumber.GreaterThan(500);EmployeeNumber.LessThan(100)', { schema: employeeSchema });
 * marks.map((d) => d.source); // ['contradiction', 'unsatisfiable-filter']
 */
export function wepqlDiagnostics(text: string, options: WepqlEditorOptions): CmDiagnostic[] {
  const findings = lintText(text, options.kind ?? 'filter', {
    schema: options.schema,
    caseSensitive: options.caseSensitive === true,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  return findings.map((d) => toCmDiagnostic(text, d));
}

function toCmDiagnostic(text: string, d: Diagnostic): CmDiagnostic {
  const actions: Action[] = [];
  if (d.fix !== undefined && d.fix.length > 0) {
    const edits = d.fix;
    actions.push({
      name: 'Fix',
      apply: (view) => {
        // The edits are offsets into the text that was linted; a later keystroke makes them stale.
        if (view.state.doc.toString() !== text) return;
        view.dispatch({ changes: edits.map((e) => ({ from: e.start, to: e.end, insert: e.newText })), userEvent: 'input.fix' });
      },
    });
  }
  if (d.suggestion !== undefined && d.suggestion !== '' && d.end >= d.start) {
    const suggestion = d.suggestion;
    actions.push({
      name: `Replace with ${suggestion.length > 60 ? `${suggestion.slice(0, 57)}…` : suggestion}`,
      apply: (view) => {
        if (view.state.doc.toString() !== text) return;
        view.dispatch({ changes: { from: d.start, to: d.end, insert: suggestion }, userEvent: 'input.suggestion' });
      },
    });
  }
  return {
    from: Math.min(d.start, text.length),
    to: Math.min(Math.max(d.end, d.start), text.length),
    severity: d.severity,
    source: d.code,
    message: d.message,
    ...(actions.length === 0 ? {} : { actions }),
  };
}

const TOKEN_MARKS: Readonly<Record<TokenKind, Decoration>> = {
  field: Decoration.mark({ class: 'cm-wepql-field' }),
  operator: Decoration.mark({ class: 'cm-wepql-operator' }),
  value: Decoration.mark({ class: 'cm-wepql-value' }),
  string: Decoration.mark({ class: 'cm-wepql-string' }),
  keyword: Decoration.mark({ class: 'cm-wepql-keyword' }),
  direction: Decoration.mark({ class: 'cm-wepql-direction' }),
};

function decorate(text: string, options: WepqlEditorOptions): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  for (const t of highlightTokens(text, {
    kind: options.kind ?? 'filter',
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  })) {
    builder.add(t.start, t.end, TOKEN_MARKS[t.kind]);
  }
  return builder.finish();
}

function highlighting(options: WepqlEditorOptions): Extension {
  return ViewPlugin.define(
    (view) => ({
      decorations: decorate(view.state.doc.toString(), options),
      update(this: { decorations: DecorationSet }, update: ViewUpdate) {
        if (update.docChanged) this.decorations = decorate(update.state.doc.toString(), options);
      },
    }),
    { decorations: (plugin) => plugin.decorations },
  );
}

const COMPLETION_TYPES: Readonly<Record<CompletionKind, string>> = {
  field: 'property',
  operator: 'method',
  keyword: 'keyword',
  value: 'constant',
  direction: 'enum',
};

function completionSource(options: WepqlEditorOptions) {
  return (context: CompletionContext): CmCompletionResult | null => {
    const text = context.state.doc.toString();
    const result = complete(text, context.pos, options.schema, { kind: options.kind ?? 'filter' });
    if (result.items.length === 0) return null;
    // Typing opens the menu only on a word or right after punctuation that starts something new.
    if (!context.explicit && result.replace.start === context.pos && !/[.(;,=]$/.test(text.slice(0, context.pos))) return null;
    return {
      from: result.replace.start,
      to: result.replace.end,
      // `complete` already filters by what is typed, in the language's own (case-insensitive) way.
      filter: false,
      options: result.items.map((item) => ({
        label: item.label,
        type: COMPLETION_TYPES[item.kind],
        apply: item.insertText,
        ...(item.detail === undefined ? {} : { detail: item.detail }),
      })),
    };
  };
}

/** Markdown of a hover (`**bold**` and paragraphs only) as DOM nodes; text is never parsed as HTML. */
function hoverDom(markdown: string): HTMLElement {
  const dom = document.createElement('div');
  dom.className = 'cm-wepql-hover';
  for (const paragraph of markdown.split('\n\n')) {
    const p = document.createElement('p');
    paragraph.split(/(\*\*[^*]+\*\*)/).forEach((part) => {
      if (part.startsWith('**') && part.endsWith('**') && part.length > 4) {
        const strong = document.createElement('strong');
        strong.textContent = part.slice(2, -2);
        p.append(strong);
      } else if (part !== '') p.append(part);
    });
    dom.append(p);
  }
  return dom;
}

function hover(options: WepqlEditorOptions): Extension {
  return hoverTooltip((view, pos) => {
    const info = hoverAt(view.state.doc.toString(), pos, options.schema, {
      kind: options.kind ?? 'filter',
      ...(options.limits === undefined ? {} : { limits: options.limits }),
    });
    if (info === undefined) return null;
    return { pos: info.start, end: info.end, above: true, create: () => ({ dom: hoverDom(info.markdown) }) };
  });
}

/** Newlines typed or pasted become spaces, one for one, so the selection stays valid. */
const singleLine = EditorState.transactionFilter.of((tr) => {
  if (!tr.docChanged || tr.newDoc.lines === 1) return tr;
  const changes: { from: number; to: number; insert: string }[] = [];
  tr.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
    changes.push({ from: fromA, to: toA, insert: inserted.toString().replace(/[\r\n]/g, ' ') });
  });
  const spec: TransactionSpec = { changes, selection: tr.newSelection, scrollIntoView: tr.scrollIntoView, effects: tr.effects };
  return spec;
});

function oneLine(onSubmit: ((text: string, view: EditorView) => void) | undefined): Extension {
  return [
    singleLine,
    // After the autocompletion keymap (same precedence, later in the list), so Enter accepts an open completion first.
    Prec.highest(
      keymap.of([
        {
          key: 'Enter',
          run: (view) => {
            onSubmit?.(view.state.doc.toString(), view);
            return true;
          },
        },
      ]),
    ),
    EditorView.theme({ '.cm-content': { whiteSpace: 'pre' }, '.cm-line': { whiteSpace: 'pre' } }),
  ];
}

const baseTheme = EditorView.baseTheme({
  '.cm-wepql-field': { color: '#1f5fbf' },
  '.cm-wepql-operator': { color: '#7a3e9d', fontWeight: '600' },
  '.cm-wepql-value': { color: '#1e6b34' },
  '.cm-wepql-string': { color: '#a3511f' },
  '.cm-wepql-keyword': { color: '#b3261e', fontWeight: '700' },
  '.cm-wepql-direction': { color: '#7a3e9d', fontWeight: '600' },
  '.cm-wepql-hover': { padding: '2px 8px', maxWidth: '40em', fontFamily: 'system-ui, sans-serif', fontSize: '13px' },
  '.cm-wepql-hover p': { margin: '4px 0' },
  '&dark .cm-wepql-field': { color: '#7fb0ff' },
  '&dark .cm-wepql-operator': { color: '#d2a8ff' },
  '&dark .cm-wepql-value': { color: '#7ee2a8' },
  '&dark .cm-wepql-string': { color: '#ffb07a' },
  '&dark .cm-wepql-keyword': { color: '#ff8a80' },
  '&dark .cm-wepql-direction': { color: '#d2a8ff' },
});

/**
 * The CodeMirror 6 extension for a wepql filter (or sort) editor:
 * highlighting of fields, operators, values, quoted values, group keywords
 * and directions; lint marks for every finding of `wepql lint` with fixes
 * and suggestions as actions; completion of fields, operators, values and
 * directions by the field's type; hover with the field's type and the
 * clause in plain English; and, with `oneLine`, a filter bar where Enter
 * submits. Add `@codemirror/*` to your app; they are peer dependencies.
 *
 * @example
 * import { EditorView, basicSetup } from 'codemirror';
 * import { wepql } from 'wepql/codemirror';
 * import { employeeSchema } from 'wepql';
 * new EditorView({
 *   doc: 'LastName.StartsWith(Sm)',
 *   extensions: [basicSetup, wepql({ schema: employeeSchema, oneLine: { onSubmit: (filter) => load(filter) } })],
 *   parent: document.querySelector('#filter')!,
 * });
 */
export function wepql(options: WepqlEditorOptions): Extension {
  const submit = typeof options.oneLine === 'object' ? options.oneLine.onSubmit : undefined;
  return [
    baseTheme,
    highlighting(options),
    linter((view) => wepqlDiagnostics(view.state.doc.toString(), options), { delay: options.lintDelay ?? 150 }),
    autocompletion({ override: [completionSource(options)], icons: false }),
    hover(options),
    options.oneLine === undefined || options.oneLine === false ? [] : oneLine(submit),
  ];
}
