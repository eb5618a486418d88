/**
 * What `wepql lsp` makes of a project's wepql.config.json and of
 * `wepql-disable` directives, driven by a real LSP client over stdio (the
 * built binary, one server per project, its workspace root the project):
 * the config's paths are confined to the project as `wepql lint` confines
 * them, its `database` is never connected to, and a code to disable that
 * does not exist is shown where it is written while the file's other
 * findings stay.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
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
  type Diagnostic,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { CLI, ROOT } from '../support/cli.js';
import { assertFreshDist } from '../support/dist.js';

beforeAll(assertFreshDist);

const SCHEMA = readFileSync(join(ROOT, 'schemas', 'employee.json'), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'wepql-lsp-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let made = 0;
/** A fresh directory of files (objects are written as JSON). */
function project(files: Record<string, string | object>): string {
  const dir = join(scratch, `p${made++}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

/** A started `wepql lsp --stdio` whose workspace is `root`: what it published and logged, and how to open a file. */
interface Session {
  /** The diagnostics last published for a file of the project. */
  diagnostics(name: string): Promise<Diagnostic[]>;
  open(name: string, text: string): Promise<Diagnostic[]>;
  readonly logs: string[];
  close(): Promise<void>;
}

async function startLsp(root: string): Promise<Session> {
  const server = spawn(process.execPath, [CLI, 'lsp', '--stdio'], { cwd: root });
  const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
  const published: PublishDiagnosticsParams[] = [];
  const waiters: { uri: string; resolve(p: PublishDiagnosticsParams): void }[] = [];
  const logs: string[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    published.push(params);
    for (const w of waiters.splice(0)) {
      if (w.uri === params.uri) w.resolve(params);
      else waiters.push(w);
    }
  });
  connection.onNotification('window/logMessage', (p: { message: string }) => void logs.push(p.message));
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {} });
  await connection.sendNotification(InitializedNotification.type, {});
  const uri = (name: string): string => pathToFileURL(join(root, name)).href;
  const next = (u: string): Promise<PublishDiagnosticsParams> => {
    const seen = [...published].reverse().find((p) => p.uri === u);
    return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ uri: u, resolve }));
  };
  return {
    logs,
    diagnostics: async (name) => (await next(uri(name))).diagnostics,
    async open(name, text) {
      await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri: uri(name), languageId: 'wepql', version: 1, text },
      });
      return (await next(uri(name))).diagnostics;
    },
    async close() {
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      const code = await new Promise<number | null>((resolve) => server.once('exit', (c) => resolve(c)));
      expect(code).toBe(0);
      connection.dispose();
    },
  };
}

const codes = (ds: readonly Diagnostic[]): string[] => ds.map((d) => String(d.code ?? ''));
const messageOf = (d: Diagnostic): string => (typeof d.message === 'string' ? d.message : d.message.value);
/** A filter that names a field the schema does not have: `unknown-field` only when the schema was read. */
const PROBE = 'Salary.Equal(1);FirstName.Equal(Ann)';

describe('lsp-config-paths-unconfined', () => {
  // Beside the projects, outside each of them.
  const outside = join(scratch, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'employee.json'), SCHEMA);

  it.each([
    ['a relative path that leaves the project', '../outside/employee.json'],
    ['an absolute path', join(outside, 'employee.json')],
  ])('a config schema outside the workspace (%s) is refused on the config file, never read', async (_, schema) => {
    const root = project({ 'wepql.config.json': { schema } });
    const lsp = await startLsp(root);
    try {
      const found = await lsp.open('views.wepql', PROBE);
      // Not read: no schema, so no unknown field; the file's own findings are still published.
      expect(codes(found)).not.toContain('unknown-field');
      const [problem, ...more] = await lsp.diagnostics('wepql.config.json');
      expect(more).toEqual([]);
      expect(problem!.severity).toBe(1);
      expect(messageOf(problem!)).toContain(`schema: ${JSON.stringify(schema)} lies outside the project`);
      expect(messageOf(problem!)).toContain('the language server reads no file outside the workspace');
      expect(messageOf(problem!)).not.toContain('--allow-outside');
      // At the "schema" member of the config (line 1 of the pretty-printed file).
      expect(problem!.range.start).toEqual({ line: 1, character: 2 });
      expect(lsp.logs.join('\n')).toContain('lies outside the project');
    } finally {
      await lsp.close();
    }
  });

  it('a symlink inside the workspace that leads out is outside too; a schema inside is read', async () => {
    const root = project({ 'wepql.config.json': { schema: 'linked.json' } });
    symlinkSync(join(outside, 'employee.json'), join(root, 'linked.json'));
    const lsp = await startLsp(root);
    try {
      expect(codes(await lsp.open('views.wepql', PROBE))).not.toContain('unknown-field');
      expect(messageOf((await lsp.diagnostics('wepql.config.json'))[0]!)).toContain('"linked.json" lies outside the project');
    } finally {
      await lsp.close();
    }
    const inside = project({ 'wepql.config.json': { schema: 'sub/../employee.json' }, 'employee.json': SCHEMA });
    const ok = await startLsp(inside);
    try {
      expect(codes(await ok.open('views.wepql', PROBE))).toContain('unknown-field');
    } finally {
      await ok.close();
    }
  });

  describe('the config database', () => {
    let listener: Server;
    let connections = 0;
    beforeAll(async () => {
      listener = createServer((socket) => {
        connections++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

    it('is never connected to: the rest of the config applies', async () => {
      const { port } = listener.address() as AddressInfo;
      const root = project({
        'wepql.config.json': {
          schema: 'employee.json',
          database: { url: `postgres://wepql:secret@127.0.0.1:${port}/payroll`, table: 'api_keys', column: 'key' },
        },
        'employee.json': SCHEMA,
      });
      const lsp = await startLsp(root);
      try {
        // The schema of the config is read (inside the project)…
        expect(codes(await lsp.open('views.wepql', PROBE))).toContain('unknown-field');
        // …and, after a pause longer than a connection attempt takes, nothing came to the database's address.
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(connections).toBe(0);
      } finally {
        await lsp.close();
      }
    });
  });
});

describe('lsp-unknown-disable-code', () => {
  it('a config rule naming no code is shown at its key; the files keep their findings', async () => {
    const root = project({
      'wepql.config.json': { schema: 'employee.json', rules: { 'duplicate-condition': 'off', contradicton: 'off' } },
      'employee.json': SCHEMA,
    });
    const lsp = await startLsp(root);
    try {
      const found = await lsp.open(
        'views.wepql',
        'Gender.Equal(1);Gender.Equal(1);EmployeeNumber.GreaterThan(5);EmployeeNumber.LessThan(1)',
      );
      // The rest of the config applies: its schema is read, its known rule turns duplicate-condition off.
      expect(codes(found)).toContain('contradiction');
      expect(codes(found)).not.toContain('duplicate-condition');
      const problems = await lsp.diagnostics('wepql.config.json');
      expect(problems.map(messageOf)).toEqual(['rules.contradicton: unknown diagnostic code; did you mean "contradiction"?']);
      expect(problems[0]!.range).toEqual({ start: { line: 4, character: 4 }, end: { line: 4, character: 25 } });
    } finally {
      await lsp.close();
    }
  });

  it('a wepql-disable of an unknown code is an error at that code; the file keeps its other findings', async () => {
    const root = project({ 'wepql.config.json': { schema: 'employee.json' }, 'employee.json': SCHEMA });
    const lsp = await startLsp(root);
    try {
      const text = [
        '# wepql-disable-next-line bogus-code',
        'EmployeeNumber.GreaterThan(500);EmployeeNumber.LessThan(100)',
        '# wepql-disable-next-line duplicate-condition, not-a-code',
        'Gender.Equal(1);Gender.Equal(1);EmployeeNumber.GreaterThan(5);EmployeeNumber.LessThan(1)',
      ].join('\n');
      const found = await lsp.open('saved.wepql', text);
      const shown = found.map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.character} ${d.code ?? messageOf(d)}`);
      expect(shown).toContain('0:26-36 line 1: unknown diagnostic code "bogus-code" to disable');
      expect(shown).toContain('2:47-57 line 3: unknown diagnostic code "not-a-code" to disable');
      // A directive of unknown codes only silences nothing; the known code beside one still applies.
      expect(shown.filter((s) => s.startsWith('1:') && s.endsWith('contradiction'))).toHaveLength(1);
      expect(shown.filter((s) => s.startsWith('3:') && s.endsWith('contradiction'))).toHaveLength(1);
      expect(shown.some((s) => s.endsWith('duplicate-condition'))).toBe(false);
      expect(found.find((d) => messageOf(d).includes('bogus-code'))!.severity).toBe(1);

      const json = JSON.stringify([
        { name: 'a', filter: 'EmployeeNumber.GreaterThan(5);EmployeeNumber.LessThan(1)', 'wepql-disable': ['contradiction', 'nope'] },
      ]);
      const inJson = await lsp.open('views.json', json);
      const nope = inJson.find((d) => messageOf(d).includes('"nope"'))!;
      expect(messageOf(nope)).toBe('entry 0: unknown diagnostic code "nope" to disable');
      expect(json.slice(nope.range.start.character, nope.range.end.character)).toBe('"nope"');
      expect(codes(inJson)).not.toContain('contradiction');
      expect(codes(inJson)).toContain('unsatisfiable-filter');

      // A YAML map with a filter and a sort reads its disable once per entry: the unknown code is shown once.
      const yaml = ['- filter: Gender.Equal(1);Gender.Equal(1)', '  sort: LastName,LastName', '  wepql-disable: [nope]', ''].join('\n');
      const inYaml = await lsp.open('views.yaml', yaml);
      expect(inYaml.filter((d) => messageOf(d).includes('"nope"')).map((d) => d.range)).toEqual([
        { start: { line: 2, character: 18 }, end: { line: 2, character: 22 } },
      ]);
      expect(codes(inYaml)).toContain('duplicate-condition');
    } finally {
      await lsp.close();
    }
  });
});
