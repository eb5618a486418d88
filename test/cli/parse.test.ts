/**
 * `wepql parse` as a user runs it: stdout (the tree as JSON), stderr (code
 * frames) and the exit code (0 ok, 1 error, 2 usage) — run in the test's process (test/support/cli-in-process.ts),
 * and standard input through the built binary.
 */
import { describe, expect, it } from 'vitest';
import { parseFilter, parseSort } from '../../src/index.js';
import { runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

describe('wepql parse TEXT', () => {
  it.each(['LastName.StartsWith(Sm);Or(Gender.Equal(1);Salary.GreaterThan(1000))', "'D'.StartsWithInFields(FirstName,LastName)", ''])(
    '%j prints the tree and exits 0',
    async (text) => {
      const r = await runCliInProcess(['parse', text]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(parseFilter(text).ast)));
    },
  );

  it('prints warnings on stderr but exits 0', async () => {
    const r = await runCliInProcess(['parse', 'A.Equal(1);']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('1:11: warning empty-clause:');
  });

  it('renders errors as code frames and exits 1, still printing the partial tree', async () => {
    const r = await runCliInProcess(['parse', 'A.Equals(1);B.IsNull()']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        '1:3: error unknown-operator: unknown operator "Equals"; did you mean "Equal"?',
        '  A.Equals(1);B.IsNull()',
        '    ^^^^^^',
        '  suggestion: Equal',
        '',
      ].join('\n'),
    );
    expect(JSON.parse(r.stdout).clauses).toHaveLength(1);
  });

  it('parses a sort with --sort', async () => {
    const r = await runCliInProcess(['parse', '--sort', 'LastName=Asc;CreatedOn=desc']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(parseSort('LastName=Asc;CreatedOn=desc').ast)));
  });

  it('reports a sort error and exits 1', async () => {
    const r = await runCliInProcess(['parse', '--sort', 'A=Asc,B=Desc']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error sort-comma-separator');
  });

  it('reads standard input for -, a real pipe into the built binary', () => {
    const r = runCli(['parse', '-'], { input: 'A.Equal(1;B.Foo(2)\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^<stdin>:1:8: error missing-close-paren/m);
    expect(r.stderr).toMatch(/^<stdin>:1:13: error unknown-operator/m);
  });

  it('prints one line of JSON with --compact', async () => {
    const r = await runCliInProcess(['parse', '--compact', 'A.IsNull()']);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.code).toBe(0);
  });

  it.each([[[]], [['a', 'b']], [['--nope', 'A.IsNull()']], [['--sort=x', 'A']]])('exits 2 for the usage error %j', async (args) => {
    const r = await runCliInProcess(['parse', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/usage: wepql parse/);
    expect(r.stdout).toBe('');
  });
});
