/**
 * The server's capabilities, as its answer to `initialize` states them: on
 * their own, so the CLI's entry can answer before the language server's
 * module loads (src/cli/main.ts, early-answer.ts).
 */
import type { InitializeResult } from 'vscode-languageserver/node';
import { SEMANTIC_TOKEN_TYPES } from './token-legend.js';

/**
 * What the server can do, as `initialize` answers it. Written with the
 * protocol's values, not the library's enums (`TextDocumentSyncKind.Incremental`
 * is 2, `CodeActionKind.QuickFix` is 'quickfix'): this answer goes out before
 * the library loads; the library's own answer is compared with it
 * (early-answer.ts).
 *
 * @example
 * initializeResult().capabilities.hoverProvider; // true
 */
export function initializeResult(): InitializeResult {
  return {
    capabilities: {
      textDocumentSync: 2,
      completionProvider: { triggerCharacters: ['.', '(', ';', ',', '='] },
      hoverProvider: true,
      documentFormattingProvider: true,
      codeActionProvider: { codeActionKinds: ['quickfix', 'source.fixAll'] },
      definitionProvider: true,
      semanticTokensProvider: { legend: { tokenTypes: [...SEMANTIC_TOKEN_TYPES], tokenModifiers: [] }, full: true },
    },
    serverInfo: { name: 'wepql', version: '0.1.0' },
  };
}
