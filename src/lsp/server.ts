/**
 * The language half of `wepql lsp` (start.ts answers `initialize` and loads
 * this module behind it): a Language Server Protocol server for files of
 * saved filters (`.wepql`: one filter per line, `# comments`; and the
 * `filter`/`sort` strings of `.json`/`.ndjson` files, as `wepql lint` reads
 * them). Diagnostics as you type (after a pause, dropped when a newer
 * version arrives), completion, hover, semantic tokens, formatting, code
 * actions for every fix and suggestion, and go-to-definition into the schema
 * file. Every answer comes from the same functions as the CLI and the
 * CodeMirror package, so the editor and `wepql lint` never disagree.
 */
import { basename, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  SemanticTokensBuilder,
  type CodeAction,
  type CodeActionParams,
  type CompletionItem,
  type Connection,
  type Diagnostic as LspDiagnostic,
  type Hover,
  type InitializeParams,
  type Location,
  type SemanticTokens,
  type TextDocumentPositionParams,
  type TextDocuments,
  type TextEdit as LspTextEdit,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fileRules, reportedFindings, type RuleSettings } from '../workspace/lint-rules.js';
import { loadYaml, type SavedEntry, type SavedSelectors, type UnknownDisableCode } from '../workspace/saved-filters.js';
import { excludedFiles, neverSavedFilters, selectorsOf } from '../workspace/sources.js';
import { readRegularText } from '../workspace/source-text.js';
import type { Diagnostic, TextEdit } from '../diagnostics/diagnostic.js';
import { fixText, lintText } from '../lint/lint-text.js';
import { formatFilter, formatSort } from '../print/format.js';
import { loadSchemaJson } from '../schema/load-schema.js';
import type { Schema } from '../schema/schema.js';
import { complete, type CompletionKind } from '../language-service/complete.js';
import { explain } from '../language-service/explain.js';
import { hoverAt } from '../language-service/hover.js';
import { documentEntries, encodeEntryText, entryAt, schemaFieldLocations, toFileOffset, type DocumentEntry } from './documents.js';
import { CONFIG_FILE } from '../workspace/config.js';
import { readProjectConfig } from './project-config.js';
import { createRelinter } from './relint.js';
import { filterSpans, sortSpans } from './semantic-tokens.js';
import { SEMANTIC_TOKEN_TYPES } from './token-legend.js';
import type { LspOptions } from './start.js';

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

/**
 * What the server answers once the language is loaded: each request the
 * client may send, and the documents' changes to relint.
 *
 * @example
 * const language = await openLanguage(connection, documents, options, params);
 * connection.onHover((p) => language.hover(p));
 */
export interface Language {
  completion(params: TextDocumentPositionParams): CompletionItem[];
  hover(params: TextDocumentPositionParams): Hover | null;
  formatting(uri: string): LspTextEdit[];
  codeActions(params: CodeActionParams): CodeAction[];
  definition(params: TextDocumentPositionParams): Location | null;
  semanticTokens(uri: string): SemanticTokens;
  /** A document was opened or changed: relint it after a pause. */
  changed(doc: TextDocument): void;
  /** A document was closed: forget it and clear its diagnostics. */
  closed(uri: string): void;
  /**
   * Files changed on disk (the client's `workspace/didChangeWatchedFiles`):
   * when one is a `wepql.config.json` or the schema in use, the project is
   * read again and every open document relinted.
   */
  watched(uris: readonly string[]): void;
  /** The file names the client should watch for `watched` (globs: the config, and the schema's name). */
  watchGlobs(): string[];
}

/** What the handlers share: the open documents and what `initialize` loaded. */
interface ServerState {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  schema: LoadedSchema | undefined;
  caseSensitive: boolean;
  selectors: SavedSelectors;
  /** The rules of a file: the config's `rules` and the `overrides` that match it, as `wepql lint` applies them. */
  rulesOf: (abs: string | undefined) => RuleSettings;
  /** The files `wepql lint` never reads as saved filters (package.json, the config, the schema): no findings here either. */
  neverRead: ReadonlySet<string>;
  /** The schema file named (by `--schema`, the client's settings or the config), read or not. */
  schemaPath: string | undefined;
  /** The config file whose problems were last published (cleared when a reread finds none). */
  configProblemsUri: string | undefined;
}

/**
 * Reads the project as `initialize` describes it (its wepql.config.json,
 * the schema) and returns the handlers of every request.
 *
 * @example
 * const language = await openLanguage(connection, documents, { schemaFile: 'schemas/employee.json' }, params);
 */
export async function openLanguage(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  options: LspOptions,
  params: InitializeParams,
): Promise<Language> {
  const state: ServerState = {
    connection,
    documents,
    schema: undefined,
    caseSensitive: options.caseSensitive === true,
    selectors: {},
    rulesOf: () => undefined,
    neverRead: new Set(),
    schemaPath: undefined,
    configProblemsUri: undefined,
  };
  await initialize(state, options, params);
  const relinter = diagnosticsRelinter(state);
  let rereading = Promise.resolve();
  return {
    completion: (p) => completionAt(state, p),
    hover: (p) => hoverFor(state, p),
    formatting: (uri) => formattingEdits(state, uri),
    codeActions: (p) => codeActions(state, p),
    definition: (p) => definitionAt(state, p),
    semanticTokens: (uri) => semanticTokens(state, uri),
    changed: (doc) => relinter.changed(doc),
    closed(uri) {
      relinter.closed(uri);
      void connection.sendDiagnostics({ uri, diagnostics: [] });
    },
    watched(uris) {
      const paths = uris.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u));
      if (!paths.some((path) => basename(path) === CONFIG_FILE || path === state.schema?.path || path === state.schemaPath)) return;
      // One reread at a time, in the order the changes came; then every open document against what was read.
      rereading = rereading.then(async () => {
        state.caseSensitive = options.caseSensitive === true;
        state.schema = undefined;
        await initialize(state, options, params);
        for (const doc of documents.all()) relinter.changed(doc);
      });
    },
    watchGlobs: () => [`**/${CONFIG_FILE}`, ...(state.schemaPath === undefined ? [] : [`**/${basename(state.schemaPath)}`])],
  };
}

const lintOptions = (state: ServerState) => ({
  ...(state.schema === undefined ? {} : { schema: state.schema.schema }),
  caseSensitive: state.caseSensitive,
});

/**
 * Every finding `wepql lint` reports for an entry of a file: the config's
 * rule severities and the `overrides` that match the file (`off` drops a
 * finding), and the entry's own `wepql-disable`.
 */
function findings(state: ServerState, uri: string, entry: SavedEntry): Diagnostic[] {
  return reportedFindings(
    lintText(entry.text, entry.kind, lintOptions(state)),
    entry,
    state.rulesOf(uri.startsWith('file:') ? fileURLToPath(uri) : undefined),
  );
}

const pathOf = (uri: string): string => (uri.startsWith('file:') ? fileURLToPath(uri) : uri);
// Always read past an unknown code to disable: completion, hover and the rest work on such a file too (the lint shows the code).
const entriesOf = (state: ServerState, doc: TextDocument, unknownCodes: UnknownDisableCode[] = []): DocumentEntry[] =>
  neverSavedFilters(pathOf(doc.uri), doc.getText(), state.neverRead)
    ? []
    : documentEntries(pathOf(doc.uri), doc.getText(), state.selectors, unknownCodes);
const rangeOf = (doc: TextDocument, e: DocumentEntry, start: number, end: number) => ({
  start: doc.positionAt(toFileOffset(e, start)),
  end: doc.positionAt(toFileOffset(e, end)),
});

async function initialize(state: ServerState, options: LspOptions, params: InitializeParams): Promise<void> {
  const { connection } = state;
  const init = (params.initializationOptions ?? {}) as { schema?: unknown; caseSensitive?: unknown };
  const root = params.rootUri?.startsWith('file:') ? fileURLToPath(params.rootUri) : process.cwd();
  // The project's wepql.config.json, as `wepql lint` reads it (schema, selectors, rules and overrides),
  // confined to the project; one it cannot use is shown on the config file and not applied.
  const { config, problems } = readProjectConfig(root);
  state.selectors = selectorsOf(config.filterPath, config.sortPath);
  state.neverRead = excludedFiles(config, []);
  state.rulesOf = fileRules(config, root);
  for (const problem of problems) connection.console.error(`wepql lsp: ${problem.uri}: ${problem.message}`);
  // A reread that finds the config mended clears what the last one showed on it.
  if (problems.length === 0 && state.configProblemsUri !== undefined)
    void connection.sendDiagnostics({ uri: state.configProblemsUri, diagnostics: [] });
  state.configProblemsUri = problems[0]?.uri;
  if (problems.length > 0) {
    void connection.sendDiagnostics({
      uri: problems[0]!.uri,
      diagnostics: problems.map((p) => ({ range: p.range, severity: DiagnosticSeverity.Error, source: 'wepql', message: p.message })),
    });
  }
  // YAML files of saved filters, and selectors, need the YAML reader.
  await loadYaml();
  const file = options.schemaFile ?? (typeof init.schema === 'string' ? init.schema : undefined);
  if (config.caseSensitive !== undefined) state.caseSensitive = config.caseSensitive;
  if (typeof init.caseSensitive === 'boolean') state.caseSensitive = init.caseSensitive;
  if (options.caseSensitive === true) state.caseSensitive = true;
  const schemaPath = file === undefined ? config.schema : isAbsolute(file) ? file : resolve(root, file);
  state.schemaPath = schemaPath;
  if (schemaPath !== undefined) state.schema = loadSchemaFor(connection, schemaPath);
}

function loadSchemaFor(connection: Connection, path: string): LoadedSchema | undefined {
  let text: string;
  try {
    // As `wepql lint` reads one: a regular file of bounded size. A FIFO or device named in the editor's
    // settings or the config would otherwise hold the server at `initialize` for good.
    text = readRegularText(path, 'schema');
  } catch (e) {
    connection.console.error(`wepql lsp: ${(e as Error).message}`);
    return undefined;
  }
  const loaded = loadSchemaJson(text);
  if (loaded.value !== undefined) return { schema: loaded.value, path, text };
  connection.console.error(`wepql lsp: invalid schema file ${path}: ${loaded.errors.join('; ')}`);
  return undefined;
}

/** Diagnostics after each pause in typing, linted in slices and dropped when a newer version arrives. */
function diagnosticsRelinter(state: ServerState) {
  const { connection, documents } = state;
  return createRelinter<TextDocument, LspDiagnostic>({
    current: (uri) => documents.get(uri),
    lint(doc) {
      const unknownCodes: UnknownDisableCode[] = [];
      const slices = entriesOf(state, doc, unknownCodes).map(
        (e) => () =>
          findings(state, doc.uri, e.entry).map((d) => ({
            range: rangeOf(doc, e, d.start, d.end),
            severity: SEVERITY[d.severity],
            code: d.code,
            source: 'wepql',
            message: d.suggestion === undefined ? d.message : `${d.message}\nsuggestion: ${d.suggestion}`,
            data: { start: d.start, end: d.end },
          })),
      );
      // A disable naming no code is shown where it is written (`wepql lint` stops on it); the entries' findings stay.
      return [...slices, () => unknownDisableDiagnostics(doc, unknownCodes)];
    },
    publish: (doc, diagnostics) => void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: [...diagnostics] }),
  });
}

/** One error per unknown code a `wepql-disable` names (a YAML value shared by an entry's filter and sort is read twice: shown once). */
function unknownDisableDiagnostics(doc: TextDocument, unknownCodes: readonly UnknownDisableCode[]): LspDiagnostic[] {
  const seen = new Set<string>();
  const out: LspDiagnostic[] = [];
  for (const u of unknownCodes) {
    const key = `${u.start}:${u.end}:${u.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      range: { start: doc.positionAt(u.start), end: doc.positionAt(u.end) },
      severity: DiagnosticSeverity.Error,
      source: 'wepql',
      message: u.message,
    });
  }
  return out;
}

function completionAt(state: ServerState, params: TextDocumentPositionParams): CompletionItem[] {
  const doc = state.documents.get(params.textDocument.uri);
  if (doc === undefined || state.schema === undefined) return [];
  const hit = entryAt(entriesOf(state, doc), doc.offsetAt(params.position));
  if (hit === undefined) return [];
  const result = complete(hit.entry.entry.text, hit.at, state.schema.schema, { kind: hit.entry.entry.kind });
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
}

function hoverFor(state: ServerState, params: TextDocumentPositionParams): Hover | null {
  const doc = state.documents.get(params.textDocument.uri);
  if (doc === undefined) return null;
  const hit = entryAt(entriesOf(state, doc), doc.offsetAt(params.position));
  if (hit === undefined) return null;
  const { text, kind } = hit.entry.entry;
  if (state.schema === undefined) {
    const sentence = explain(text, { kind }).value;
    return sentence === undefined ? null : { contents: { kind: 'markdown', value: sentence } };
  }
  const info = hoverAt(text, hit.at, state.schema.schema, { kind });
  if (info === undefined) return null;
  const parts = [info.markdown];
  // The whole entry, pretty-printed: a long filter is easier to read on several lines.
  if (kind === 'filter' && text.length > 60) {
    try {
      parts.push('```wepql\n' + formatFilter(text, { schema: state.schema.schema, pretty: true, width: 60 }) + '\n```');
    } catch {
      // A filter with errors has no pretty form; the diagnostics say why.
    }
  }
  return { contents: { kind: 'markdown', value: parts.join('\n\n') }, range: rangeOf(doc, hit.entry, info.start, info.end) };
}

function formattingEdits(state: ServerState, uri: string): LspTextEdit[] {
  const doc = state.documents.get(uri);
  if (doc === undefined) return [];
  const edits: LspTextEdit[] = [];
  const formatOptions = state.schema === undefined ? {} : { schema: state.schema.schema };
  for (const e of entriesOf(state, doc)) {
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
}

function codeActions(state: ServerState, params: CodeActionParams): CodeAction[] {
  const doc = state.documents.get(params.textDocument.uri);
  if (doc === undefined) return [];
  const entries = entriesOf(state, doc);
  const only = params.context.only;
  const wantFixAll = only?.some((k) => k.startsWith(CodeActionKind.SourceFixAll) || k === CodeActionKind.Source) ?? false;
  const wantQuick = only === undefined || only.some((k) => CodeActionKind.QuickFix.startsWith(k));
  const actions = wantQuick ? quickFixes(state, doc, entries, doc.offsetAt(params.range.start), doc.offsetAt(params.range.end)) : [];
  if (wantFixAll || only === undefined) {
    const edits: LspTextEdit[] = [];
    for (const e of entries) {
      const fixed = fixText(e.entry.text, e.entry.kind, lintOptions(state));
      if (fixed === undefined || fixed === e.entry.text) continue;
      edits.push({
        range: { start: doc.positionAt(e.entry.range.start), end: doc.positionAt(e.entry.range.end) },
        newText: encodeEntryText(e.entry, fixed, doc.getText()),
      });
    }
    if (edits.length > 0)
      actions.push({
        title: 'Fix all safely fixable wepql findings',
        kind: CodeActionKind.SourceFixAll,
        edit: { changes: { [doc.uri]: edits } },
      });
  }
  return actions;
}

/** A quick fix for every fixable finding in the range, and a replacement for every suggestion. */
function quickFixes(state: ServerState, doc: TextDocument, entries: readonly DocumentEntry[], first: number, last: number): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const e of entries) {
    if (toFileOffset(e, e.entry.text.length) < first || toFileOffset(e, 0) > last) continue;
    for (const d of findings(state, doc.uri, e.entry)) {
      if (toFileOffset(e, d.end) < first || toFileOffset(e, d.start) > last) continue;
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
        const edit = { changes: { [doc.uri]: entryEdits(doc, e, [{ start: d.start, end: d.end, newText: d.suggestion }]) } };
        actions.push({ title: `Replace with ${d.suggestion}`, kind: CodeActionKind.QuickFix, diagnostics: [related], edit });
      }
    }
  }
  return actions;
}

function definitionAt(state: ServerState, params: TextDocumentPositionParams): Location | null {
  const { schema } = state;
  const doc = state.documents.get(params.textDocument.uri);
  if (doc === undefined || schema === undefined) return null;
  const hit = entryAt(entriesOf(state, doc), doc.offsetAt(params.position));
  if (hit === undefined) return null;
  const info = hoverAt(hit.entry.entry.text, hit.at, schema.schema, { kind: hit.entry.entry.kind });
  if (info?.field === undefined) return null;
  const at = schemaFieldLocations(schema.text).get(info.field.path.join('.'));
  if (at === undefined) return null;
  const schemaDoc = TextDocument.create(pathToFileURL(schema.path).href, 'json', 0, schema.text);
  const start = schemaDoc.positionAt(at);
  const end = schemaDoc.positionAt(at + JSON.stringify(info.field.path[info.field.path.length - 1]).length);
  return { uri: schemaDoc.uri, range: { start, end } };
}

/**
 * The semantic tokens of every entry, relative-encoded as LSP wants them.
 * Inside JSON and YAML strings a span is mapped through the entry's offsets,
 * and spans that cross a line (a folded YAML scalar) are left out.
 */
function semanticTokens(state: ServerState, uri: string): SemanticTokens {
  const doc = state.documents.get(uri);
  const builder = new SemanticTokensBuilder();
  if (doc === undefined) return builder.build();
  for (const e of entriesOf(state, doc)) {
    const spans = e.entry.kind === 'filter' ? filterSpans(e.entry.text) : sortSpans(e.entry.text);
    for (const span of spans) {
      const { start, end } = rangeOf(doc, e, span.start, span.end);
      if (start.line !== end.line || end.character <= start.character) continue;
      builder.push(start.line, start.character, end.character - start.character, SEMANTIC_TOKEN_TYPES.indexOf(span.type), 0);
    }
  }
  return builder.build();
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
    return edits.map((f) => ({
      range: { start: doc.positionAt(toFileOffset(e, f.start)), end: doc.positionAt(toFileOffset(e, f.end)) },
      newText: f.newText,
    }));
  }
  let text = e.entry.text;
  for (const f of [...edits].sort((a, b) => b.start - a.start)) text = text.slice(0, f.start) + f.newText + text.slice(f.end);
  return [
    {
      range: { start: doc.positionAt(e.entry.range.start), end: doc.positionAt(e.entry.range.end) },
      newText: encodeEntryText(e.entry, text, doc.getText()),
    },
  ];
}
