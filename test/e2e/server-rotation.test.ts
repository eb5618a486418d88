/**
 * Scaling out: three server processes that share their data token secrets,
 * behind a round-robin client, page one list across all of them — and the
 * secret is rotated mid-walk by rolling restarts (the new key first added
 * for verification everywhere, then made the signing key, then the old one
 * dropped), without the walk noticing. Needs `npm run build` first.
 *
 * Each process runs test/support/list-server-process.mjs bundled once by
 * esbuild with the built dist/ files and their runtime dependencies: twelve
 * starts each loaded the reference server module by module (chevrotain's
 * lodash-es alone is 640 files), as the shipped `wepql` and `npm start`
 * no longer do.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshDist } from '../support/dist.js';
import { get } from '../support/http.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const source = new URL('../support/list-server-process.mjs', import.meta.url).pathname;
const AUTH = { authorization: 'Bearer scale-out-test-token' };
const OLD = 'the old shared secret of 16+ bytes';
const NEW = 'the new shared secret of 16+ bytes';
const LIST = '/api/public/clients/1/employees';
const running = new Set<ChildProcess>();
let work = '';
let script = '';

beforeAll(async () => {
  assertFreshDist();
  // Inside the checkout, so that what stays an import (the optional drivers and frameworks) resolves from its node_modules.
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  work = mkdtempSync(join(ROOT, '.tmp', 'server-rotation-'));
  script = join(work, 'list-server-process.mjs');
  const runtime = new Set(
    Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: object }).dependencies),
  );
  await build({
    entryPoints: [source],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    plugins: [
      {
        name: 'runtime-dependencies-only',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            if (args.importer.includes('/node_modules/') || args.path.startsWith('node:')) return undefined;
            const name = args.path
              .split('/')
              .slice(0, args.path.startsWith('@') ? 2 : 1)
              .join('/');
            return runtime.has(name) && name !== 'yaml' ? undefined : { external: true };
          });
        },
      },
    ],
  });
});

afterAll(() => {
  for (const child of running) child.kill('SIGTERM');
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

interface Server {
  readonly url: string;
  stop(): Promise<void>;
}

function start(secret: string, previous: readonly string[]): Promise<Server> {
  const env = { ...process.env, WEPQL_SECRET: secret, WEPQL_PREVIOUS_SECRETS: previous.join(',') };
  const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1]!,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              running.delete(child);
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!out.includes('listening on')) reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

describe('three server processes sharing secrets, rotated mid-walk', () => {
  it('page one list round-robin across all of them, through a rolling rotation, exactly once each', async () => {
    const servers = await Promise.all([start(OLD, []), start(OLD, []), start(OLD, [])]);
    let turn = 0;
    const roundRobin = async (query: string) => {
      const server = servers[turn++ % servers.length]!;
      return get(`${server.url}${LIST}?${query}`, AUTH);
    };
    const everything = (await roundRobin('limit=1000&sort=LastName=Asc')).body.Data.map((e: { Id: number }) => e.Id);
    const first = await roundRobin('limit=20&sort=LastName=Asc');
    expect(first.status).toBe(200);
    const total = first.body.Pagination.TotalPages;
    expect(total).toBeGreaterThanOrEqual(16);
    const seen: number[] = first.body.Data.map((e: { Id: number }) => e.Id);
    let token: string = first.body.Pagination.DataToken;
    const oldToken = token;
    const next = async () => {
      const r = await roundRobin(`data-token=${encodeURIComponent(token)}&next-page=true`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      seen.push(...r.body.Data.map((e: { Id: number }) => e.Id));
      token = r.body.Pagination.DataToken;
    };
    // Restarts one process at a time with new keys, paging on between two restarts.
    const roll = async (secret: string, previous: readonly string[]) => {
      for (let i = 0; i < servers.length; i++) {
        await servers[i]!.stop();
        servers[i] = await start(secret, previous);
        await next();
      }
    };
    for (let i = 0; i < 3; i++) await next(); // old key everywhere
    await roll(OLD, [NEW]); // the new key verifies everywhere before anyone signs with it
    await roll(NEW, [OLD]); // the new key signs; tokens signed with the old one still verify
    await roll(NEW, []); // the old key is gone
    while (seen.length < everything.length) await next();
    expect(seen).toEqual(everything);
    // A token signed with the retired key is refused now, and says why.
    const stale = await roundRobin(`data-token=${encodeURIComponent(oldToken)}&next-page=true`);
    expect(stale.status).toBe(400);
    expect(String(stale.headers['x-wepql-token-error'] ?? '')).toMatch(/^(bad-signature|expired): /);
    await Promise.all(servers.map((s) => s.stop()));
  }, 180_000);
});
