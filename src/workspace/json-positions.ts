/**
 * The one reader of JSON where positions matter: saved-filter files, the
 * config file and the language server's schema files are read into
 * `jsonc-parser`'s syntax tree, whose every node carries its offset and
 * length (plain JSON by a quicker reader of the same tree,
 * strict-json-tree.ts; anything else by `jsonc-parser` itself). Values are
 * built from the same tree, so a value and its position never come from two
 * readings of the text.
 */
import { parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { readStrictJsonTree } from './strict-json-tree.js';

export type { Node as JsonNode } from 'jsonc-parser';

/**
 * How strictly a JSON text is read: `json` is plain JSON (saved filters,
 * schemas); `jsonc` also allows comments and trailing commas (the config file,
 * as editors read `tsconfig.json`).
 *
 * @example
 * const dialect: JsonDialect = 'jsonc';
 */
export type JsonDialect = 'json' | 'jsonc';

/**
 * A JSON text read into a tree, or the first syntax error with its position.
 *
 * @example
 * const read: JsonRead = readJsonTree('[1,', 'json'); // { problem: 'syntax', error: 'ValueExpected', offset: 3 }
 */
export type JsonRead = { readonly tree: JsonNode; readonly problem?: undefined } | JsonProblem;

/**
 * Why a JSON text gave no tree, and where.
 *
 * @example
 * const p: JsonProblem = { problem: 'syntax', error: 'CommaExpected', offset: 9 };
 */
export interface JsonProblem {
  readonly tree?: undefined;
  /** A syntax error (`error` says which and where), no value at all, or nesting deeper than the parser reads. */
  readonly problem: 'syntax' | 'empty' | 'too-deep';
  /** What is wrong: `jsonc-parser`'s name of a syntax error (`ValueExpected`), else the problem in words. */
  readonly error: string;
  /** Where, in `text`. */
  readonly offset: number;
}

/**
 * Reads a JSON text into `jsonc-parser`'s tree (offsets count from the
 * start of `text`). Nesting too deep for the parser's recursion is a
 * problem reported like a syntax error, not a thrown `RangeError`.
 *
 * @example
 * readJsonTree('{"filter": "A.Equal(1)"}', 'json').tree?.type; // 'object'
 */
export function readJsonTree(text: string, dialect: JsonDialect): JsonRead {
  // Plain JSON is read quickly into the same tree (and is the same in either dialect); anything else by jsonc-parser.
  const strict = readStrictJsonTree(text);
  if (strict !== undefined) return { tree: strict };
  const errors: ParseError[] = [];
  let tree: JsonNode | undefined;
  try {
    tree = parseTree(text, errors, {
      allowTrailingComma: dialect === 'jsonc',
      disallowComments: dialect === 'json',
      allowEmptyContent: false,
    });
  } catch (e) {
    if (e instanceof RangeError) return { problem: 'too-deep', error: 'nests too deeply to read', offset: 0 };
    throw e;
  }
  const first = errors[0];
  if (first !== undefined) return { problem: 'syntax', error: printParseErrorCode(first.error), offset: first.offset };
  if (tree === undefined) return { problem: 'empty', error: 'empty', offset: 0 };
  return { tree };
}

/**
 * The tree of as much of a JSON text as reads: `jsonc-parser` keeps going
 * after a syntax error, so a file being edited still yields the members
 * before (and often after) the problem. Undefined for nothing readable or
 * nesting too deep.
 *
 * @example
 * readJsonTreeTolerantly('{"fields": {"A": {}, ')?.type; // 'object'
 */
export function readJsonTreeTolerantly(text: string): JsonNode | undefined {
  try {
    return parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

/**
 * The plain value of a tree node. Objects have no prototype, so a
 * `__proto__` key is only a key; a key written twice keeps its last value,
 * as `JSON.parse` does.
 *
 * @example
 * jsonValue(readJsonTree('{"a": [1]}', 'json').tree!); // { a: [1] }
 */
export function jsonValue(node: JsonNode): unknown {
  switch (node.type) {
    case 'object': {
      const out = Object.create(null) as Record<string, unknown>;
      for (const [key, value] of jsonMembers(node)) out[key] = jsonValue(value);
      return out;
    }
    case 'array':
      return (node.children ?? []).map(jsonValue);
    default:
      return node.value;
  }
}

/**
 * The members of an object node as `[key, value node, key node]`, in the
 * order written; none for any other node.
 *
 * @example
 * [...jsonMembers(tree)].map(([key]) => key); // ['filter', 'name']
 */
export function* jsonMembers(node: JsonNode): Generator<readonly [string, JsonNode, JsonNode]> {
  if (node.type !== 'object') return;
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    if (key !== undefined && value !== undefined && typeof key.value === 'string') yield [key.value, value, key];
  }
}

/**
 * The value node of an object's member `key` (the last one when the key is
 * written twice, whose value `jsonValue` keeps), or undefined.
 *
 * @example
 * jsonMember(tree, 'filter')?.offset; // where the filter's string literal starts
 */
export function jsonMember(node: JsonNode, key: string): JsonNode | undefined {
  if (node.type !== 'object' || node.children === undefined) return undefined;
  // The members as `jsonMembers` reads them, without its tuples: a saved-filter file asks each of its objects for four members.
  const properties = node.children;
  for (let i = properties.length - 1; i >= 0; i--) {
    const pair = properties[i]!.children;
    if (pair === undefined || pair.length < 2) continue;
    const k = pair[0]!;
    if (k.value === key) return pair[1];
  }
  return undefined;
}
