/**
 * The quick reader of strict JSON (src/workspace/strict-json-tree.ts) makes
 * the tree `jsonc-parser` makes, node for node (type, offset, length, value,
 * colonOffset, children, and each node's parent), on every text it reads;
 * it reads every text `JSON.stringify` writes, at any indentation; and it
 * leaves to `jsonc-parser` every text that reader finds an error in.
 */
import fc from 'fast-check';
import { parseTree, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { readJsonTree } from '../../src/workspace/json-positions.js';
import { readStrictJsonTree } from '../../src/workspace/strict-json-tree.js';

/** A node as plain data, its parent checked on the way (parseTree's root has no `parent` key). */
function plain(node: JsonNode, parent: JsonNode | undefined): unknown {
  if (parent === undefined) expect('parent' in node).toBe(false);
  else expect(node.parent).toBe(parent);
  return {
    type: node.type,
    offset: node.offset,
    length: node.length,
    ...('value' in node ? { value: node.value } : {}),
    ...(node.colonOffset === undefined ? {} : { colonOffset: node.colonOffset }),
    ...(node.children === undefined ? {} : { children: node.children.map((child) => plain(child, node)) }),
  };
}

function jsoncTree(text: string): { tree: JsonNode | undefined; errors: ParseError[] } {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
  return { tree, errors };
}

/** Holds the quick reader to jsonc-parser on one text; returns whether it read it. */
function agrees(text: string): boolean {
  const quick = readStrictJsonTree(text);
  const { tree, errors } = jsoncTree(text);
  if (quick === undefined) return false;
  expect(errors, text).toEqual([]);
  expect(plain(quick, undefined), text).toEqual(plain(tree!, undefined));
  return true;
}

// Strings of the characters that matter to a JSON reader, escapes and surrogates included.
const jsonish = fc.string({
  unit: fc.constantFrom(
    ...'{}[]:,"\\ \t\r\n/ubfnrt0123456789-+.eE_$aA',
    'true',
    'false',
    'null',
    '\u2028',
    '\ud800',
    '\u00a0',
    '\ufeff',
    '\u0000',
    '\u0001',
    '\u001f',
    '\u007f',
  ),
  maxLength: 40,
});

describe('the quick reader of strict JSON', () => {
  it('reads every text JSON.stringify writes, at any indentation, into the tree jsonc-parser makes', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(undefined, 0, 1, 2, '\t', '\r\n '), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(agrees(text), text).toBe(true);
        expect(agrees(`\n ${text}\t\r\n`), text).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads strings of any UTF-16 units, escaped or not, as jsonc-parser does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), fc.boolean(), (s, asciiOnly) => {
        let text = JSON.stringify({ [s]: s });
        // Every unit above ASCII written as \uXXXX too, in either case.
        if (asciiOnly) text = text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        expect(agrees(text), text).toBe(true);
        expect(agrees(text.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`)), text).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('on any text, reads the same tree as jsonc-parser or leaves the text to it, and never throws', () => {
    fc.assert(
      fc.property(jsonish, (text) => {
        agrees(text);
      }),
      { numRuns: 20_000 },
    );
  });

  it('leaves to jsonc-parser what is not strict JSON, and readJsonTree reports its error', () => {
    for (const text of [
      '',
      ' ',
      '{"a": 1,}',
      '[1,]',
      '// c\n1',
      '01',
      '1.',
      '-',
      '.5',
      '1e',
      '"\\x"',
      '"\\u12"',
      '"a\nb"',
      '\ufeff1',
      'tru',
      'nul',
      '[1 2]',
      '{"a" 1}',
      '{a: 1}',
      '1 2',
      '\u00a0 1',
    ]) {
      expect(readStrictJsonTree(text), JSON.stringify(text)).toBeUndefined();
    }
    expect(readJsonTree('{"a": 1,}', 'json')).toEqual({ problem: 'syntax', error: 'PropertyNameExpected', offset: 8 });
    expect(readJsonTree('{"a": 1,}', 'jsonc').tree?.type).toBe('object');
    expect(readJsonTree('', 'json')).toEqual({ problem: 'syntax', error: 'ValueExpected', offset: 0 });
  });

  it('leaves nesting deeper than it reads to jsonc-parser, whose tree readJsonTree returns', () => {
    const deep = `${'['.repeat(300)}1${']'.repeat(300)}`;
    expect(readStrictJsonTree(deep)).toBeUndefined();
    expect(readJsonTree(deep, 'json').tree?.type).toBe('array');
    const shallow = `${'['.repeat(256)}1${']'.repeat(256)}`;
    expect(agrees(shallow)).toBe(true);
  });
});
