/**
 * `wepql lsp` over stdio, ready at once: this module holds only the
 * connection, the open documents and the capabilities, so `initialize` is
 * answered as soon as Node has read the protocol library. The language —
 * the parser, the linter, the config and the schema (server.ts) — loads
 * behind that answer, and every request or change that comes before it is
 * served once it is in, in the order it came.
 */
import type { Connection, DidChangeWatchedFilesNotification, InitializeParams, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { createRequire } from 'node:module';
import { initializeResult } from './capabilities.js';
import { earlyStreams } from './early-answer.js';
import type { Language } from './server.js';

/**
 * How the server is set up: from `wepql lsp --schema FILE`, or the client's
 * `initializationOptions` (`{ "schema": "path/to/schema.json", "caseSensitive": false }`).
 *
 * @example
 * const options: LspOptions = { schemaFile: 'schemas/employee.json', caseSensitive: false };
 */
export interface LspOptions {
  /** Path of the schema JSON file; relative paths are read from the workspace root. */
  readonly schemaFile?: string;
  readonly caseSensitive?: boolean;
}

/**
 * Starts the server on stdin/stdout and resolves when the client has sent `exit`.
 *
 * @example
 * await startLanguageServer({ schemaFile: 'schemas/employee.json' });
 */
export async function startLanguageServer(options: LspOptions = {}): Promise<void> {
  // Answer the editor's `initialize` first; the protocol library loads behind that answer.
  // The same streams when the CLI's entry already answered (src/cli/main.ts), before this module loaded.
  const { input, output } = await earlyStreams(initializeResult);
  // Required, not imported: the library is CommonJS, and Node's ESM import of it does not see every named export.
  const require = createRequire(import.meta.url);
  const protocol = require('vscode-languageserver/node') as typeof import('vscode-languageserver/node');
  const { createConnection, ProposedFeatures, TextDocuments } = protocol;
  const { TextDocument } = require('vscode-languageserver-textdocument') as typeof import('vscode-languageserver-textdocument');
  const connection = createConnection(ProposedFeatures.all, input, output);
  const done = new Promise<void>((resolveDone) => connection.onExit(() => resolveDone()));
  serve(connection, new TextDocuments(TextDocument), options, protocol.DidChangeWatchedFilesNotification.type);
  connection.listen();
  return done;
}

function serve(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  options: LspOptions,
  didChangeWatchedFiles: typeof DidChangeWatchedFilesNotification.type,
): void {
  let language: Promise<Language> | undefined;
  const ready = (): Promise<Language> => (language ??= loadLanguage(connection, documents, options, undefined));
  let watchedFilesRegistrable: boolean | undefined;
  connection.onInitialize((params) => {
    watchedFilesRegistrable = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    // Start loading now, answer now: the client's next messages wait on the load, not the answer.
    language ??= loadLanguage(connection, documents, options, params);
    return initializeResult();
  });
  connection.onCompletion(async (p) => (await ready()).completion(p));
  connection.onHover(async (p) => (await ready()).hover(p));
  connection.onDocumentFormatting(async (p) => (await ready()).formatting(p.textDocument.uri));
  connection.onCodeAction(async (p) => (await ready()).codeActions(p));
  connection.onDefinition(async (p) => (await ready()).definition(p));
  connection.languages.semanticTokens.on(async (p) => (await ready()).semanticTokens(p.textDocument.uri));
  connection.onInitialized(() => {
    // The config and the schema are read again when they change on disk: ask a client that can be asked to report it.
    if (watchedFilesRegistrable !== true) return;
    void ready().then((l) =>
      connection.client.register(didChangeWatchedFiles, { watchers: l.watchGlobs().map((globPattern) => ({ globPattern })) }),
    );
  });
  connection.onDidChangeWatchedFiles((p) => void ready().then((l) => l.watched(p.changes.map((c) => c.uri))));
  documents.onDidChangeContent((change) => void ready().then((l) => l.changed(change.document)));
  documents.onDidClose((event) => void ready().then((l) => l.closed(event.document.uri)));
  documents.listen(connection);
}

async function loadLanguage(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  options: LspOptions,
  params: InitializeParams | undefined,
): Promise<Language> {
  const { openLanguage } = await import('./server.js');
  return openLanguage(connection, documents, options, params ?? { processId: null, rootUri: null, capabilities: {} });
}
