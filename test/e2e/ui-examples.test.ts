/**
 * The examples of docs/sdk.md "From user interfaces" (examples/ui/*.ts):
 * each is bundled with esbuild, run with Node, and its output compared with
 * what the guide prints.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'wepql-ui-examples-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function run(name: string): Promise<string[]> {
  const file = join(out, `${name}.mjs`);
  await build({
    entryPoints: [join(ROOT, 'examples', 'ui', `${name}.ts`)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: file,
    logLevel: 'error',
  });
  return execFileSync(process.execPath, [file], { encoding: 'utf8' }).trimEnd().split('\n');
}

describe('examples/ui', () => {
  it('react-querybuilder.ts prints what docs/sdk.md shows', async () => {
    expect(await run('react-querybuilder')).toEqual([
      'Equal NotEqual IsNull IsNotNull InArray InArrayOrNull NotInArray NotInArrayOrNull',
      '{"combinator":"or","rules":[{"field":"Gender","operator":"=","value":1},{"field":"Gender","operator":"null","value":null}]}',
      'LastName.StartsWith(Sm);Or(Gender.Equal(1);Gender.IsNull());ClientId.InArray(1,2)',
      'undefined not-expressible at [0]',
    ]);
  });

  it('tanstack-table.ts prints what docs/sdk.md shows', async () => {
    expect(await run('tanstack-table')).toEqual([
      'LastName.StartsWith(sm);ClientId.InArray(1,2);And(EmployeeNumber.GreaterThanOrEqual(100);EmployeeNumber.LessThanOrEqual(200))',
      'LastName=Asc;CreatedOn=Desc',
      '{"columnFilters":[{"id":"LastName","value":"sm"},{"id":"Gender","value":[1,2]}],"filterFns":{"LastName":"startsWith","Gender":"arrHas"}}',
      'undefined TanStack Table ANDs one filter per column; groups and InFields have no column filter',
    ]);
  });

  it('ag-grid.ts prints what docs/sdk.md shows', async () => {
    expect(await run('ag-grid')).toEqual([
      'Or(LastName.StartsWith(sm);LastName.StartsWith(jo));And(ClientId.GreaterThan(0);ClientId.LessThan(3));And(CreatedOn.GreaterThanOrEqual(2024-03-21);CreatedOn.LessThan(2024-03-22))',
      'LastName=Asc;CreatedOn=Desc',
      '{"LastName":{"filterType":"text","type":"startsWith","filter":"sm"},"CreatedOn":{"filterType":"date","type":"greaterThanOrEqual","dateFrom":"2024-01-01 00:00:00","dateTo":null}}',
      'undefined AG Grid filters columns one by one; this clause spans several',
    ]);
  });

  it('mui-data-grid.ts prints what docs/sdk.md shows', async () => {
    expect(await run('mui-data-grid')).toEqual([
      'Or(LastName.StartsWith(sm);Gender.InArray(1,2);And(CreatedOn.GreaterThanOrEqual(2024-03-21);CreatedOn.LessThan(2024-03-22)))',
      'CreatedOn=Desc',
      '{"items":[{"field":"LastName","operator":"contains","value":"sm","id":0},{"field":"ClientId","operator":">","value":1,"id":1}],"logicOperator":"and"}',
      'undefined not-expressible at ["items",1]',
    ]);
  });
});
