#!/usr/bin/env node
/**
 * `npm start`: the reference list server on 127.0.0.1.
 *
 * Settings (environment):
 * - `PORT` (default 8080; 0 picks a free port)
 * - `WEPQL_DEMO_TOKEN`: the bearer token clients send (default: random, printed)
 * - `WEPQL_SECRET`: data token secret, 16+ bytes (default: random per start)
 * - `WEPQL_TOKEN_TTL_S`: data token lifetime in seconds (default 60)
 * - `DATABASE_URL`: serve from PostgreSQL (after `wepql db-seed`) instead of examples/employees.json
 */
import { randomBytes } from 'node:crypto';
import type { DataSource } from '../list/data-source.js';
import { createListServer } from './server.js';
import type { ListServerOptions } from './server.js';
import { chooseFoldCollation, employeePostgresSource, loadSampleEmployees } from '../sample/employees.js';

function fail(message: string): never {
  process.stderr.write(`wepql server: ${message}\n`);
  process.exit(2);
}

function readPort(): number {
  const raw = process.env.PORT;
  if (raw === undefined || raw === '') return 8080;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) fail(`PORT must be a port number 0–65535, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

function readTtl(): number {
  const raw = process.env.WEPQL_TOKEN_TTL_S;
  if (raw === undefined || raw === '') return 60;
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !(n > 0)) fail(`WEPQL_TOKEN_TTL_S must be a positive number of seconds, got ${JSON.stringify(raw)}`);
  return n;
}

async function main(): Promise<void> {
  const port = readPort();
  const ttlSeconds = readTtl();
  const secret = process.env.WEPQL_SECRET || randomBytes(32);
  if (typeof secret === 'string' && Buffer.byteLength(secret) < 16) fail('WEPQL_SECRET must be at least 16 bytes long');
  const authToken = process.env.WEPQL_DEMO_TOKEN || randomBytes(18).toString('base64url');
  // RFC 6750's b64token: anything else could never be sent as `Bearer <token>` (nor pasted inside the quoted curl lines).
  if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(authToken)) {
    fail('WEPQL_DEMO_TOKEN must be a bearer token: letters, digits and - . _ ~ + / (then = padding), without spaces');
  }
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);

  let data: Pick<ListServerOptions, 'records' | 'source' | 'clientExists'>;
  let described: string;
  let closeData = async (): Promise<void> => {};
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const pg = (await import('pg')).default as unknown as typeof import('pg');
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
    const query = (sql: string, params: unknown[]) => pool.query(sql, params);
    const { foldCollation, note } = await chooseFoldCollation(query);
    if (note !== undefined) log(note);
    const { source, clientExists } = employeePostgresSource(query, foldCollation);
    data = { source: source as DataSource, clientExists };
    described = `PostgreSQL table "employees" at ${redact(databaseUrl)}`;
    closeData = () => pool.end();
  } else {
    const records = loadSampleEmployees();
    const clients = [...new Set(records.map((r) => (r as { ClientId?: unknown }).ClientId))].filter((c) => typeof c === 'number').sort();
    data = { records };
    described = `examples/employees.json (${records.length} employees of clients ${clients.join(', ')})`;
  }

  const app = createListServer({ ...data, authToken, secret, ttlSeconds, port, host: '127.0.0.1', log });
  const { url } = await app.listen();
  const list = `${url}/api/public/clients/1/employees`;
  const auth = `-H 'Authorization: Bearer ${authToken}'`;
  process.stdout.write(
    [
      `wepql list server listening on ${url}`,
      `data: ${described}`,
      `bearer token: ${authToken}${process.env.WEPQL_DEMO_TOKEN ? '' : ' (random; set WEPQL_DEMO_TOKEN to choose one)'}`,
      `data tokens live ${ttlSeconds} s${process.env.WEPQL_SECRET ? '' : '; WEPQL_SECRET unset, so a random secret is used until restart'}`,
      '',
      'try:',
      `  curl -s ${auth} '${list}?limit=5'`,
      `  curl -s ${auth} -H 'x-api-limit: 10' -H 'x-api-sort: LastName=Asc' --get --data-urlencode 'filter=LastName.StartsWith(Sm);Gender.Equal(1)' '${list}'`,
      // The third line takes the DataToken of a first page and asks for the next page, so that it too works as pasted.
      `  curl -s ${auth} -H 'x-api-next-page: true' -H "x-api-data-token: $(curl -s ${auth} '${list}?limit=5' | sed -E 's/.*"DataToken":"([^"]*)".*/\\1/')" '${list}'`,
      '',
    ].join('\n'),
  );

  const stop = (signal: string) => {
    log(`${signal}: shutting down`);
    app
      .close()
      .then(closeData)
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(DATABASE_URL)';
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`wepql server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
