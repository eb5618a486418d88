/**
 * How `wepql lsp` reads the project's files, driven by a real LSP client
 * over stdio against the built binary:
 * - a schema as `wepql lint` reads one, a regular file only: a FIFO named as
 *   the schema (in the editor's settings or the project's wepql.config.json)
 *   would block a plain read for good, and the server would never answer
 *   `initialize`; instead it says why in its log and lints without it;
 * - the config and the schema again when they change on disk (the client's
 *   `workspace/didChangeWatchedFiles`, which the server registers for), with
 *   every open document relinted against what it read.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProtocolConnection,
  DidChangeWatchedFilesNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Registration,
  type RegistrationParams,
} from 'vscode-languageserver-protocol/node';
import { CLI, ROOT } from '../support/cli.js';
import { assertFreshDist } from '../support/dist.js';

beforeAll(assertFreshDist);

const scratch = mkdtempSync(join(tmpdir(), 'wepql-lsp-schema-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Asks the server to shut down and exit, as an editor does; resolves with its exit code. */
async function shutDown(connection: ProtocolConnection, server: ChildProcess): Promise<number | null> {
  await connection.sendRequest(ShutdownRequest.type);
  await connection.sendNotification(ExitNotification.type);
  return new Promise((resolve) => server.once('exit', resolve));
}

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
      expect(await shutDown(connection, server)).toBe(0);
    } finally {
      connection.dispose();
      server.kill();
    }
  });
});

describe('lsp-project-files-reread', () => {
  it('rereads the config and the schema when they change on disk, and relints the open documents', async () => {
    const root = mkdtempSync(join(scratch, 'reread-'));
    const employee = JSON.parse(readFileSync(join(ROOT, 'schemas', 'employee.json'), 'utf8')) as { fields: Record<string, unknown> };
    copyFileSync(join(ROOT, 'schemas', 'employee.json'), join(root, 'schema.json'));
    const config = join(root, 'wepql.config.json');
    writeFileSync(config, JSON.stringify({ schema: 'schema.json' }));
    const server = spawn(process.execPath, [CLI, 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
    const registrations: Registration[] = [];
    connection.onRequest('client/registerCapability', (p: RegistrationParams) => void registrations.push(...p.registrations));
    const waiters: { uri: string; resolve(p: PublishDiagnosticsParams): void }[] = [];
    let published = 0;
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      published++;
      for (const w of waiters.splice(0)) {
        if (w.uri === params.uri) w.resolve(params);
        else waiters.push(w);
      }
    });
    /** The next diagnostics published for `uri` after this call. */
    const nextFor = (uri: string): Promise<PublishDiagnosticsParams> => new Promise((resolve) => waiters.push({ uri, resolve }));
    const codesOf = async (p: Promise<PublishDiagnosticsParams>): Promise<string[]> => (await p).diagnostics.map((d) => String(d.code));
    const changed = (path: string) =>
      connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(path).href, type: 2 }] });
    connection.listen();
    try {
      await connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: pathToFileURL(root).href,
        capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
      });
      await connection.sendNotification(InitializedNotification.type, {});
      const views = pathToFileURL(join(root, 'views.wepql')).href;
      const opened = nextFor(views);
      await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri: views, languageId: 'wepql', version: 1, text: PROBE },
      });
      expect(await codesOf(opened)).toContain('unknown-field');
      // The client was asked to watch the config and the schema by name.
      expect(registrations.map((r) => r.method)).toEqual(['workspace/didChangeWatchedFiles']);
      expect((registrations[0]!.registerOptions as { watchers: { globPattern: string }[] }).watchers.map((w) => w.globPattern)).toEqual([
        '**/wepql.config.json',
        '**/schema.json',
      ]);

      // The schema gains the field: read again, the finding goes.
      writeFileSync(join(root, 'schema.json'), JSON.stringify({ fields: { ...employee.fields, Salary: { type: 'integer' } } }));
      let relinted = nextFor(views);
      await changed(join(root, 'schema.json'));
      expect(await codesOf(relinted)).not.toContain('unknown-field');

      // A file the server does not read changes: nothing is reread, so nothing is published (past the 150 ms relint pause).
      const before = published;
      await changed(join(root, 'package.json'));
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(published).toBe(before);

      // The config breaks: its problem is shown on it, and the documents are linted without its schema.
      writeFileSync(config, '{ "schema": ');
      const onConfig = nextFor(pathToFileURL(config).href);
      relinted = nextFor(views);
      await changed(config);
      expect((await onConfig).diagnostics).toHaveLength(1);
      expect(await codesOf(relinted)).not.toContain('unknown-field');

      // Mended, pointing at a schema without the field: the problem is cleared and the finding is back.
      copyFileSync(join(ROOT, 'schemas', 'employee.json'), join(root, 'before.json'));
      writeFileSync(config, JSON.stringify({ schema: 'before.json' }));
      const cleared = nextFor(pathToFileURL(config).href);
      relinted = nextFor(views);
      await changed(config);
      expect((await cleared).diagnostics).toEqual([]);
      expect(await codesOf(relinted)).toContain('unknown-field');

      expect(await shutDown(connection, server)).toBe(0);
    } finally {
      connection.dispose();
      server.kill();
    }
  });
});
