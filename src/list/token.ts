/**
 * Data tokens (docs/reference.md §"The list contract"): the opaque, integrity-protected
 * state of token
 * paging. A token is `<payload>.<mac>`, both compact base64url; the payload
 * is JSON compressed with deflate-raw (`CompressionStream`, in Node 20 and
 * browsers), so that long filters fit; the MAC is HMAC-SHA256 over a domain-separated copy of the
 * payload text, keyed with the server secret through WebCrypto so that the
 * core needs no Node built-in.
 *
 * The token is signed, not encrypted: a client can read its own filter and
 * page number back, which is harmless, but cannot change them.
 */
import { WepqlError } from '../diagnostics/error.js';
import type { SeekKey } from '../sql/seek.js';
import { decodeBase64Url, encodeBase64Url, isBase64Url } from './base64url.js';

/**
 * What a data token remembers between pages.
 *
 * @example
 * await codec.issue({ route: '/api/public/clients/1/employees', filter: '', sort: '', includeDeleted: false, limit: 25, page: 1, totalRecords: 230, totalPages: 10 } satisfies DataTokenPayload);
 */
export interface DataTokenPayload {
  /** The list the token belongs to, such as `/api/public/clients/1/employees`. */
  readonly route: string;
  /** The filter text of the first request (`''` for none). */
  readonly filter: string;
  /** The sort text of the first request (`''` for none). */
  readonly sort: string;
  readonly includeDeleted: boolean;
  /** Page size. */
  readonly limit: number;
  /** The page the response carrying this token showed (1-based). */
  readonly page: number;
  /** Computed once on the first page and carried forward. */
  readonly totalRecords: number;
  /** Computed once on the first page and carried forward. */
  readonly totalPages: number;
  /**
   * The sort keys (tie-breaker included) of the page's first and last rows,
   * so that `next-page`/`prev-page` seek from them; absent when the source
   * cannot seek, the page was empty, or the keys would make the token too long.
   */
  readonly keys?: { readonly first: SeekKey; readonly last: SeekKey };
}

/**
 * A verified token's payload with its lifetime.
 *
 * @example
 * const checked = await codec.verify(token, route); if (checked.ok) checked.payload.expiresAt; // issue time + 60,000
 */
export interface VerifiedDataToken extends DataTokenPayload {
  /** Epoch milliseconds of issue. */
  readonly issuedAt: number;
  /** Epoch milliseconds after which the token is refused. */
  readonly expiresAt: number;
}

/**
 * Why a token was refused.
 *
 * @example
 * const checked = await codec.verify('x.y', route); if (!checked.ok) checked.reason; // 'malformed'
 */
export type TokenRefusal = 'oversized' | 'malformed' | 'bad-signature' | 'wrong-route' | 'future' | 'expired';

/**
 * The outcome of `verify`.
 *
 * @example
 * const checked: TokenVerification = await codec.verify(token, '/api/public/clients/1/employees');
 */
export type TokenVerification =
  | { readonly ok: true; readonly payload: VerifiedDataToken }
  | { readonly ok: false; readonly reason: TokenRefusal; readonly message: string };

/**
 * A secret: text (UTF-8 encoded) or raw bytes; at least 16 bytes.
 *
 * @example
 * const secret: TokenSecret = crypto.getRandomValues(new Uint8Array(32)); // or a 16+ byte string
 */
export type TokenSecret = string | Uint8Array;

/**
 * Options of `createTokenCodec`.
 *
 * @example
 * createTokenCodec({ secret: process.env.LIST_SECRET!, ttlSeconds: 60, now: () => clock } satisfies TokenCodecOptions);
 */
export interface TokenCodecOptions {
  /** The key new tokens are signed with. */
  readonly secret: TokenSecret;
  /** Older keys still accepted by `verify`, so a secret can be rotated without breaking open browsing sessions. */
  readonly previousSecrets?: readonly TokenSecret[];
  /** Lifetime of a token; default 60 (docs/reference.md §"The list contract"). */
  readonly ttlSeconds?: number;
  /** The clock, in epoch milliseconds; default `Date.now`. */
  readonly now?: () => number;
  /** Longest token accepted, checked before anything else; default 8,192. */
  readonly maxLength?: number;
  /** How far in the future an issue time may lie before the token is refused as future-dated; default 0 ms. */
  readonly clockSkewMs?: number;
}

/**
 * Issues and verifies data tokens.
 *
 * @example
 * const codec: TokenCodec = createTokenCodec({ secret: 'a long random server secret' }); codec.maxLength; // 8192
 */
export interface TokenCodec {
  /** Signs a payload; the token expires `ttlSeconds` after now. */
  issue(payload: DataTokenPayload): Promise<string>;
  /** Checks length, form, signature, route and lifetime, in that order; never throws. */
  verify(token: string, route: string): Promise<TokenVerification>;
  /** The longest token `verify` accepts. */
  readonly maxLength: number;
  /** The lifetime of issued tokens, in seconds. */
  readonly ttlSeconds: number;
}

const MAC_PREFIX = 'wepql-data-token-v1.';
const MAC_TEXT_LENGTH = 43; // 32 bytes of HMAC-SHA256 in unpadded base64url
const MIN_SECRET_BYTES = 16;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Creates a codec for data tokens. Throws `WepqlError` for a secret shorter
 * than 16 bytes or a lifetime that is not a positive number, since both are
 * programming errors, not user input.
 *
 * @example
 * const codec = createTokenCodec({ secret: 'a long random server secret', previousSecrets: ['the old one, 16+ bytes'] });
 * const token = await codec.issue({ route: '/api/public/clients/1/employees', filter: 'Gender.Equal(1)', sort: '',
 *   includeDeleted: false, limit: 25, page: 1, totalRecords: 230, totalPages: 10 });
 * const checked = await codec.verify(token, '/api/public/clients/1/employees');
 * if (checked.ok) checked.payload.page; // 1
 */
export function createTokenCodec(options: TokenCodecOptions): TokenCodec {
  const ttlSeconds = options.ttlSeconds ?? 60;
  if (!(typeof ttlSeconds === 'number' && Number.isFinite(ttlSeconds) && ttlSeconds > 0)) {
    throw new WepqlError(`ttlSeconds must be a positive number, got ${String(ttlSeconds)}`, []);
  }
  const maxLength = options.maxLength ?? 8192;
  const skew = options.clockSkewMs ?? 0;
  const now = options.now ?? Date.now;
  const secrets = [options.secret, ...(options.previousSecrets ?? [])].map((s, i) => secretBytes(s, i));
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) throw new WepqlError('data tokens need WebCrypto (globalThis.crypto.subtle)', []);
  // Importing is asynchronous; doing it once keeps every request to one HMAC per key.
  let keys: Promise<CryptoKey[]> | undefined;
  const getKeys = (): Promise<CryptoKey[]> =>
    (keys ??= Promise.all(
      secrets.map((bytes) => subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])),
    ));
  const mac = async (key: CryptoKey, payloadText: string): Promise<Uint8Array> =>
    new Uint8Array(await subtle.sign('HMAC', key, encoder.encode(MAC_PREFIX + payloadText)));

  return Object.freeze({
    maxLength,
    ttlSeconds,
    async issue(payload: DataTokenPayload): Promise<string> {
      const issuedAt = Math.floor(now());
      const wire: WirePayload = {
        r: payload.route,
        f: payload.filter,
        s: payload.sort,
        d: payload.includeDeleted ? 1 : 0,
        l: payload.limit,
        p: payload.page,
        n: payload.totalRecords,
        t: payload.totalPages,
        i: issuedAt,
        e: issuedAt + Math.round(ttlSeconds * 1000),
        ...(payload.keys === undefined ? {} : { k: [payload.keys.first, payload.keys.last] }),
      };
      const payloadText = encodeBase64Url(await deflate(encoder.encode(JSON.stringify(wire))));
      const [key] = await getKeys();
      return `${payloadText}.${encodeBase64Url(await mac(key!, payloadText))}`;
    },
    async verify(token: string, route: string): Promise<TokenVerification> {
      if (typeof token !== 'string') return refuse('malformed', 'the data token must be text');
      if (token.length > maxLength) {
        return refuse('oversized', `the data token is ${token.length} characters long; at most ${maxLength} are accepted`);
      }
      const dot = token.indexOf('.');
      const payloadText = token.slice(0, dot);
      const macText = token.slice(dot + 1);
      if (dot <= 0 || macText.length !== MAC_TEXT_LENGTH || !isBase64Url(payloadText) || !isBase64Url(macText)) {
        return refuse('malformed', 'the data token is not in the form this server issues; send the DataToken of the last response unchanged');
      }
      let signed = false;
      for (const key of await getKeys()) {
        // Compared as text: the last base64url character has two spare bits, so
        // comparing decoded bytes would accept four spellings of one MAC.
        if (constantTimeEqual(macText, encodeBase64Url(await mac(key, payloadText)))) {
          signed = true;
          break;
        }
      }
      if (!signed) {
        return refuse('bad-signature', 'the data token was altered or was not issued by this server; start again from page one');
      }
      // Only now, with the MAC checked, is the payload decoded.
      const wire = await decodeWire(payloadText);
      if (wire === undefined) return refuse('malformed', 'the data token does not hold a paging state this server understands');
      if (wire.r !== route) {
        return refuse('wrong-route', 'the data token belongs to another list; a token is only valid on the list that issued it');
      }
      const at = now();
      if (wire.i > at + skew) {
        return refuse('future', `the data token is dated ${iso(wire.i)}, which is in the future; check the server clocks`);
      }
      if (at >= wire.e) {
        return refuse('expired', `the data token expired at ${iso(wire.e)} (tokens live ${ttlSeconds} s); start again from page one`);
      }
      return {
        ok: true,
        payload: {
          route: wire.r,
          filter: wire.f,
          sort: wire.s,
          includeDeleted: wire.d === 1,
          limit: wire.l,
          page: wire.p,
          totalRecords: wire.n,
          totalPages: wire.t,
          issuedAt: wire.i,
          expiresAt: wire.e,
          ...(wire.k === undefined ? {} : { keys: { first: wire.k[0], last: wire.k[1] } }),
        },
      };
    },
  });
}

/** The payload as it travels: short keys keep tokens small. */
interface WirePayload {
  r: string;
  f: string;
  s: string;
  d: 0 | 1;
  l: number;
  p: number;
  n: number;
  t: number;
  i: number;
  e: number;
  k?: [SeekKey, SeekKey];
}

// A signed payload is ours, but its size is still bounded before it is read.
const MAX_PAYLOAD_BYTES = 1 << 16;

async function decodeWire(payloadText: string): Promise<WirePayload | undefined> {
  let value: unknown;
  try {
    const json = await inflate(decodeBase64Url(payloadText)!, MAX_PAYLOAD_BYTES);
    if (json === undefined) return undefined;
    value = JSON.parse(decoder.decode(json));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
  if (typeof v.r !== 'string' || typeof v.f !== 'string' || typeof v.s !== 'string') return undefined;
  if (v.d !== 0 && v.d !== 1) return undefined;
  if (!isCount(v.l) || v.l < 1 || !isCount(v.p) || v.p < 1 || !isCount(v.n) || !isCount(v.t)) return undefined;
  if (!isCount(v.i) || !isCount(v.e)) return undefined;
  if (v.k !== undefined && !(Array.isArray(v.k) && v.k.length === 2 && v.k.every(isSeekKey))) return undefined;
  return v as unknown as WirePayload;
}

function isSeekKey(x: unknown): x is SeekKey {
  return (
    Array.isArray(x) &&
    x.every((v) => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))
  );
}

async function deflate(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Inflates at most `limit` bytes; undefined for corrupt or larger input. */
async function inflate(bytes: Uint8Array, limit: number): Promise<Uint8Array | undefined> {
  const reader = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) {
        await reader.cancel();
        return undefined;
      }
      chunks.push(value);
    }
  } catch {
    return undefined;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function secretBytes(secret: TokenSecret, index: number): Uint8Array<ArrayBuffer> {
  const bytes = typeof secret === 'string' ? encoder.encode(secret) : secret instanceof Uint8Array ? secret : undefined;
  const which = index === 0 ? 'secret' : `previousSecrets[${index - 1}]`;
  if (bytes === undefined) throw new WepqlError(`${which} must be a string or a Uint8Array`, []);
  if (bytes.length < MIN_SECRET_BYTES) {
    throw new WepqlError(`${which} is ${bytes.length} bytes long; a data token secret needs at least ${MIN_SECRET_BYTES}`, []);
  }
  // A copy: a caller reusing its buffer must not change the key later.
  return new Uint8Array(bytes);
}

/** Compares two strings in time that depends only on their lengths. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function refuse(reason: TokenRefusal, message: string): TokenVerification {
  return { ok: false, reason, message };
}

function iso(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
}
