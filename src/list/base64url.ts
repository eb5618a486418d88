/**
 * Compact base64url (RFC 4648 §5, no padding) for data tokens. Written here
 * rather than with `Buffer` or `btoa` so the core runs unchanged in browsers
 * and never has to pass binary strings around.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP: Int16Array = (() => {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/**
 * True when `text` uses only the base64url alphabet and has a length an encoder can produce.
 *
 * @example
 * isBase64Url('aGk_'); // true
 * isBase64Url('aGk=');  // false (padding is not used)
 */
export function isBase64Url(text: string): boolean {
  if (text.length % 4 === 1) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || LOOKUP[c]! < 0) return false;
  }
  return true;
}

/**
 * Encodes bytes as base64url without padding.
 *
 * @example
 * encodeBase64Url(new TextEncoder().encode('hi?')); // 'aGk_'
 */
export function encodeBase64Url(bytes: Uint8Array): string {
  // Written as ASCII bytes and decoded once: concatenating strings character by character costs more.
  const out = new Uint8Array(Math.ceil((bytes.length * 4) / 3));
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = CODES[n >> 18]!;
    out[o++] = CODES[(n >> 12) & 63]!;
    out[o++] = CODES[(n >> 6) & 63]!;
    out[o++] = CODES[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = (bytes[i]! << 16) | (rest === 2 ? bytes[i + 1]! << 8 : 0);
    out[o++] = CODES[n >> 18]!;
    out[o++] = CODES[(n >> 12) & 63]!;
    if (rest === 2) out[o++] = CODES[(n >> 6) & 63]!;
  }
  return ascii.decode(out.subarray(0, o));
}

const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const ascii = new TextDecoder('latin1');

/**
 * Decodes unpadded base64url, or returns undefined for text outside the
 * alphabet or of an impossible length.
 *
 * @example
 * new TextDecoder().decode(decodeBase64Url('aGk_')); // 'hi?'
 */
export function decodeBase64Url(text: string): Uint8Array | undefined {
  if (!isBase64Url(text)) return undefined;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let o = 0;
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    buffer = ((buffer << 6) | LOOKUP[text.charCodeAt(i)]!) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (buffer >> bits) & 0xff;
    }
  }
  return out;
}
