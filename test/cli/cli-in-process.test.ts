/**
 * The in-process runner of the CLI tests (test/support/cli-in-process.ts):
 * a run sees its own working folder, environment, standard input and
 * pipes for stdout and stderr, gets back exactly what it wrote, and leaves
 * the test's process as it found it; a command that leaves process-wide
 * state behind fails the test that ran it.
 */
import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCliInProcess, runEntryInProcess } from '../support/cli-in-process.js';
import { ROOT } from '../support/cli.js';
import { tempDirs } from '../support/temp-dirs.js';

const runnerDir = tempDirs('wepql-in-process-');

describe('a run in process', () => {
  it('sees its folder, environment, standard input and pipes, and the process is as it was afterwards', async () => {
    const dir = runnerDir();
    const cwd = process.cwd();
    const env = { ...process.env };
    const seen = await runEntryInProcess(
      async () => {
        let input = '';
        for await (const chunk of process.stdin) input += (chunk as Buffer).toString('utf8');
        process.stdout.write(`${realpathSync(process.cwd())}|${process.env['WEPQL_RUNNER_TEST']}|${process.env['HOME'] === undefined}\n`);
        process.stderr.write(`${input}|${process.stdout.isTTY}|${process.stderr.isTTY}\n`);
        return 3;
      },
      [],
      { cwd: dir, input: 'from stdin', env: { WEPQL_RUNNER_TEST: 'set', HOME: undefined } },
    );
    expect(seen).toEqual({ code: 3, stdout: `${realpathSync(dir)}|set|true\n`, stderr: 'from stdin|false|false\n' });
    expect(process.cwd()).toBe(cwd);
    expect(process.env).toEqual(env);
  });

  it('runs in the repository root by default, through runWepql', async () => {
    const r = await runCliInProcess(['fmt', 'a.equal( 1 )']);
    expect(r).toEqual({ code: 0, stdout: 'a.Equal(1)\n', stderr: '' });
    const where = await runEntryInProcess(async () => {
      process.stdout.write(realpathSync(process.cwd()));
      return 0;
    }, []);
    expect(where.stdout).toBe(realpathSync(ROOT));
  });

  it('restores the process when the command throws, and passes the error on', async () => {
    const cwd = process.cwd();
    await expect(
      runEntryInProcess(
        () => {
          process.stdout.write('half');
          throw new Error('boom');
        },
        [],
        { cwd: runnerDir(), env: { WEPQL_RUNNER_TEST: 'set' } },
      ),
    ).rejects.toThrow('boom');
    expect(process.cwd()).toBe(cwd);
    expect(process.env['WEPQL_RUNNER_TEST']).toBeUndefined();
    expect(await runCliInProcess(['fmt', 'a.equal(1)'])).toEqual({ code: 0, stdout: 'a.Equal(1)\n', stderr: '' });
  });
});

describe('a command that leaves process-wide state behind fails its test', () => {
  it('a timer it clears, or that fired, or that does not hold the process, is not left behind', async () => {
    const r = await runEntryInProcess(async () => {
      clearTimeout(setTimeout(() => {}, 60_000));
      clearInterval(setInterval(() => {}, 60_000));
      await new Promise((resolve) => setTimeout(resolve, 1));
      setTimeout(() => {}, 60_000).unref();
      return 0;
    }, []);
    expect(r.code).toBe(0);
  });

  it.each([
    [
      'process.exitCode',
      async () => {
        process.exitCode = 3;
        return 0;
      },
      'process.exitCode set to 3',
      () => {},
    ],
    [
      'a listener',
      async () => {
        process.on('SIGUSR2', listener);
        return 0;
      },
      "1 more process 'SIGUSR2' listener(s)",
      () => process.off('SIGUSR2', listener),
    ],
    [
      'an environment variable',
      async () => {
        process.env['WEPQL_RUNNER_LEAK'] = '1';
        return 0;
      },
      'process.env changed',
      () => delete process.env['WEPQL_RUNNER_LEAK'],
    ],
    [
      'a timer',
      async () => {
        timer = setTimeout(() => {}, 60_000);
        return 0;
      },
      '1 pending timer(s)',
      () => clearTimeout(timer),
    ],
  ])('%s', async (_name, entry, message, cleanUp) => {
    try {
      await expect(runEntryInProcess(entry, ['leaky'])).rejects.toThrow(`wepql leaky left behind in the test's process: ${message}`);
    } finally {
      cleanUp();
    }
    expect(process.exitCode).toBeUndefined();
  });
});

function listener(): void {}
let timer: NodeJS.Timeout | undefined;
