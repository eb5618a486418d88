#!/usr/bin/env node
/**
 * `npm start`: the reference list server on 127.0.0.1.
 *
 * Settings (environment):
 * - `PORT` (default 8080; 0 picks a free port)
 * - `WEPQL_DEMO_TOKEN`: the bearer token clients send (default: random, printed)
 * - `WEPQL_SECRET`: data token secret, 16+ bytes (default: random per start)
 * - `WEPQL_TOKEN_TTL_S`: data token lifetime in seconds (default 60, at most a year)
 * - `DATABASE_URL`: serve from PostgreSQL (after `wepql db-seed`) instead of examples/employees.json
 *   (a counter table from `wepql db-index --counts` and the stored folded columns of
 *   `wepql db-seed --shards` are found and used with no setting)
 *
 * A setting it cannot use, or a port already in use, is one line on stderr
 * naming the setting and exit code 2, never a stack trace.
 */
import { randomBytes } from 'node:crypto';
import type { DataSource } from '../list/data-source.js';
import type { ListServerOptions } from './server.js';

// The server and the sample's sources (the parser, the SQL compiler and the
// rest of the bundle) are imported once the settings are read: a setting it
// cannot use is answered by this file alone, before any of that loads.

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

/** A year: longer lifetimes buy nothing and would push expiry times past what a token's clock field holds exactly. */
const MAX_TTL_SECONDS = 365 * 24 * 60 * 60;

function readTtl(): number {
  const raw = process.env.WEPQL_TOKEN_TTL_S;
  if (raw === undefined || raw === '') return 60;
  const n = Number(raw);
  if (!/^\d{1,20}(\.\d{1,20})?$/.test(raw) || !Number.isFinite(n) || !(n > 0) || n > MAX_TTL_SECONDS) {
    fail(`WEPQL_TOKEN_TTL_S must be a positive number of seconds up to ${MAX_TTL_SECONDS} (a year), got ${JSON.stringify(clip(raw))}`);
  }
  return n;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

interface Settings {
  readonly port: number;
  readonly ttlSeconds: number;
  readonly secret: string | Buffer;
  readonly authToken: string;
}

/** Every setting read and checked before anything starts: a bad one exits 2 with its name. */
function readSettings(): Settings {
  const port = readPort();
  const ttlSeconds = readTtl();
  const secret = process.env.WEPQL_SECRET || randomBytes(32);
  if (typeof secret === 'string' && Buffer.byteLength(secret) < 16) fail('WEPQL_SECRET must be at least 16 bytes long');
  const authToken = process.env.WEPQL_DEMO_TOKEN || randomBytes(18).toString('base64url');
  // RFC 6750's b64token: anything else could never be sent as `Bearer <token>` (nor pasted inside the quoted curl lines).
  if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(authToken)) {
    fail('WEPQL_DEMO_TOKEN must be a bearer token: letters, digits and - . _ ~ + / (then = padding), without spaces');
  }
  return { port, ttlSeconds, secret, authToken };
}

interface ServedData {
  readonly data: Pick<ListServerOptions, 'records' | 'source' | 'clientExists'>;
  readonly described: string;
  close(): Promise<void>;
}

/** The employees to serve: PostgreSQL when `DATABASE_URL` is set, else the sample file. */
async function openData(log: (line: string) => void): Promise<ServedData> {
  const databaseUrl = process.env.DATABASE_URL;
  const {
    chooseFoldCollation,
    employeePostgresSource,
    findEmployeeCounter,
    findEmployeeFoldedColumns,
    findEmployeePartitions,
    loadSampleEmployees,
  } = await import('../sample/employees.js');
  if (databaseUrl) {
    const pg = (await import('pg')).default as unknown as typeof import('pg');
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
    const query = (sql: string, params: unknown[]) => pool.query(sql, params);
    const { foldCollation, note } = await chooseFoldCollation(query).catch(async (error: unknown) => {
      await pool.end();
      throw error;
    });
    if (note !== undefined) log(note);
    // Installed by `wepql db-index --counts`: unfiltered totals are then read from it, with no setting to give.
    const counterTable = await findEmployeeCounter(query);
    // Made by `wepql db-seed --shards`: strings are then compared through them, so each statement ships to its shard whole.
    const foldedColumns = await findEmployeeFoldedColumns(query);
    // Partitioned by client over postgres_fdw: each client's statements then name its partition, so LIMIT ships too.
    const partitionOf = await findEmployeePartitions(query);
    const { source, clientExists } = employeePostgresSource(query, foldCollation, counterTable, pool, foldedColumns, partitionOf);
    const counts = counterTable === undefined ? 'COUNT(*)' : `the counter table "${counterTable.join('.')}"`;
    const strings =
      (foldedColumns ? '; strings compared through their stored folded columns ("<column>_folded")' : '') +
      (partitionOf === undefined ? '' : "; each client's statements read its own partition");
    return {
      data: { source: source as DataSource, clientExists },
      described: `PostgreSQL table "employees" at ${redact(databaseUrl)}; unfiltered totals from ${counts}${strings}`,
      close: () => pool.end(),
    };
  }
  const records = loadSampleEmployees();
  const clients = [...new Set(records.map((r) => (r as { ClientId?: unknown }).ClientId))].filter((c) => typeof c === 'number').sort();
  return {
    data: { records },
    described: `examples/employees.json (${records.length} employees of clients ${clients.join(', ')})`,
    close: async () => {},
  };
}

/** The start-up text: address, data, token, and three curl lines that work as pasted. */
function banner(url: string, described: string, settings: Settings): string {
  const list = `${url}/api/public/clients/1/employees`;
  const auth = `-H 'Authorization: Bearer ${settings.authToken}'`;
  return [
    `wepql list server listening on ${url}`,
    `data: ${described}`,
    `bearer token: ${settings.authToken}${process.env.WEPQL_DEMO_TOKEN ? '' : ' (random; set WEPQL_DEMO_TOKEN to choose one)'}`,
    `data tokens live ${settings.ttlSeconds} s${process.env.WEPQL_SECRET ? '' : '; WEPQL_SECRET unset, so a random secret is used until restart'}`,
    '',
    'try:',
    `  curl -s ${auth} '${list}?limit=5'`,
    `  curl -s ${auth} -H 'x-api-limit: 10' -H 'x-api-sort: LastName=Asc' --get --data-urlencode 'filter=LastName.StartsWith(Sm);Gender.Equal(1)' '${list}'`,
    // The third line takes the DataToken of a first page and asks for the next page, so that it too works as pasted.
    `  curl -s ${auth} -H 'x-api-next-page: true' -H "x-api-data-token: $(curl -s ${auth} '${list}?limit=5' | sed -E 's/.*"DataToken":"([^"]*)".*/\\1/')" '${list}'`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const settings = readSettings();
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  const served = await openData(log);
  const { authToken, secret, ttlSeconds, port } = settings;
  const { createListServer } = await import('./server.js');
  const app = createListServer({ ...served.data, authToken, secret, ttlSeconds, port, host: '127.0.0.1', log });
  const { url } = await app.listen().catch(async (error: unknown) => {
    await served.close();
    return failToListen(error, port);
  });
  process.stdout.write(banner(url, served.described, settings));
  const stop = (signal: string) => {
    log(`${signal}: shutting down`);
    app
      .close()
      .then(() => served.close())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

/** A port taken or refused is the user's setting to change: say so, naming PORT. */
function failToListen(error: unknown, port: number): never {
  const code = typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;
  if (code === 'EADDRINUSE') fail(`port ${port} on 127.0.0.1 is already in use; set PORT to another port (PORT=0 picks a free one)`);
  if (code === 'EACCES') fail(`port ${port} needs privileges this process lacks; set PORT to a port above 1023`);
  throw error;
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
  // A database that cannot be reached is the environment's doing: one line. Anything else is a bug: the stack.
  const code = typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;
  const reachable = typeof code === 'string' && /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|28P01|3D000)$/.test(code);
  const text = error instanceof Error ? (reachable ? error.message : (error.stack ?? error.message)) : String(error);
  process.stderr.write(`wepql server: ${reachable ? `cannot use DATABASE_URL: ${text}` : text}\n`);
  process.exit(1);
});
