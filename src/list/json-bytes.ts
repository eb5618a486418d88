/**
 * A response body as UTF-8 bytes: what `new TextEncoder().encode(JSON.stringify(body))` gives, written
 * without one string of the whole body. A page's JSON as one string costs little to build but much
 * to encode: one character outside Latin-1 in any record (a name in another script) makes the whole
 * string two-byte, and V8 encodes a two-byte string to UTF-8 (and measures its UTF-8 length) several
 * times slower than a one-byte one; measured on a page of 100 seeded employees, 17 of them two-byte,
 * 2.8 ms against 0.4 ms for the same page encoded record by record. So the envelope and its arrays are
 * walked here, and each record is stringified and encoded on its own: only the records that need it
 * are two-byte.
 */

/** How deep the walk goes: the envelope (0), its `Data` array (1), a record (2, stringified whole). */
const LEAF_DEPTH = 2;
const encoder = new TextEncoder();

/**
 * The size the last body came to (at most `MAX_HINT`): the next one starts with room for about as
 * much, so a server answering pages of one size allocates each body once instead of growing it.
 */
let sizeHint = 0;
const MIN_SIZE = 16 * 1024;
const MAX_HINT = 4 * 1024 * 1024;

/** A growing byte buffer that strings are encoded into. */
class Utf8Writer {
  private bytes = new Uint8Array(Math.max(MIN_SIZE, sizeHint + (sizeHint >> 3)));
  private length = 0;

  write(text: string): void {
    // Three bytes per UTF-16 unit is UTF-8's worst case (a surrogate pair is four bytes for two units).
    const room = text.length * 3;
    if (this.bytes.length - this.length < room) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + room));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.length += encoder.encodeInto(text, this.bytes.subarray(this.length)).written;
  }

  result(): Uint8Array<ArrayBuffer> {
    sizeHint = Math.min(this.length, MAX_HINT);
    return this.bytes.subarray(0, this.length);
  }
}

/**
 * `value` as `JSON.stringify` writes it, in UTF-8: byte for byte
 * `new TextEncoder().encode(JSON.stringify(value))` (no bytes when
 * `JSON.stringify` writes nothing, as for `undefined`). Fast for a list
 * envelope: plain objects and arrays down to the records are walked, each
 * record is stringified on its own. A value along the way that
 * `JSON.stringify` treats specially (a `toJSON` method, a boxed primitive, a
 * class instance) sends the whole value through `JSON.stringify` instead.
 *
 * @example
 * new TextDecoder().decode(jsonBytes({ Data: [{ Id: 1, LastName: 'Ngô' }], Status: 1 })); // '{"Data":[{"Id":1,"LastName":"Ngô"}],"Status":1}'
 */
export function jsonBytes(value: unknown): Uint8Array<ArrayBuffer> {
  const out = new Utf8Writer();
  return writeValue(out, value, 0) === SPECIAL ? encoder.encode(JSON.stringify(value)) : out.result();
}

/** What writing a value did: wrote it, left it out (as `JSON.stringify` leaves undefined out of an object), or met a special value. */
const WRITTEN = 0;
const OMITTED = 1;
const SPECIAL = 2;
type Written = typeof WRITTEN | typeof OMITTED | typeof SPECIAL;

/**
 * Writes `value` at `depth`. Special, and the caller starts again with `JSON.stringify`: an object with a
 * `toJSON` (its answer may depend on its key, which a record stringified on its own would not be given),
 * and above the records an object that is neither an array nor one of `Object.prototype` or none.
 */
function writeValue(out: Utf8Writer, value: unknown, depth: number): Written {
  if (typeof value !== 'object' || value === null) {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return OMITTED;
    out.write(text);
    return WRITTEN;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return SPECIAL;
  if (depth === LEAF_DEPTH) {
    out.write(JSON.stringify(value));
    return WRITTEN;
  }
  if (Array.isArray(value)) {
    out.write('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.write(',');
      const written = writeValue(out, value[i], depth + 1);
      if (written === SPECIAL) return SPECIAL;
      // In an array, what an object would leave out (undefined, a function, a symbol) is null.
      if (written === OMITTED) out.write('null');
    }
    out.write(']');
    return WRITTEN;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return SPECIAL;
  out.write('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    const name = first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`;
    if (typeof member !== 'object' || member === null) {
      const text = JSON.stringify(member) as string | undefined;
      // An omitted member (undefined, a function, a symbol) writes nothing, not even its key.
      if (text === undefined) continue;
      out.write(name + text);
    } else {
      out.write(name);
      if (writeValue(out, member, depth + 1) === SPECIAL) return SPECIAL;
    }
    first = false;
  }
  out.write('}');
  return WRITTEN;
}
