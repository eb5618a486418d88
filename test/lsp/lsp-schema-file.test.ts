/**
 * `wepql lsp` reads a schema as `wepql lint` does: a regular file only. A
 * FIFO named as the schema (in the editor's settings or the project's
 * wepql.config.json) would block a plain read for good, and the server
 * would never answer `initialize`; instead the server says why in its log
 * and lints without the schema. Driven by a real LSP client over stdio
 * against the built binary.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { CLI } from '../support/cli.js';
import { assertFreshDist } from '../support/dist.js';

beforeAll(assertFreshDist);

const scratch = mkdtempSync(join(tmpdir(), 'wepql-lsp-schema-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A filter naming a field the employee schema lacks: `unknown-field` only when a schema was read. */
const PROBE = 'Salary.Equal(1);FirstName.Equal(Ann)';

describe.skipIf(process.platform === 'win32')('lsp-schema-fifo', () => {
  it.each([
    ['the editor settings (initializationOptions.schema)', 'settings'],
    ['the project config (wepql.config.json "schema")', 'config'],
  ])('a FIFO named as the schema in %s is refused: initialize is answered, the log says why, files are linted', async (_, where) => {
    const root = mkdtempSync(join(scratch, `${where}-`));
    execFileSync('mkfifo', [join(root, 'schema.json')]);
    if (where === 'config') writeFileSync(join(root, 'wepql.config.json'), JSON.stringify({ schema: 'schema.json' }));
    const server = spawn(process.execPath, [CLI, 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
    const logs: string[] = [];
    connection.onNotification('window/logMessage', (p: { message: string }) => void logs.push(p.message));
    const published = new Promise<PublishDiagnosticsParams>((resolve) =>
      connection.onNotification(PublishDiagnosticsNotification.type, resolve),
    );
    connection.listen();
    try {
      await connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: pathToFileURL(root).href,
        capabilities: {},
        ...(where === 'settings' ? { initializationOptions: { schema: 'schema.json' } } : {}),
      });
      await connection.sendNotification(InitializedNotification.type, {});
      const uri = pathToFileURL(join(root, 'views.wepql')).href;
      await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'wepql', version: 1, text: PROBE },
      });
      const { diagnostics } = await published;
      expect(diagnostics.map((d) => d.code)).not.toContain('unknown-field');
      expect(logs.join('\n')).toContain(`cannot read ${join(root, 'schema.json')} (schema): not a regular file`);
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      expect(await new Promise<number | null>((resolve) => server.once('exit', resolve))).toBe(0);
    } finally {
      connection.dispose();
      server.kill();
    }
  });
});
