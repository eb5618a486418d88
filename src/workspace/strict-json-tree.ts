/**
 * A quick reading of strict JSON into `jsonc-parser`'s syntax tree, for
 * `readJsonTree` (json-positions.ts): `jsonc-parser` reads through a scanner
 * and a visitor with a callback per token, and was 7% of a cold 1,000-file
 * `wepql lint` (30 of 440 ms). This reads the text once into nodes of the
 * same shape (type, offset, length, value, children, parent, colonOffset),
 * in 10–14 ms there.
 *
 * It reads only what it is sure of: plain JSON, with whitespace of space,
 * tab, CR and LF, no comment, no trailing comma, nesting to `MAX_DEPTH`.
 * Anything else, an error included, returns undefined, and the caller reads
 * the text with `jsonc-parser`, which stays the definition (with its error
 * names and positions). test/property/strict-json-tree.test.ts holds the
 * two to the same tree on every text this one reads, and holds this one to
 * reading every text `JSON.stringify` writes.
 */
import type { Node as JsonNode } from 'jsonc-parser';

/** A node while it is read: its length (and a property's colon) are known once its end is. */
type NodeBeingRead = { -readonly [K in keyof JsonNode]: JsonNode[K] };

/** Nesting beyond this is left to `jsonc-parser` (which reports too deep a text as its reader does). */
const MAX_DEPTH = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/** What an escape after a backslash stands for (`\u` is read apart). */
const ESCAPED: Readonly<Record<number, string>> = {
  [QUOTE]: '"',
  [BACKSLASH]: '\\',
  [0x2f]: '/',
  [0x62]: '\b',
  [0x66]: '\f',
  [0x6e]: '\n',
  [0x72]: '\r',
  [0x74]: '\t',
};

// The runs a reading skips over, matched natively: a saved-filter file is mostly indentation and string text, which
// a loop by character code runs through in V8's interpreter for most of a cold run.
const SPACE_RUN = /[ \t\r\n]*/y;
const PLAIN_STRING_RUN = /[^"\\\u0000-\u001f]*/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/** Thrown inside the reading when the text is not one this module is sure of; never leaves it. */
class NotStrict {}
const NOT_STRICT = new NotStrict();

/**
 * The tree `jsonc-parser`'s `parseTree` makes of `text` when `text` is
 * strict JSON this module reads; undefined otherwise (read it with
 * `jsonc-parser`).
 *
 * @example
 * readStrictJsonTree('{"filter": "A.Equal(1)"}')?.children?.[0]?.colonOffset; // 9
 * readStrictJsonTree('{"a": 1,}'); // undefined: a trailing comma is jsonc-parser's to read
 */
export function readStrictJsonTree(text: string): JsonNode | undefined {
  const reader = new StrictReader(text);
  try {
    reader.skipSpace();
    const root = reader.value(undefined, 0);
    reader.skipSpace();
    if (reader.at !== text.length) return undefined;
    // parseTree's root has no `parent` key at all.
    delete (root as { parent?: JsonNode }).parent;
    return root;
  } catch (e) {
    if (e === NOT_STRICT) return undefined;
    throw e;
  }
}

class StrictReader {
  at = 0;
  constructor(private readonly text: string) {}

  skipSpace(): void {
    SPACE_RUN.lastIndex = this.at;
    // A run may be empty, so the match fails only past the end (where lastIndex would start again at 0).
    if (!SPACE_RUN.test(this.text)) throw NOT_STRICT;
    this.at = SPACE_RUN.lastIndex;
  }

  value(parent: JsonNode | undefined, depth: number): JsonNode {
    const c = this.text.charCodeAt(this.at);
    if (c === QUOTE) return this.string(parent);
    if (c === OPEN_BRACE) return this.container('object', parent, depth + 1);
    if (c === OPEN_BRACKET) return this.container('array', parent, depth + 1);
    if (c === MINUS || (c >= ZERO && c <= NINE)) return this.number(parent);
    return this.word(parent);
  }

  /** An object or an array: its members (or items) between the brackets, separated by commas. */
  container(type: 'object' | 'array', parent: JsonNode | undefined, depth: number): JsonNode {
    if (depth > MAX_DEPTH) throw NOT_STRICT;
    const { text } = this;
    const close = type === 'object' ? CLOSE_BRACE : CLOSE_BRACKET;
    const node: NodeBeingRead = { type, offset: this.at, length: -1, parent, children: [] };
    const children = node.children!;
    this.at++;
    this.skipSpace();
    if (text.charCodeAt(this.at) !== close) {
      for (;;) {
        children.push(type === 'object' ? this.property(node, depth) : this.value(node, depth));
        this.skipSpace();
        const next = text.charCodeAt(this.at);
        if (next === close) break;
        if (next !== COMMA) throw NOT_STRICT;
        this.at++;
        this.skipSpace();
      }
    }
    this.at++;
    node.length = this.at - node.offset;
    return node;
  }

  /** One member of an object: a property node holding the key's string node and the value's node. */
  property(object: JsonNode, depth: number): JsonNode {
    const { text } = this;
    if (text.charCodeAt(this.at) !== QUOTE) throw NOT_STRICT;
    const property: NodeBeingRead = { type: 'property', offset: this.at, length: -1, parent: object, children: [] };
    property.children!.push(this.string(property));
    this.skipSpace();
    if (text.charCodeAt(this.at) !== COLON) throw NOT_STRICT;
    property.colonOffset = this.at;
    this.at++;
    this.skipSpace();
    const value = this.value(property, depth);
    property.children!.push(value);
    property.length = value.offset + value.length - property.offset;
    return property;
  }

  string(parent: JsonNode | undefined): JsonNode {
    const { text } = this;
    const offset = this.at;
    let at = offset + 1;
    let value = '';
    let from = at;
    for (;;) {
      PLAIN_STRING_RUN.lastIndex = at;
      if (!PLAIN_STRING_RUN.test(text)) throw NOT_STRICT;
      at = PLAIN_STRING_RUN.lastIndex;
      const c = text.charCodeAt(at);
      if (c === QUOTE) break;
      // The end of the text, or a control character: an error to jsonc-parser (a line break one that ends the string).
      if (c !== BACKSLASH) throw NOT_STRICT;
      value += text.slice(from, at);
      const e = text.charCodeAt(at + 1);
      const plain = ESCAPED[e];
      if (plain !== undefined) {
        value += plain;
        at += 2;
      } else if (e === 0x75 /* u */) {
        value += String.fromCharCode(hex4(text, at + 2));
        at += 6;
      } else throw NOT_STRICT;
      from = at;
    }
    value += text.slice(from, at);
    this.at = at + 1;
    return { type: 'string', offset, length: this.at - offset, parent, value };
  }

  number(parent: JsonNode | undefined): JsonNode {
    const { text } = this;
    const offset = this.at;
    let at = offset;
    if (text.charCodeAt(at) === MINUS) at++;
    const first = text.charCodeAt(at);
    if (first === ZERO) at++;
    else if (first > ZERO && first <= NINE) at = digits(text, at);
    else throw NOT_STRICT;
    if (text.charCodeAt(at) === DOT) {
      const end = digits(text, at + 1);
      if (end === at + 1) throw NOT_STRICT;
      at = end;
    }
    const e = text.charCodeAt(at);
    if (e === 0x65 || e === 0x45 /* e, E */) {
      at++;
      const sign = text.charCodeAt(at);
      if (sign === PLUS || sign === MINUS) at++;
      const end = digits(text, at);
      if (end === at) throw NOT_STRICT;
      at = end;
    }
    // A digit, letter, `_`, `$` or `.` straight after is jsonc-parser's to report.
    if (isWordCharacter(text.charCodeAt(at))) throw NOT_STRICT;
    this.at = at;
    return { type: 'number', offset, length: at - offset, parent, value: Number(text.slice(offset, at)) };
  }

  word(parent: JsonNode | undefined): JsonNode {
    const { text } = this;
    const offset = this.at;
    let end = offset;
    while (isWordCharacter(text.charCodeAt(end))) end++;
    const word = text.slice(offset, end);
    if (word !== 'true' && word !== 'false' && word !== 'null') throw NOT_STRICT;
    this.at = end;
    const length = end - offset;
    return word === 'null'
      ? { type: 'null', offset, length, parent, value: null }
      : { type: 'boolean', offset, length, parent, value: word === 'true' };
  }
}

function digits(text: string, from: number): number {
  let at = from;
  for (let c = text.charCodeAt(at); c >= ZERO && c <= NINE; c = text.charCodeAt(++at));
  return at;
}

function isWordCharacter(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x24 || c === DOT;
}

/** The four hexadecimal digits at `at`, as a code unit. */
function hex4(text: string, at: number): number {
  HEX4.lastIndex = at;
  if (!HEX4.test(text)) throw NOT_STRICT;
  return Number.parseInt(text.slice(at, at + 4), 16);
}
