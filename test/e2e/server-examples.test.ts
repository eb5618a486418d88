/**
 * The runnable adapter examples of docs/server.md (examples/servers/*.mjs,
 * shown verbatim in the guide): each starts with the built package on a free
 * loopback port and serves the employee list with the guide's policy, which
 * allows Ssn only in Equal and never in a sort.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshDist } from '../support/dist.js';
import { get, withQuery } from '../support/http.js';

const ROOT = new URL('../../', import.meta.url);
const guide = readFileSync(new URL('docs/server.md', ROOT), 'utf8');
const AUTH = { authorization: 'Bearer example-token' };

// The examples import the built package (npm test builds dist/ first).
beforeAll(assertFreshDist);

describe.each(['express', 'fastify', 'hono'])('examples/servers/%s.mjs', (name) => {
  const file = `examples/servers/${name}.mjs`;
  let child: ChildProcess;
  let list: string;

  beforeAll(async () => {
    child = spawn(process.execPath, [file], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', API_TOKEN: 'example-token', LIST_SECRET: 'example secret of 16+ bytes' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      const timer = setTimeout(() => reject(new Error(`${file} did not start: ${out}${err}`)), 15_000);
      child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child.on('exit', (code) => reject(new Error(`${file} exited with ${code}: ${err}`)));
    });
    list = `${url}/api/public/clients/1/employees`;
  });
  afterAll(() => {
    child.kill('SIGTERM');
  });

  it('is shown verbatim in docs/server.md', () => {
    expect(guide).toContain('```js\n' + readFileSync(new URL(file, ROOT), 'utf8') + '```');
  });

  it('serves the list to a client with the token, Ssn.Equal allowed', async () => {
    const r = await get(withQuery(list, { limit: '5', filter: 'Ssn.Equal(887514451)' }), AUTH);
    expect(r.status).toBe(200);
    expect(r.body.Data.map((e: { Id: number }) => e.Id)).toEqual([10001]);
    expect(r.body.Pagination.TotalRecords).toBe(1);
  });

  it('refuses other operators on Ssn and sorting by it, in ValidationErrors', async () => {
    const r = await get(withQuery(list, { limit: '5', filter: 'Ssn.StartsWith(88)', sort: 'Ssn=Asc' }), AUTH);
    expect(r.status).toBe(400);
    expect(r.body.ValidationErrors).toEqual({
      filter: [['regularExpressionError', 'this endpoint does not allow StartsWith on Ssn; allowed: Equal (operator-not-allowed at 4-14)']],
      sort: [['regularExpressionError', 'this endpoint does not allow sorting by Ssn (field-not-sortable at 0-3)']],
    });
  });

  it('answers 401 without the token and the 404 envelope for an unknown client', async () => {
    const denied = await get(withQuery(list, { limit: '5' }));
    expect(denied.status).toBe(401);
    expect(denied.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    const unknown = await get(list.replace('/clients/1/', '/clients/42/') + '?limit=5', AUTH);
    expect(unknown.status).toBe(404);
    expect(unknown.body.Message).toBe('Client 42 was not found.');
  });
});
