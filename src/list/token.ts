/**
 * Data tokens (docs/reference.md §"The list contract"): the opaque,
 * integrity-protected state of token paging. A token is `<payload>.<mac>`,
 * both compact base64url. The payload's layout (`token-wire.ts`) names the
 * key that signed it; the MAC is HMAC-SHA256 over a domain-separated copy
 * of the payload text (`token-keys.ts`). Issuing and verifying are
 * synchronous and use no Node built-in, so a request pays microseconds for
 * its token in Node and in browsers alike.
 *
 * The token is signed, not encrypted: a client can read its own filter and
 * page number back, which is harmless, but cannot change them.
 */
import { WepqlError } from '../diagnostics/error.js';
import type { SeekKey } from '../sql/seek.js';
import { decodeBase64Url, encodeBase64Url, isBase64Url } from './base64url.js';
import type { KeyRing, TokenKey, TokenSecret } from './token-keys.js';
import { createKeyRing } from './token-keys.js';
import type { PayloadParts } from './token-wire.js';
import { MAX_PAYLOAD_BYTES, decodePayload, encodePayload, payloadKeyId } from './token-wire.js';

export type { TokenKey, TokenSecret } from './token-keys.js';

/**
 * What a data token remembers between pages.
 *
 * @example
 * codec.issue({ route: '/api/public/clients/1/employees', filter: '', sort: '', includeDeleted: false, limit: 25, page: 1, totalRecords: 230, totalPages: 10 } satisfies DataTokenPayload);
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
   * True when `totalRecords` is an estimate (the server's count strategy): every page of the walk
   * is then answered with `x-wepql-total: estimated`, and `next-page` may go past `totalPages`.
   * Absent or false: the total is exact.
   */
  readonly totalEstimated?: boolean;
  /**
   * Where `prev-page` and `next-page` seek from: the sort keys (tie-breaker
   * included) of the page's first and last rows. An empty page reached by a
   * seek keeps the one key that bounds it (`last` after a `next-page`,
   * `first` after a `prev-page`). Absent when the source cannot seek, or the
   * keys would make the token longer than the server accepts.
   */
  readonly keys?: { readonly first?: SeekKey; readonly last?: SeekKey };
}

/**
 * A verified token's payload with its lifetime.
 *
 * @example
 * const checked = codec.verify(token, route); if (checked.ok) checked.payload.expiresAt; // issue time + 60,000
 */
export interface VerifiedDataToken extends DataTokenPayload {
  /** Epoch milliseconds of issue. */
  readonly issuedAt: number;
  /** Epoch milliseconds after which the token is refused. */
  readonly expiresAt: number;
}

/**
 * Why a token was refused (or, from `tryIssue`, would be).
 *
 * @example
 * const checked = codec.verify('x.y', route); if (!checked.ok) checked.reason; // 'malformed'
 */
export type TokenRefusal = 'oversized' | 'malformed' | 'bad-signature' | 'wrong-route' | 'future' | 'expired';

/**
 * The outcome of `verify`.
 *
 * @example
 * const checked: TokenVerification = codec.verify(token, '/api/public/clients/1/employees');
 */
export type TokenVerification =
  | { readonly ok: true; readonly payload: VerifiedDataToken }
  | { readonly ok: false; readonly reason: TokenRefusal; readonly message: string };

/**
 * The outcome of `tryIssue`: a token the codec's own `verify` accepts, or why none can be issued.
 *
 * @example
 * const issued: TokenIssue = codec.tryIssue(payload); if (issued.ok) issued.token;
 */
export type TokenIssue =
  | { readonly ok: true; readonly token: string }
  | { readonly ok: false; readonly reason: 'oversized'; readonly message: string };

/**
 * Options of `createTokenCodec`. Give `secret` (with `previousSecrets`
 * still verifying), or `keys` for a rotation schedule, or both (`secret`
 * then signs until a key of `keys` takes over).
 *
 * @example
 * createTokenCodec({ secret: process.env.LIST_SECRET!, ttlSeconds: 60, now: () => clock } satisfies TokenCodecOptions);
 */
export interface TokenCodecOptions {
  /** The key new tokens are signed with. */
  readonly secret?: TokenSecret;
  /** Older keys still accepted by `verify`, so a secret can be rotated without breaking open browsing sessions. */
  readonly previousSecrets?: readonly TokenSecret[];
  /** A rotation schedule: keys with the time they start signing and the time they stop verifying. */
  readonly keys?: readonly TokenKey[];
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
 * Issues and verifies data tokens, synchronously.
 *
 * @example
 * const codec: TokenCodec = createTokenCodec({ secret: 'a long random server secret' }); codec.maxLength; // 8192
 */
export interface TokenCodec {
  /** Signs a payload; the token expires `ttlSeconds` after now. Throws `WepqlError` when `verify` would refuse the result as too large. */
  issue(payload: DataTokenPayload): string;
  /** Signs a payload when `verify` would accept the result: the size checks are the ones `verify` runs. */
  tryIssue(payload: DataTokenPayload): TokenIssue;
  /** Checks length, form, key, signature, size, route and lifetime, in that order; never throws. */
  verify(token: string, route: string): TokenVerification;
  /** The longest token `verify` accepts. */
  readonly maxLength: number;
  /** The lifetime of issued tokens, in seconds. */
  readonly ttlSeconds: number;
}

const MAC_PREFIX = 'wepql-data-token-v2.';
const MAC_TEXT_LENGTH = 43; // 32 bytes of HMAC-SHA256 in unpadded base64url
const encoder = new TextEncoder();

/**
 * Creates a codec for data tokens. Throws `WepqlError` for a secret shorter
 * than 16 bytes, no secret at all, or options under which its own `verify`
 * would refuse the tokens it issues: a lifetime outside 0.001 s – 100 years,
 * a negative or fractional `clockSkewMs`, a `maxLength` that is not a
 * positive whole number; these are programming errors, not user input.
 *
 * @example
 * const codec = createTokenCodec({ secret: 'a long random server secret', previousSecrets: ['the old one, 16+ bytes'] });
 * const token = codec.issue({ route: '/api/public/clients/1/employees', filter: 'Gender.Equal(1)', sort: '',
 *   includeDeleted: false, limit: 25, page: 1, totalRecords: 230, totalPages: 10 });
 * const checked = codec.verify(token, '/api/public/clients/1/employees');
 * if (checked.ok) checked.payload.page; // 1
 */
export function createTokenCodec(options: TokenCodecOptions): TokenCodec {
  const { ttlSeconds, maxLength, skew } = checkedLimits(options);
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new WepqlError(`now must be a function returning epoch milliseconds, got ${String(now)}`, []);
  const ring = keyRingOf(options);
  const limits = { maxLength, ttlSeconds, skew };
  const tryIssue = (payload: DataTokenPayload): TokenIssue => issueToken(payload, ring, limits, now());
  return Object.freeze({
    maxLength,
    ttlSeconds,
    tryIssue,
    issue(payload: DataTokenPayload): string {
      const issued = tryIssue(payload);
      if (!issued.ok) throw new WepqlError(issued.message, []);
      return issued.token;
    },
    verify: (token: string, route: string): TokenVerification => verifyToken(token, route, ring, limits, now()),
  });
}

interface CodecLimits {
  readonly maxLength: number;
  readonly ttlSeconds: number;
  readonly skew: number;
}

/** The longest lifetime a codec accepts: 100 years, so an expiry stays a date and a whole millisecond count `verify` reads. */
const MAX_TTL_SECONDS = 100 * 365 * 24 * 60 * 60;

/**
 * The codec's limits, refused at creation when `verify` would refuse every
 * token issued under them: a lifetime under 1 ms expires at issue (the
 * token's times are whole milliseconds), one past `MAX_TTL_SECONDS` has an
 * expiry no date holds, a negative skew dates every fresh token in the
 * future, and a length that is not a positive whole number refuses every
 * token (or, `NaN`, none).
 */
function checkedLimits(options: TokenCodecOptions): CodecLimits {
  const ttlSeconds = options.ttlSeconds ?? 60;
  if (!(typeof ttlSeconds === 'number' && ttlSeconds >= 0.001 && ttlSeconds <= MAX_TTL_SECONDS)) {
    throw new WepqlError(
      `ttlSeconds must be a positive number of seconds from 0.001 (1 ms) to ${MAX_TTL_SECONDS} (100 years), got ${String(ttlSeconds)}`,
      [],
    );
  }
  const maxLength = options.maxLength ?? 8192;
  if (!(typeof maxLength === 'number' && Number.isSafeInteger(maxLength) && maxLength >= 1)) {
    throw new WepqlError(`maxLength must be a positive whole number of characters, got ${String(maxLength)}`, []);
  }
  const skew = options.clockSkewMs ?? 0;
  if (!(typeof skew === 'number' && Number.isSafeInteger(skew) && skew >= 0)) {
    throw new WepqlError(`clockSkewMs must be a whole number of milliseconds, 0 or more, got ${String(skew)}`, []);
  }
  return { ttlSeconds, maxLength, skew };
}

function keyRingOf(options: TokenCodecOptions): KeyRing {
  const keys: TokenKey[] = [];
  const names: string[] = [];
  if (options.secret !== undefined) {
    keys.push({ secret: options.secret });
    names.push('secret');
  }
  (options.previousSecrets ?? []).forEach((secret, i) => {
    keys.push({ secret, signsFrom: Infinity });
    names.push(`previousSecrets[${i}]`);
  });
  (options.keys ?? []).forEach((key, i) => {
    keys.push(key);
    names.push(`keys[${i}]`);
  });
  // `secret` signs from the beginning of time; a scheduled key outranks it once its time comes.
  return createKeyRing(keys, MAC_PREFIX, names);
}

function issueToken(payload: DataTokenPayload, ring: KeyRing, limits: CodecLimits, at: number): TokenIssue {
  const key = ring.signer(at);
  if (key === undefined) throw new WepqlError('no data token key signs at this time (every key is scheduled for later or retired)', []);
  const issuedAt = Math.floor(at);
  const parts: PayloadParts = {
    list: [payload.route, payload.filter, payload.sort],
    keys: payload.keys === undefined ? undefined : [payload.keys.first ?? null, payload.keys.last ?? null],
    state: [
      payload.includeDeleted ? 1 : 0,
      payload.limit,
      payload.page,
      payload.totalRecords,
      payload.totalPages,
      issuedAt,
      issuedAt + Math.round(limits.ttlSeconds * 1000),
    ],
    ...(payload.totalEstimated === true ? { estimated: true } : {}),
  };
  const encoded = encodePayload(parts, key.id);
  const payloadText = encodeBase64Url(encoded.bytes);
  const token = `${payloadText}.${encodeBase64Url(key.mac(encoder.encode(payloadText)))}`;
  const tooLarge = sizeRefusal(token.length, encoded.plainBytes, limits.maxLength);
  return tooLarge === undefined ? { ok: true, token } : { ok: false, reason: 'oversized', message: tooLarge };
}

/** The size checks of `verify`, which `tryIssue` runs on what it is about to issue. */
function sizeRefusal(tokenLength: number, plainBytes: number, maxLength: number): string | undefined {
  if (tokenLength > maxLength) return `the data token is ${tokenLength} characters long; at most ${maxLength} are accepted`;
  if (plainBytes > MAX_PAYLOAD_BYTES)
    return `the data token holds ${plainBytes} bytes of paging state; at most ${MAX_PAYLOAD_BYTES} are accepted`;
  return undefined;
}

function verifyToken(token: string, route: string, ring: KeyRing, limits: CodecLimits, at: number): TokenVerification {
  if (typeof token !== 'string') return refuse('malformed', 'the data token must be text');
  const long = sizeRefusal(token.length, 0, limits.maxLength);
  if (long !== undefined) return refuse('oversized', long);
  const dot = token.indexOf('.');
  const payloadText = token.slice(0, dot);
  const macText = token.slice(dot + 1);
  const bytes = dot <= 0 || macText.length !== MAC_TEXT_LENGTH || !isBase64Url(macText) ? undefined : decodeBase64Url(payloadText);
  const keyId = bytes === undefined ? undefined : payloadKeyId(bytes);
  if (keyId === undefined) {
    return refuse('malformed', 'the data token is not in the form this server issues; send the DataToken of the last response unchanged');
  }
  if (!signedByRing(ring, keyId, at, payloadText, macText)) {
    return refuse(
      'bad-signature',
      'the data token was altered, was not issued by this server, or its key was retired; start again from page one',
    );
  }
  // Only now, with the MAC checked, is the payload read.
  const decoded = decodePayload(bytes!);
  if (decoded === undefined) return refuse('malformed', 'the data token does not hold a paging state this server understands');
  return checkState(decoded.parts, route, limits, at);
}

function signedByRing(ring: KeyRing, keyId: Uint8Array, at: number, payloadText: string, macText: string): boolean {
  const data = encoder.encode(payloadText);
  // Compared as text: the last base64url character has two spare bits, so
  // comparing decoded bytes would accept four spellings of one MAC.
  return ring.verifiers(keyId, at).some((key) => constantTimeEqual(macText, encodeBase64Url(key.mac(data))));
}

function checkState(parts: PayloadParts, route: string, limits: CodecLimits, at: number): TokenVerification {
  const [r, filter, sort] = parts.list;
  const [d, limit, page, totalRecords, totalPages, issuedAt, expiresAt] = parts.state;
  if (r !== route) return refuse('wrong-route', 'the data token belongs to another list; a token is only valid on the list that issued it');
  if (issuedAt > at + limits.skew) {
    return refuse('future', `the data token is dated ${iso(issuedAt)}, which is in the future; check the server clocks`);
  }
  if (at >= expiresAt) {
    return refuse('expired', `the data token expired at ${iso(expiresAt)} (tokens live ${limits.ttlSeconds} s); start again from page one`);
  }
  const [first, last] = parts.keys ?? [null, null];
  const keys = parts.keys === undefined ? {} : { keys: { ...(first === null ? {} : { first }), ...(last === null ? {} : { last }) } };
  return {
    ok: true,
    payload: {
      route: r,
      filter,
      sort,
      includeDeleted: d === 1,
      limit,
      page,
      totalRecords,
      totalPages,
      ...(parts.estimated === true ? { totalEstimated: true } : {}),
      issuedAt,
      expiresAt,
      ...keys,
    },
  };
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
