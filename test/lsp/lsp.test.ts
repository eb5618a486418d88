/**
 * `wepql lsp` driven by a real LSP client over stdio: the built binary is
 * started as an editor starts it, and every request goes through
 * vscode-languageserver-protocol's client connection.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CodeActionRequest,
  CompletionRequest,
  createProtocolConnection,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentFormattingRequest,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  SemanticTokensRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type CodeAction,
  type CompletionItem,
  type Location,
  type MarkupContent,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextEdit,
} from 'vscode-languageserver-protocol/node';
import { SEMANTIC_TOKEN_TYPES } from '../../src/lsp/token-legend.js';
import { CLI, ROOT, runCli } from '../support/cli.js';
import { assertFreshDist } from '../support/dist.js';

const SCHEMA = join(ROOT, 'schemas', 'employee.json');

// The server is the built `wepql lsp` (npm test builds dist/ first).
beforeAll(assertFreshDist);

/** Applies LSP text edits to a text (edits may come in any order; they do not overlap). */
function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }): number =>
    lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

describe('wepql lsp over stdio', () => {
  let server: ChildProcessWithoutNullStreams;
  let connection: ProtocolConnection;
  let dir: string;
  let legend: string[] = [];
  let stderr = '';
  const published: PublishDiagnosticsParams[] = [];
  const waiters: { uri: string; version: number; resolve(p: PublishDiagnosticsParams): void }[] = [];

  /** The diagnostics the server publishes for `uri` at `version` (or later). */
  function diagnosticsFor(uri: string, version: number): Promise<PublishDiagnosticsParams> {
    const seen = published.find((p) => p.uri === uri && (p.version ?? 0) >= version);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => waiters.push({ uri, version, resolve }));
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wepql-lsp-'));
    server = spawn(process.execPath, [CLI, 'lsp', '--stdio'], { cwd: ROOT });
    server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      published.push(params);
      for (const w of waiters.splice(0)) {
        if (w.uri === params.uri && (params.version ?? 0) >= w.version) w.resolve(params);
        else waiters.push(w);
      }
    });
    connection.listen();
    const init = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(ROOT).href,
      capabilities: {},
      // A relative schema path is read from the workspace root.
      initializationOptions: { schema: 'schemas/employee.json' },
    });
    expect(init.capabilities.hoverProvider).toBe(true);
    expect(init.capabilities.definitionProvider).toBe(true);
    legend = init.capabilities.semanticTokensProvider!.legend.tokenTypes;
    await connection.sendNotification(InitializedNotification.type, {});
  });

  afterAll(async () => {
    if (connection !== undefined) {
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      const code = await new Promise<number | null>((resolve) => server.once('exit', (c) => resolve(c)));
      expect(code).toBe(0);
      // The early answer to initialize (src/lsp/early-answer.ts) equals the library's, which says so here if not.
      expect(stderr).toBe('');
      connection.dispose();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const TEXT = [
    '# saved filters of the payroll team',
    'EmployeeNumber.GreaterThan(500);EmployeeNumber.LessThan(100)',
    '',
    'lastname.startswith(Sm);;Gender.Equal(1);Gender.Equal(1)',
    'CreatedOn.Equal(2024-03-21)',
    'LastName.Sta',
  ].join('\n');
  const uri = (name: string): string => pathToFileURL(join(dir, name)).href;

  async function open(name: string, text: string, languageId = 'wepql'): Promise<PublishDiagnosticsParams> {
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: uri(name), languageId, version: 1, text },
    });
    return diagnosticsFor(uri(name), 1);
  }

  it('publishes every finding of wepql lint, at its line and column', async () => {
    const { diagnostics } = await open('saved.wepql', TEXT);
    const shown = diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.character} ${d.code}`);
    expect(shown).toContain('1:32-60 contradiction');
    expect(shown).toContain('1:0-60 unsatisfiable-filter');
    expect(shown).toContain('3:0-8 field-case-mismatch');
    expect(shown).toContain('3:24-25 empty-clause');
    expect(shown).toContain('3:41-56 duplicate-condition');
    expect(shown).toContain('4:0-27 date-only-equality');
    expect(shown.some((s) => s.startsWith('5:') && /missing|unexpected|unknown/.test(s))).toBe(true);
    // Nothing on the comment or the blank line.
    expect(diagnostics.some((d) => d.range.start.line === 0 || d.range.start.line === 2)).toBe(false);
  });

  it('publishes again as the text changes', async () => {
    await connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: uri('saved.wepql'), version: 2 },
      contentChanges: [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 60 } }, text: 'Gender.Equal(2)' }],
    });
    const { diagnostics } = await diagnosticsFor(uri('saved.wepql'), 2);
    expect(diagnostics.filter((d) => d.range.start.line === 1)).toEqual([]);
    expect(diagnostics.some((d) => d.code === 'duplicate-condition')).toBe(true);
  });

  it('completes operators of the field type, replacing the typed part', async () => {
    const items = (await connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: uri('saved.wepql') },
      position: { line: 5, character: 12 },
    })) as CompletionItem[];
    expect(items.map((i) => i.label)).toEqual(['StartsWith']);
    const edit = items[0]!.textEdit as TextEdit;
    expect(edit.newText).toBe('StartsWith(');
    expect(edit.range).toEqual({ start: { line: 5, character: 9 }, end: { line: 5, character: 12 } });
  });

  it('hovers a field with its type and the clause in plain English', async () => {
    const hover = await connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: uri('saved.wepql') },
      position: { line: 4, character: 3 },
    });
    const value = (hover!.contents as MarkupContent).value;
    expect(value).toContain('**CreatedOn** · datetime');
    expect(value).toContain('created on is exactly 2024-03-21T00:00:00Z (that instant only, not the whole day');
    expect(hover!.range).toEqual({ start: { line: 4, character: 0 }, end: { line: 4, character: 9 } });
  });

  it('hover-on-clause-with-error: hovers the field of a condition with a syntax error', async () => {
    await open('broken.wepql', 'Gender.Equals(1)');
    const hover = await connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: uri('broken.wepql') },
      position: { line: 0, character: 2 },
    });
    expect((hover!.contents as MarkupContent).value).toContain('**Gender** · integer, nullable');
    expect(hover!.range).toEqual({ start: { line: 0, character: 0 }, end: { line: 0, character: 6 } });
  });

  it('offers a quick fix for every fixable finding and the suggestion of the others', async () => {
    const actions = (await connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: uri('saved.wepql') },
      range: { start: { line: 3, character: 0 }, end: { line: 4, character: 27 } },
      context: { diagnostics: [] },
    })) as CodeAction[];
    const titles = actions.map((a) => a.title);
    expect(titles).toContain('Fix empty-clause');
    expect(titles).toContain('Fix duplicate-condition');
    expect(titles).toContain('Replace with CreatedOn.GreaterThanOrEqual(2024-03-21);CreatedOn.LessThan(2024-03-22)');
    const dup = actions.find((a) => a.title === 'Fix duplicate-condition')!;
    const edited = applyEdits(TEXT.replace(TEXT.split('\n')[1]!, 'Gender.Equal(2)'), dup.edit!.changes![uri('saved.wepql')]!);
    expect(edited.split('\n')[3]).toBe('lastname.startswith(Sm);;Gender.Equal(1)');
    const all = actions.find((a) => a.kind === 'source.fixAll')!;
    const fixedAll = applyEdits(TEXT.replace(TEXT.split('\n')[1]!, 'Gender.Equal(2)'), all.edit!.changes![uri('saved.wepql')]!);
    expect(fixedAll.split('\n')[3]).toBe('LastName.StartsWith(Sm);Gender.Equal(1)');
  });

  it('formats every entry to its canonical form and leaves comments and broken lines alone', async () => {
    const text = '# keep me\nlastname.startswith( Sm )\nor(gender.equal(1);gender.isnull())\nLastName.Sta\n';
    await open('fmt.wepql', text);
    const edits = await connection.sendRequest(DocumentFormattingRequest.type, {
      textDocument: { uri: uri('fmt.wepql') },
      options: { tabSize: 2, insertSpaces: true },
    });
    expect(applyEdits(text, edits!)).toBe('# keep me\nLastName.StartsWith(Sm)\nOr(Gender.Equal(1);Gender.IsNull())\nLastName.Sta\n');
  });

  it('goes to the definition of a field in the schema file', async () => {
    const location = (await connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri: uri('saved.wepql') },
      position: { line: 4, character: 5 },
    })) as Location;
    expect(location.uri).toBe(pathToFileURL(SCHEMA).href);
    const schemaLines = readFileSync(SCHEMA, 'utf8').split('\n');
    const line = schemaLines[location.range.start.line]!;
    expect(line.slice(location.range.start.character, location.range.end.character)).toBe('"CreatedOn"');
  });

  it("answers semantic tokens from the parser's scanner: fields, operators, values, keywords, punctuation", async () => {
    const text =
      "# a comment\nLastName.StartsWith(Sm);Or(Gender.Equal(1);Address.City.InArray('New York', Boston))\n'D'.StartsWithInFields(FirstName,LastName)\n";
    await open('tokens.wepql', text);
    const { data } = (await connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri: uri('tokens.wepql') } }))!;
    const lines = text.split('\n');
    const shown: string[] = [];
    for (let i = 0, line = 0, character = 0; i < data.length; i += 5) {
      line += data[i]!;
      character = data[i] === 0 ? character + data[i + 1]! : data[i + 1]!;
      shown.push(`${lines[line]!.slice(character, character + data[i + 2]!)}:${legend[data[i + 3]!]}`);
    }
    expect(shown.join(' ')).toBe(
      [
        'LastName:property .:operator StartsWith:method (:operator Sm:string ):operator ;:operator',
        'Or:keyword (:operator Gender:property .:operator Equal:method (:operator 1:number ):operator ;:operator',
        "Address:property .:operator City:property .:operator InArray:method (:operator 'New York':string ,:operator Boston:string ):operator ):operator",
        "'D':string .:operator StartsWithInFields:method (:operator FirstName:property ,:operator LastName:property ):operator",
      ].join(' '),
    );
  });

  it('relints after the typing stops: 30 rapid changes to a large document publish only the last version, and hover answers meanwhile (issue 19 #14)', async () => {
    const line = (i: number) =>
      `LastName.StartsWith(Sm${i});Or(Gender.Equal(1);Gender.IsNull());CreatedOn.GreaterThan(2024-01-01);FirstName.Contains(a)`;
    const lines = Array.from({ length: 8000 }, (_, i) => line(i));
    const name = 'large.wepql';
    const t0 = performance.now();
    await open(name, lines.join('\n'));
    // One whole relint of this document (a pause of at most 150 ms included).
    const oneRelint = performance.now() - t0;
    const before = published.length;
    for (let version = 2; version <= 31; version++) {
      await connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri: uri(name), version },
        contentChanges: [{ range: { start: { line: version, character: 0 }, end: { line: version, character: 0 } }, text: 'x' }],
      });
    }
    const asked = performance.now();
    const hover = await connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: uri(name) },
      position: { line: 40, character: 2 },
    });
    const hoverMs = performance.now() - asked;
    expect((hover!.contents as MarkupContent).value).toContain('**LastName**');
    const last = await diagnosticsFor(uri(name), 31);
    expect(last.version).toBe(31);
    // Relinted serially, 30 versions would keep the server busy for 30 relints before the hover: it came well before.
    expect(hoverMs).toBeLessThan(oneRelint * 10);
    // Only the version the typing stopped at was linted to the end and published.
    expect(
      published
        .slice(before)
        .filter((p) => p.uri === uri(name))
        .map((p) => p.version),
    ).toEqual([31]);
    // The published findings are those of the last text: the `x` typed at the start of line 5 makes its field unknown.
    expect(last.diagnostics.filter((d) => d.range.start.line === 5).map((d) => d.code)).toContain('unknown-field');
    console.log(`lsp relint: one relint ${oneRelint.toFixed(0)} ms, hover after 30 changes ${hoverMs.toFixed(0)} ms`);
  }, 120_000);

  it('reads the filter and sort strings of a JSON file, escapes included', async () => {
    const json = '[{"name": "smiths", "filter": "LastName.Equal(\'O\'\'\\u0042rien\');Gender.Equal(x)", "sort": "LastName=Up"}]';
    writeFileSync(join(dir, 'saved.json'), json);
    const { diagnostics } = await open('saved.json', json, 'json');
    const invalid = diagnostics.find((d) => d.code === 'invalid-value')!;
    // `x` sits after the 6-character escape \u0042, which is one character of the filter.
    expect(json.slice(invalid.range.start.character, invalid.range.end.character)).toBe('x');
    expect(diagnostics.some((d) => d.code === 'invalid-direction')).toBe(true);
  });
});

describe('wepql lsp in a project with wepql.config.json (YAML views, selectors, rule settings)', () => {
  let server: ChildProcessWithoutNullStreams;
  let connection: ProtocolConnection;
  let dir: string;
  const published: PublishDiagnosticsParams[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wepql-lsp-project-'));
    // The schema sits in the project: a config's schema outside it is refused (test/lsp/lsp-config.test.ts).
    writeFileSync(join(dir, 'employee.json'), readFileSync(SCHEMA));
    writeFileSync(
      join(dir, 'wepql.config.json'),
      JSON.stringify({
        schema: 'employee.json',
        filterPath: '$.views[*].where',
        rules: { 'field-case-mismatch': 'off', 'date-only-equality': 'error' },
      }),
    );
    server = spawn(process.execPath, [CLI, 'lsp'], { cwd: dir });
    connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => void published.push(params));
    connection.listen();
    await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(dir).href, capabilities: {} });
    await connection.sendNotification(InitializedNotification.type, {});
  });

  afterAll(async () => {
    await connection.sendRequest(ShutdownRequest.type);
    await connection.sendNotification(ExitNotification.type);
    await new Promise((resolve) => server.once('exit', resolve));
    connection.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const YAML = [
    'views:',
    '  - name: smiths',
    "    where: 'lastname.equal(''O''''Brien'');;CreatedOn.Equal(2024-03-21)'",
    '  - name: all',
    '    where: Gender.Equal(1);Gender.Equal(1)',
    '',
  ].join('\n');

  it('finds the filters by the selector, applies the rule settings, and maps ranges through YAML quoting', async () => {
    const uri = pathToFileURL(join(dir, 'views.yaml')).href;
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'yaml', version: 1, text: YAML },
    });
    for (let i = 0; i < 100 && !published.some((p) => p.uri === uri); i++) await new Promise((r) => setTimeout(r, 50));
    const { diagnostics } = published.find((p) => p.uri === uri)!;
    const lines = YAML.split('\n');
    const shown = diagnostics.map(
      (d) => `${d.code} ${d.severity} ${lines[d.range.start.line]!.slice(d.range.start.character, d.range.end.character)}`,
    );
    // `off` drops field-case-mismatch; `error` raises date-only-equality; '' in the YAML string is one quote.
    expect(shown).toEqual([
      'empty-clause 2 ;',
      'date-only-equality 1 CreatedOn.Equal(2024-03-21)',
      'duplicate-condition 2 Gender.Equal(1)',
    ]);
  });

  it('fixes inside a YAML string by rewriting the entry with its quoting', async () => {
    const uri = pathToFileURL(join(dir, 'views.yaml')).href;
    const actions = (await connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 2, character: 0 }, end: { line: 2, character: 80 } },
      context: { diagnostics: [] },
    })) as CodeAction[];
    const fix = actions.find((a) => a.title === 'Fix empty-clause')!;
    expect(applyEdits(YAML, fix.edit!.changes![uri]!).split('\n')[2]).toBe(
      "    where: 'lastname.equal(''O''''Brien'');CreatedOn.Equal(2024-03-21)'",
    );
  });
});

describe('lsp-applies-disable-and-overrides: the language server reports what `wepql lint` reports', () => {
  let server: ChildProcessWithoutNullStreams;
  let connection: ProtocolConnection;
  let dir: string;
  const published: PublishDiagnosticsParams[] = [];
  const files: Record<string, string> = {
    'a.wepql': '# wepql-disable-next-line contradiction\nGender.IsNull();Gender.Equal(1)\nGender.IsNull();Gender.Equal(2)\n',
    'b.json': JSON.stringify([
      { name: 'x', filter: 'Gender.IsNull();Gender.Equal(1)', 'wepql-disable': ['contradiction', 'unsatisfiable-filter'] },
    ]),
    'c.yaml': '# wepql-disable-next-line\n- filter: Gender.IsNull();Gender.Equal(1)\n',
    'legacy/d.wepql': 'Gender.IsNull();Gender.Equal(1)\n',
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wepql-lsp-disable-'));
    mkdirSync(join(dir, 'legacy'));
    writeFileSync(join(dir, 'schema.json'), JSON.stringify({ fields: { Gender: { type: 'integer' }, Id: { type: 'integer' } } }));
    writeFileSync(
      join(dir, 'wepql.config.json'),
      JSON.stringify({ schema: 'schema.json', paths: ['.'], overrides: [{ files: ['legacy/**'], rules: { contradiction: 'off' } }] }),
    );
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    server = spawn(process.execPath, [CLI, 'lsp', '--stdio'], { cwd: dir });
    connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => void published.push(params));
    connection.listen();
    const init = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      capabilities: {},
    });
    // The legend is announced before the highlighter loads, from the one list the highlighter numbers by.
    expect(init.capabilities.semanticTokensProvider!.legend.tokenTypes).toEqual([...SEMANTIC_TOKEN_TYPES]);
    await connection.sendNotification(InitializedNotification.type, {});
  });

  afterAll(async () => {
    await connection.sendRequest(ShutdownRequest.type);
    await connection.sendNotification(ExitNotification.type);
    await new Promise((resolve) => server.once('exit', resolve));
    connection.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('silences a finding by a comment or a per-entry key, and per file by the config overrides, as the CLI does', async () => {
    const shown: [string, number, string][] = [];
    for (const [name, text] of Object.entries(files)) {
      const uri = pathToFileURL(join(dir, name)).href;
      const languageId = name.endsWith('.json') ? 'json' : name.endsWith('.yaml') ? 'yaml' : 'wepql';
      await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
      for (let i = 0; i < 200 && !published.some((p) => p.uri === uri); i++) await new Promise((r) => setTimeout(r, 50));
      const { diagnostics } = published.find((p) => p.uri === uri)!;
      for (const d of diagnostics) shown.push([name, d.range.start.line + 1, String(d.code)]);
    }
    const lsp = shown.sort((a, b) => a.join().localeCompare(b.join()));
    // The same files through `wepql lint`: the same findings, line for line.
    const cli = JSON.parse(runCli(['lint', '--format', 'json'], { cwd: dir }).stdout) as { file: string; line: number; code: string }[];
    expect(lsp).toEqual(cli.map((f) => [f.file, f.line, f.code]).sort((a, b) => a.join().localeCompare(b.join())));
    expect(lsp).toEqual([
      ['a.wepql', 2, 'unsatisfiable-filter'],
      ['a.wepql', 3, 'contradiction'],
      ['a.wepql', 3, 'unsatisfiable-filter'],
      ['legacy/d.wepql', 1, 'unsatisfiable-filter'],
    ]);
  });
});
