/**
 * The key ring of data tokens: which secret signs now, which still verify.
 *
 * Every key has a 4-byte id derived from its secret (the first bytes of a
 * SHA-256 of it), written into each token it signs: server processes that
 * share secrets agree on the ids without configuring them, and a verifier
 * computes one HMAC — with the key the token names — instead of trying all.
 * HMAC-SHA256 is synchronous everywhere, so a request never waits on
 * WebCrypto's promises: Node's own (`node:crypto`, reached through
 * `process.getBuiltinModule` where the runtime has it, Node 20.16 and
 * later, so the core still imports no Node built-in and runs unchanged in
 * browsers), else `@noble/hashes`, which computes the same bytes in plain
 * JavaScript at about half the speed.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { WepqlError } from '../diagnostics/error.js';

/**
 * A secret: text (UTF-8 encoded) or raw bytes; at least 16 bytes.
 *
 * @example
 * const secret: TokenSecret = crypto.getRandomValues(new Uint8Array(32)); // or a 16+ byte string
 */
export type TokenSecret = string | Uint8Array;

/**
 * One key of a rotation schedule.
 *
 * @example
 * const next: TokenKey = { secret: process.env.NEXT_LIST_SECRET!, signsFrom: Date.parse('2026-12-01T00:00:00Z') };
 */
export interface TokenKey {
  readonly secret: TokenSecret;
  /**
   * Epoch milliseconds from which this key signs new tokens (default: always).
   * Of the keys whose time has come, the one with the latest `signsFrom`
   * signs (the first listed on a tie); the others only verify. Giving every
   * server process the same schedule switches them all at one instant.
   */
  readonly signsFrom?: number;
  /** Epoch milliseconds after which tokens signed with this key are refused (default: never). */
  readonly verifiesUntil?: number;
}

/**
 * A key ready for use.
 *
 * @example
 * ring.signer(Date.now()).id; // the 4-byte id written into tokens
 */
export interface RingKey {
  readonly id: Uint8Array;
  readonly signsFrom: number;
  readonly verifiesUntil: number;
  /** HMAC-SHA256 of `prefix + data` under this key. */
  mac(data: Uint8Array): Uint8Array;
}

/**
 * The keys of a codec.
 *
 * @example
 * const ring = createKeyRing([{ secret: 'a long random server secret' }], 'wepql-data-token-v2.');
 */
export interface KeyRing {
  /** The key that signs at `now`; undefined when none may. */
  signer(now: number): RingKey | undefined;
  /** The keys with id `id` that still verify at `now`. */
  verifiers(id: Uint8Array, now: number): readonly RingKey[];
}

const MIN_SECRET_BYTES = 16;
const encoder = new TextEncoder();

/**
 * Builds a key ring; `names[i]` names `keys[i]` in error messages. Throws
 * `WepqlError` for a short or mistyped secret or a non-numeric time.
 *
 * @example
 * createKeyRing([{ secret: 'new secret, 16+ bytes' }, { secret: 'old secret, 16+ bytes', signsFrom: Infinity }], 'p.', ['secret', 'old']);
 */
export function createKeyRing(keys: readonly TokenKey[], prefix: string, names?: readonly string[]): KeyRing {
  if (keys.length === 0) throw new WepqlError('data tokens need at least one secret', []);
  const prefixBytes = encoder.encode(prefix);
  const ring = keys.map((key, i) => ringKey(key, names?.[i] ?? `keys[${i}]`, prefixBytes));
  return {
    signer(now) {
      let best: RingKey | undefined;
      for (const key of ring) {
        if (key.signsFrom > now || key.verifiesUntil <= now) continue;
        if (best === undefined || key.signsFrom > best.signsFrom) best = key;
      }
      return best;
    },
    verifiers(id, now) {
      return ring.filter((key) => key.verifiesUntil > now && sameBytes(key.id, id));
    },
  };
}

function ringKey(key: TokenKey, name: string, prefix: Uint8Array): RingKey {
  const bytes = secretBytes(key?.secret, name);
  const signsFrom = time(key.signsFrom, -Infinity, `${name}.signsFrom`);
  const verifiesUntil = time(key.verifiesUntil, Infinity, `${name}.verifiesUntil`);
  const id = sha256(concat(encoder.encode('wepql-data-token-key-id.'), bytes)).slice(0, 4);
  return { id, signsFrom, verifiesUntil, mac: macFunction(bytes, prefix) };
}

/** The `createHmac` of `node:crypto` when the runtime offers Node built-ins without an import. */
interface NodeHmacState {
  update(data: Uint8Array): NodeHmacState;
  digest(): Uint8Array;
}
type NodeHmac = (algorithm: 'sha256', key: Uint8Array) => NodeHmacState;
const nodeHmac: NodeHmac | undefined = (() => {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (typeof get !== 'function') return undefined;
  try {
    const crypto = get('node:crypto') as { createHmac?: NodeHmac } | undefined;
    return typeof crypto?.createHmac === 'function' ? crypto.createHmac : undefined;
  } catch {
    return undefined;
  }
})();

function macFunction(key: Uint8Array, prefix: Uint8Array): (data: Uint8Array) => Uint8Array {
  if (nodeHmac !== undefined) {
    const createHmac = nodeHmac;
    return (data) => new Uint8Array(createHmac('sha256', key).update(prefix).update(data).digest());
  }
  // Keyed once: each token then costs the hash of its own bytes only.
  const keyed = hmac.create(sha256, key).update(prefix);
  return (data) => keyed.clone().update(data).digest();
}

function time(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value))
    throw new WepqlError(`${name} must be epoch milliseconds, got ${String(value)}`, []);
  return value;
}

function secretBytes(secret: TokenSecret | undefined, name: string): Uint8Array {
  const bytes = typeof secret === 'string' ? encoder.encode(secret) : secret instanceof Uint8Array ? secret : undefined;
  if (bytes === undefined) throw new WepqlError(`${name} must be a string or a Uint8Array`, []);
  if (bytes.length < MIN_SECRET_BYTES) {
    throw new WepqlError(`${name} is ${bytes.length} bytes long; a data token secret needs at least ${MIN_SECRET_BYTES}`, []);
  }
  // A copy: a caller reusing its buffer must not change the key later.
  return new Uint8Array(bytes);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
