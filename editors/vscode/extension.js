// The smallest VS Code extension for wepql: it starts `wepql lsp` for .wepql
// files and leaves everything else to the language server. Highlighting comes
// from syntaxes/wepql.tmLanguage.json, refined by the server's semantic tokens.
// JSON and YAML files of saved filters are not sent to the server by this
// extension (`wepql lint` reads them on the command line).
'use strict';
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('wepql');
  const [command, ...args] = config.get('command', ['npx', '--no-install', 'wepql', 'lsp']);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const serverOptions = { command, args, transport: TransportKind.stdio, options: { cwd: folder, shell: process.platform === 'win32' } };
  const schema = config.get('schema', '');
  const clientOptions = {
    documentSelector: [{ scheme: 'file', language: 'wepql' }],
    initializationOptions: { ...(schema ? { schema } : {}), caseSensitive: config.get('caseSensitive', false) },
  };
  client = new LanguageClient('wepql', 'wepql', serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => client?.stop() });
  return client.start();
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
