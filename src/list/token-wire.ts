/**
 * The byte layout of a data token's payload, apart from signing (`token.ts`).
 *
 * A payload is a 6-byte header — format version, flags, and the 4-byte id
 * of the key that signs it — and three parts:
 *
 * - the *list* part, JSON `[route, filter, sort]`, identical on every page
 *   of one walk (so a walk's tokens differ only in the parts below);
 * - the *keys* part, JSON `[first, last]` seek keys (either may be null),
 *   empty when the token carries none;
 * - the *state* part, JSON `[includeDeleted, limit, page, totalRecords,
 *   totalPages, issuedAt, expiresAt]`, always plain, so a token's length
 *   grows with the digits of its page number and nothing else.
 *
 * A flag bit marks a walk whose `totalRecords` is an estimate (the server's
 * count strategy), so every page of that walk says so.
 *
 * The list and keys parts are stored deflate-raw compressed (`fflate`,
 * synchronous, in Node and browsers) only when they are long enough for that
 * to pay: below `COMPRESS_FROM` bytes plain JSON is shorter to produce and to
 * read, and a usual token costs no compression at all.
 */
import { deflateSync, inflateSync } from 'fflate';
import type { SeekKey } from '../sql/seek.js';

/**
 * Version byte of this layout.
 *
 * @example
 * encodePayload(parts, keyId).bytes[0] === FORMAT; // true
 */
export const FORMAT = 2;
/**
 * Header bytes before the parts: version, flags, key id.
 *
 * @example
 * bytes.subarray(2, HEADER_BYTES); // the key id
 */
export const HEADER_BYTES = 6;
/**
 * Largest payload a verifier reads, counted as plain (inflated) bytes of all
 * parts: a signed payload is ours, but its size is still bounded before it is read.
 *
 * @example
 * decodePayload(bytes)!.plainBytes <= MAX_PAYLOAD_BYTES; // true
 */
export const MAX_PAYLOAD_BYTES = 1 << 16;

const FLAG_LIST_DEFLATED = 1;
const FLAG_KEYS_DEFLATED = 2;
const FLAG_TOTAL_ESTIMATED = 4;
const KNOWN_FLAGS = FLAG_LIST_DEFLATED | FLAG_KEYS_DEFLATED | FLAG_TOTAL_ESTIMATED;
// Below this a part is stored plain: compressing a short text costs more than it saves.
const COMPRESS_FROM = 512;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The decoded content of a payload, in the order the token stores it.
 *
 * @example
 * const parts: PayloadParts = { list: ['/r', '', ''], keys: [null, ['Smith', 7]], state: [0, 25, 2, 230, 10, 1, 2] };
 */
export interface PayloadParts {
  readonly list: readonly [route: string, filter: string, sort: string];
  readonly keys: readonly [first: SeekKey | null, last: SeekKey | null] | undefined;
  readonly state: readonly [deleted: 0 | 1, limit: number, page: number, records: number, pages: number, issued: number, expires: number];
  /** Whether `records` (and so `pages`) is an estimate rather than an exact count; absent: exact. */
  readonly estimated?: boolean;
}

/**
 * An encoded payload and its plain size (the size a verifier inflates to).
 *
 * @example
 * const { bytes, plainBytes } = encodePayload(parts, keyId);
 */
export interface EncodedPayload {
  readonly bytes: Uint8Array;
  readonly plainBytes: number;
}

/**
 * Lays out a payload for the key `keyId` (4 bytes).
 *
 * @example
 * encodePayload({ list: ['/r', '', ''], keys: undefined, state: [0, 25, 1, 0, 0, 1, 2] }, new Uint8Array(4)).bytes[0]; // 2
 */
export function encodePayload(parts: PayloadParts, keyId: Uint8Array): EncodedPayload {
  const list = pack(encoder.encode(JSON.stringify(parts.list)));
  const keys =
    parts.keys === undefined ? { bytes: new Uint8Array(0), deflated: false, plain: 0 } : pack(encoder.encode(JSON.stringify(parts.keys)));
  const state = encoder.encode(JSON.stringify(parts.state));
  const out = new Uint8Array(HEADER_BYTES + 4 + list.bytes.length + 4 + keys.bytes.length + state.length);
  out[0] = FORMAT;
  out[1] =
    (list.deflated ? FLAG_LIST_DEFLATED : 0) |
    (keys.deflated ? FLAG_KEYS_DEFLATED : 0) |
    (parts.estimated === true ? FLAG_TOTAL_ESTIMATED : 0);
  out.set(keyId, 2);
  const view = new DataView(out.buffer);
  let at = HEADER_BYTES;
  view.setUint32(at, list.bytes.length);
  out.set(list.bytes, (at += 4));
  view.setUint32((at += list.bytes.length), keys.bytes.length);
  out.set(keys.bytes, (at += 4));
  out.set(state, at + keys.bytes.length);
  return { bytes: out, plainBytes: HEADER_BYTES + 8 + list.plain + keys.plain + state.length };
}

/**
 * The key id of a payload, read before the signature is checked (it only
 * chooses the key); undefined when the bytes are not this layout.
 *
 * @example
 * payloadKeyId(encodePayload(parts, new Uint8Array([1, 2, 3, 4])).bytes); // Uint8Array [1, 2, 3, 4]
 */
export function payloadKeyId(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length < HEADER_BYTES + 8 || bytes[0] !== FORMAT) return undefined;
  return bytes.subarray(2, HEADER_BYTES);
}

/**
 * Reads a (signed) payload: the parts and their plain size, or undefined
 * when it is corrupt, not this layout, or inflates past `MAX_PAYLOAD_BYTES`.
 *
 * @example
 * decodePayload(encodePayload(parts, keyId).bytes)?.parts.state[2]; // the page number
 */
export function decodePayload(bytes: Uint8Array): { parts: PayloadParts; plainBytes: number } | undefined {
  if (payloadKeyId(bytes) === undefined || (bytes[1]! & ~KNOWN_FLAGS) !== 0) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const listLength = view.getUint32(HEADER_BYTES);
  const keysAt = HEADER_BYTES + 4 + listLength;
  if (keysAt + 4 > bytes.length) return undefined;
  const keysLength = view.getUint32(keysAt);
  const stateAt = keysAt + 4 + keysLength;
  if (stateAt > bytes.length) return undefined;
  let budget = MAX_PAYLOAD_BYTES - HEADER_BYTES - 8 - (bytes.length - stateAt);
  const list = unpack(bytes.subarray(HEADER_BYTES + 4, keysAt), (bytes[1]! & FLAG_LIST_DEFLATED) !== 0, budget);
  if (list === undefined) return undefined;
  budget -= list.length;
  const keys = keysLength === 0 ? undefined : unpack(bytes.subarray(keysAt + 4, stateAt), (bytes[1]! & FLAG_KEYS_DEFLATED) !== 0, budget);
  if (keysLength !== 0 && keys === undefined) return undefined;
  const plainBytes = HEADER_BYTES + 8 + list.length + (keys?.length ?? 0) + (bytes.length - stateAt);
  try {
    const parts = {
      list: JSON.parse(decoder.decode(list)),
      keys: keys === undefined ? undefined : JSON.parse(decoder.decode(keys)),
      state: JSON.parse(decoder.decode(bytes.subarray(stateAt))),
      ...((bytes[1]! & FLAG_TOTAL_ESTIMATED) !== 0 ? { estimated: true } : {}),
    };
    return isParts(parts) ? { parts, plainBytes } : undefined;
  } catch {
    return undefined;
  }
}

/** A part, compressed when that pays. */
function pack(plain: Uint8Array): { bytes: Uint8Array; deflated: boolean; plain: number } {
  if (plain.length >= COMPRESS_FROM) {
    const deflated = deflateSync(plain);
    if (deflated.length < plain.length) return { bytes: deflated, deflated: true, plain: plain.length };
  }
  return { bytes: plain, deflated: false, plain: plain.length };
}

/** A part as plain bytes, or undefined when corrupt or larger than `limit`. */
function unpack(bytes: Uint8Array, deflated: boolean, limit: number): Uint8Array | undefined {
  if (!deflated) return bytes.length <= limit ? bytes : undefined;
  if (limit <= 0) return undefined;
  try {
    // One byte more than allowed is enough to know the part is too large.
    const out = inflateSync(bytes, { out: new Uint8Array(limit + 1) });
    return out.length <= limit ? out : undefined;
  } catch {
    return undefined;
  }
}

function isParts(p: { list: unknown; keys: unknown; state: unknown }): p is PayloadParts {
  const { list, keys, state } = p;
  if (!(Array.isArray(list) && list.length === 3 && list.every((x) => typeof x === 'string'))) return false;
  const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
  if (!(Array.isArray(state) && state.length === 7 && state.every(isCount))) return false;
  if (state[0] > 1 || state[1] < 1 || state[2] < 1) return false;
  if (keys === undefined) return true;
  return (
    Array.isArray(keys) && keys.length === 2 && keys.every((k) => k === null || isSeekKey(k)) && (keys[0] !== null || keys[1] !== null)
  );
}

function isSeekKey(x: unknown): x is SeekKey {
  return (
    Array.isArray(x) &&
    x.every((v) => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))
  );
}
