import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../support/cli.js';

/**
 * Who answers the editor's `initialize` first. With only switches on its
 * command line (`--stdio`, `--case-sensitive`), `wepql lsp`'s answer is
 * written by the CLI's entry before the command's module loads, and the
 * server takes over the same streams (test/lsp/lsp.test.ts runs whole
 * sessions that way). A command line with something to check answers only
 * once it is checked: a broken `--schema` file or an unknown option is a
 * usage error with no answer written; a good `--schema` file is answered by
 * the server itself.
 */
const frame = (message: object): string => {
  const body = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};
const INITIALIZE = frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
const SHUTDOWN = frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' });
const EXIT = frame({ jsonrpc: '2.0', method: 'exit' });

/**
 * Runs `wepql lsp ...args` with `input` written at once, and `then` written
 * once the answer to request 2 is out (as a client sends `exit` after
 * `shutdown`'s answer); its exit code and output.
 */
function session(args: readonly string[], input: string, then = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'lsp', ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (then !== '' && answeredIds(stdout).includes(2)) {
        child.stdin.write(then);
        then = '';
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    // Ended once the process is gone, so that a server that stops early is not held open.
    child.on('exit', () => child.stdin.destroy());
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.write(input);
  });
}

/** The ids of the responses in a stream of framed messages. */
function answeredIds(stdout: string): unknown[] {
  return stdout
    .split(/Content-Length: \d+\r\n\r\n/)
    .filter((body) => body !== '')
    .flatMap((body) => {
      // A body the pipe has delivered only part of so far is not an answer yet.
      try {
        return [(JSON.parse(body) as { id?: unknown }).id];
      } catch {
        return [];
      }
    });
}

describe('wepql lsp: the early answer to initialize', () => {
  it.each([[['--stdio']], [['--case-sensitive', '--stdio']], [['--schema', 'schemas/employee.json']]])(
    '%j: initialize and shutdown answered once each, exit 0, nothing on stderr',
    async (args) => {
      const { code, stdout, stderr } = await session(args, INITIALIZE + SHUTDOWN, EXIT);
      expect(stderr).toBe('');
      expect(answeredIds(stdout)).toEqual([1, 2]);
      expect(code).toBe(0);
    },
  );

  it('a --schema file that is not there: a usage error, exit 2, no answer written', async () => {
    const { code, stdout, stderr } = await session(['--schema', 'no-such-schema.json'], INITIALIZE);
    expect(stdout).toBe('');
    expect(stderr).toContain('no-such-schema.json');
    expect(code).toBe(2);
  });

  it('an unknown option: a usage error, exit 2, no answer written', async () => {
    const { code, stdout, stderr } = await session(['--stdio', '--tcp'], INITIALIZE);
    expect(stdout).toBe('');
    expect(stderr).toContain('--tcp');
    expect(code).toBe(2);
  });
});
