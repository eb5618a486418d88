/**
 * `wepql lsp`: a Language Server Protocol server over stdio for files of
 * saved filters (`.wepql`: one filter per line, `# comments`; and the
 * `filter`/`sort` strings of `.json`/`.ndjson` files, as `wepql lint` reads
 * them). Diagnostics as you type, completion, hover, formatting, code
 * actions for every fix and suggestion, and go-to-definition into the schema
 * file. Every answer comes from the same functions as the CLI and the
 * CodeMirror package, so the editor and `wepql lint` never disagree.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  CompletionItemKind,
  createConnection,
  DiagnosticSeverity,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type CompletionItem,
  type Connection,
  type Diagnostic as LspDiagnostic,
  type InitializeResult,
  type TextEdit as LspTextEdit,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { findConfig, loadConfig, type LintConfig } from '../workspace/config.js';
import { loadYaml, type SavedSelectors } from '../workspace/saved-filters.js';
import { excludedFiles, neverSavedFilters, selectorsOf } from '../workspace/sources.js';
import type { Diagnostic, TextEdit } from '../diagnostics/diagnostic.js';
import { fixText, lintText } from '../lint/lint-text.js';
import { formatFilter, formatSort } from '../print/format.js';
import { loadSchemaJson } from '../schema/load-schema.js';
import type { Schema } from '../schema/schema.js';
import { complete, type CompletionKind } from '../language-service/complete.js';
import { explain } from '../language-service/explain.js';
import { hoverAt } from '../language-service/hover.js';
import { documentEntries, encodeEntryText, entryAt, schemaFieldLocations, toFileOffset, type DocumentEntry } from './documents.js';

/**
 * How the server is set up: from `wepql lsp --schema FILE`, or the client's
 * `initializationOptions` (`{ "schema": "path/to/schema.json", "caseSensitive": false }`).
 */
export interface LspOptions {
  /** Path of the schema JSON file; relative paths are read from the workspace root. */
  readonly schemaFile?: string;
  readonly caseSensitive?: boolean;
}

interface LoadedSchema {
  readonly schema: Schema;
  readonly path: string;
  readonly text: string;
}

const SEVERITY: Readonly<Record<Diagnostic['severity'], DiagnosticSeverity>> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

const COMPLETION_KINDS: Readonly<Record<CompletionKind, CompletionItemKind>> = {
  field: CompletionItemKind.Field,
  operator: CompletionItemKind.Method,
  keyword: CompletionItemKind.Keyword,
  value: CompletionItemKind.Value,
  direction: CompletionItemKind.EnumMember,
};

/** Starts the server on stdin/stdout and resolves when the client has sent `exit`. */
export function startLanguageServer(options: LspOptions = {}): Promise<void> {
  const connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout);
  const done = new Promise<void>((resolveDone) => connection.onExit(() => resolveDone()));
  serve(connection, options);
  connection.listen();
  return done;
}

function serve(connection: Connection, options: LspOptions): void {
  const documents = new TextDocuments(TextDocument);
  let schema: LoadedSchema | undefined;
  let caseSensitive = options.caseSensitive === true;
  let selectors: SavedSelectors = {};
  let rules: LintConfig['rules'];

  const lintOptions = () => ({ ...(schema === undefined ? {} : { schema: schema.schema }), caseSensitive });
  /** Every finding of `wepql lint`, with the config's rule severities (`off` drops one). */
  const findings = (text: string, kind: 'filter' | 'sort'): Diagnostic[] =>
    lintText(text, kind, lintOptions()).flatMap((d) => {
      if (rules === undefined || !Object.hasOwn(rules, d.code)) return [d];
      const setting = rules[d.code]!;
      return setting === 'off' ? [] : [{ ...d, severity: setting }];
    });
  const pathOf = (uri: string): string => (uri.startsWith('file:') ? fileURLToPath(uri) : uri);
  // The files `wepql lint` never reads as saved filters (package.json, the config, the schema) get no findings here either.
  let neverRead: ReadonlySet<string> = new Set();
  const entriesOf = (doc: TextDocument): DocumentEntry[] =>
    neverSavedFilters(pathOf(doc.uri), doc.getText(), neverRead) ? [] : documentEntries(pathOf(doc.uri), doc.getText(), selectors);
  const rangeOf = (doc: TextDocument, e: DocumentEntry, start: number, end: number) => ({
    start: doc.positionAt(toFileOffset(e, start)),
    end: doc.positionAt(toFileOffset(e, end)),
  });

  connection.onInitialize(async (params): Promise<InitializeResult> => {
    const init = (params.initializationOptions ?? {}) as { schema?: unknown; caseSensitive?: unknown };
    const root = params.rootUri?.startsWith('file:') ? fileURLToPath(params.rootUri) : process.cwd();
    // The project's wepql.config.json, as `wepql lint` reads it: schema, selectors, rules.
    let config: LintConfig = {};
    const configFile = findConfig(root);
    if (configFile !== undefined) {
      try {
        config = loadConfig(configFile);
        selectors = selectorsOf(config.filterPath, config.sortPath);
        neverRead = excludedFiles(config, []);
        rules = config.rules;
      } catch (e) {
        connection.console.error(`wepql lsp: ${(e as Error).message}`);
      }
    }
    // YAML files of saved filters, and selectors, need the YAML reader.
    await loadYaml();
    const file = options.schemaFile ?? (typeof init.schema === 'string' ? init.schema : undefined);
    if (config.caseSensitive !== undefined) caseSensitive = config.caseSensitive;
    if (typeof init.caseSensitive === 'boolean') caseSensitive = init.caseSensitive;
    if (options.caseSensitive === true) caseSensitive = true;
    const schemaPath = file === undefined ? config.schema : isAbsolute(file) ? file : resolve(root, file);
    if (schemaPath !== undefined) {
      const path = schemaPath;
      try {
        const text = readFileSync(path, 'utf8');
        const loaded = loadSchemaJson(text);
        if (loaded.value !== undefined) schema = { schema: loaded.value, path, text };
        else connection.console.error(`wepql lsp: invalid schema file ${path}: ${loaded.errors.join('; ')}`);
      } catch (e) {
        connection.console.error(`wepql lsp: cannot read schema file ${path}: ${(e as Error).message}`);
      }
    }
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: ['.', '(', ';', ',', '='] },
        hoverProvider: true,
        documentFormattingProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.SourceFixAll] },
        definitionProvider: true,
      },
      serverInfo: { name: 'wepql', version: '0.1.0' },
    };
  });

  const publish = (doc: TextDocument): void => {
    const diagnostics: LspDiagnostic[] = [];
    for (const e of entriesOf(doc)) {
      for (const d of findings(e.entry.text, e.entry.kind)) {
        diagnostics.push({
          range: rangeOf(doc, e, d.start, d.end),
          severity: SEVERITY[d.severity],
          code: d.code,
          source: 'wepql',
          message: d.suggestion === undefined ? d.message : `${d.message}\nsuggestion: ${d.suggestion}`,
          data: { start: d.start, end: d.end },
        });
      }
    }
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  };
  documents.onDidChangeContent((change) => publish(change.document));
  documents.onDidClose((event) => void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] }));

  connection.onCompletion((params): CompletionItem[] => {
    const doc = documents.get(params.textDocument.uri);
    if (doc === undefined || schema === undefined) return [];
    const hit = entryAt(entriesOf(doc), doc.offsetAt(params.position));
    if (hit === undefined) return [];
    const result = complete(hit.entry.entry.text, hit.at, schema.schema, { kind: hit.entry.entry.kind });
    const range = rangeOf(doc, hit.entry, result.replace.start, result.replace.end);
    return result.items.map((item, i) => ({
      label: item.label,
      kind: COMPLETION_KINDS[item.kind],
      ...(item.detail === undefined ? {} : { detail: item.detail }),
      // `complete` orders the items; keep that order in the client's menu.
      sortText: String(i).padStart(4, '0'),
      filterText: item.label,
      textEdit: { range, newText: encodeFragment(hit.entry, item.insertText) },
    }));
  });

  connection.onHover((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (doc === undefined) return null;
    const hit = entryAt(entriesOf(doc), doc.offsetAt(params.position));
    if (hit === undefined) return null;
    const { text, kind } = hit.entry.entry;
    if (schema === undefined) {
      const sentence = explain(text, { kind }).value;
      return sentence === undefined ? null : { contents: { kind: 'markdown', value: sentence } };
    }
    const info = hoverAt(text, hit.at, schema.schema, { kind });
    if (info === undefined) return null;
    const parts = [info.markdown];
    // The whole entry, pretty-printed: a long filter is easier to read on several lines.
    if (kind === 'filter' && text.length > 60) {
      try {
        parts.push('```wepql\n' + formatFilter(text, { schema: schema.schema, pretty: true, width: 60 }) + '\n```');
      } catch {
        // A filter with errors has no pretty form; the diagnostics say why.
      }
    }
    return { contents: { kind: 'markdown', value: parts.join('\n\n') }, range: rangeOf(doc, hit.entry, info.start, info.end) };
  });

  connection.onDocumentFormatting((params): LspTextEdit[] => {
    const doc = documents.get(params.textDocument.uri);
    if (doc === undefined) return [];
    const edits: LspTextEdit[] = [];
    for (const e of entriesOf(doc)) {
      const formatOptions = schema === undefined ? {} : { schema: schema.schema };
      let canonical: string;
      try {
        canonical = e.entry.kind === 'filter' ? formatFilter(e.entry.text, formatOptions) : formatSort(e.entry.text, formatOptions);
      } catch {
        continue; // a text with errors is left as written
      }
      if (canonical === e.entry.text) continue;
      edits.push({
        range: { start: doc.positionAt(e.entry.range.start), end: doc.positionAt(e.entry.range.end) },
        newText: encodeEntryText(e.entry, canonical, doc.getText()),
      });
    }
    return edits;
  });

  connection.onCodeAction((params): CodeAction[] => {
    const doc = documents.get(params.textDocument.uri);
    if (doc === undefined) return [];
    const actions: CodeAction[] = [];
    const first = doc.offsetAt(params.range.start);
    const last = doc.offsetAt(params.range.end);
    const entries = entriesOf(doc);
    const wantFixAll = params.context.only?.some((k) => k.startsWith(CodeActionKind.SourceFixAll) || k === CodeActionKind.Source) ?? false;
    const wantQuick = params.context.only === undefined || params.context.only.some((k) => CodeActionKind.QuickFix.startsWith(k));
    if (wantQuick) {
      for (const e of entries) {
        const from = toFileOffset(e, 0);
        const to = toFileOffset(e, e.entry.text.length);
        if (to < first || from > last) continue;
        for (const d of findings(e.entry.text, e.entry.kind)) {
          const dFrom = toFileOffset(e, d.start);
          const dTo = toFileOffset(e, d.end);
          if (dTo < first || dFrom > last) continue;
          const related: LspDiagnostic = { range: rangeOf(doc, e, d.start, d.end), message: d.message, code: d.code, source: 'wepql' };
          if (d.fix !== undefined && d.fix.length > 0) {
            actions.push({
              title: `Fix ${d.code}`,
              kind: CodeActionKind.QuickFix,
              isPreferred: true,
              diagnostics: [related],
              edit: { changes: { [doc.uri]: entryEdits(doc, e, d.fix) } },
            });
          }
          if (d.suggestion !== undefined && d.suggestion !== '') {
            actions.push({
              title: `Replace with ${d.suggestion}`,
              kind: CodeActionKind.QuickFix,
              diagnostics: [related],
              edit: { changes: { [doc.uri]: entryEdits(doc, e, [{ start: d.start, end: d.end, newText: d.suggestion }]) } },
            });
          }
        }
      }
    }
    if (wantFixAll || params.context.only === undefined) {
      const edits: LspTextEdit[] = [];
      for (const e of entries) {
        const fixed = fixText(e.entry.text, e.entry.kind, lintOptions());
        if (fixed === undefined || fixed === e.entry.text) continue;
        edits.push({ range: { start: doc.positionAt(e.entry.range.start), end: doc.positionAt(e.entry.range.end) }, newText: encodeEntryText(e.entry, fixed, doc.getText()) });
      }
      if (edits.length > 0) actions.push({ title: 'Fix all safely fixable wepql findings', kind: CodeActionKind.SourceFixAll, edit: { changes: { [doc.uri]: edits } } });
    }
    return actions;
  });

  connection.onDefinition((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (doc === undefined || schema === undefined) return null;
    const hit = entryAt(entriesOf(doc), doc.offsetAt(params.position));
    if (hit === undefined) return null;
    const info = hoverAt(hit.entry.entry.text, hit.at, schema.schema, { kind: hit.entry.entry.kind });
    if (info?.field === undefined) return null;
    const at = schemaFieldLocations(schema.text).get(info.field.path.join('.'));
    if (at === undefined) return null;
    const schemaDoc = TextDocument.create(pathToFileURL(schema.path).href, 'json', 0, schema.text);
    const start = schemaDoc.positionAt(at);
    const end = schemaDoc.positionAt(at + JSON.stringify(info.field.path[info.field.path.length - 1]).length);
    return { uri: schemaDoc.uri, range: { start, end } };
  });

  documents.listen(connection);
}

/** A piece of an entry's text as the file stores it: inside a JSON or YAML quoted string, escaped. */
function encodeFragment(e: DocumentEntry, text: string): string {
  if (e.entry.encoding === 'json-string') return JSON.stringify(text).slice(1, -1);
  if (e.entry.encoding === 'yaml-single') return text.replace(/'/g, "''");
  return text;
}

/**
 * The document edits of edits to one entry's text. In a line of a `.wepql`
 * file they apply where they are; in a JSON or YAML string the entry is
 * rewritten whole, so that quoting and escapes stay right.
 */
function entryEdits(doc: TextDocument, e: DocumentEntry, edits: readonly TextEdit[]): LspTextEdit[] {
  if (e.entry.encoding === 'raw') {
    return edits.map((f) => ({ range: { start: doc.positionAt(toFileOffset(e, f.start)), end: doc.positionAt(toFileOffset(e, f.end)) }, newText: f.newText }));
  }
  let text = e.entry.text;
  for (const f of [...edits].sort((a, b) => b.start - a.start)) text = text.slice(0, f.start) + f.newText + text.slice(f.end);
  return [{ range: { start: doc.positionAt(e.entry.range.start), end: doc.positionAt(e.entry.range.end) }, newText: encodeEntryText(e.entry, text, doc.getText()) }];
}
