/**
 * The one reader of YAML where positions matter: the `yaml` package's
 * documents, whose nodes carry their source ranges, with a `LineCounter`
 * filled while parsing for lines and columns. The package is passed in, not
 * imported, because it loads on demand (see `loadYaml` in saved-filters.ts).
 */
import type { Document, LineCounter, Node as YamlNode } from 'yaml';

type YamlModule = typeof import('yaml');

/**
 * The documents of a YAML text and the line starts met while reading it.
 *
 * @example
 * const read: YamlRead = readYamlDocuments(await import('yaml'), 'filter: A.Equal(1)\n');
 */
export interface YamlRead {
  readonly documents: readonly Document.Parsed[];
  /** Filled by the parser: `lines.linePos(offset)` is an offset's 1-based line and column. */
  readonly lines: LineCounter;
}

/**
 * Reads every document of a YAML (or JSON) text; undefined when the text
 * nests too deeply for the parser's recursion. Duplicate keys are kept (the
 * last wins), as JSON readers do; syntax errors are in each document's `errors`.
 *
 * @example
 * readYamlDocuments(yaml, 'a: 1\n---\nb: 2\n')?.documents.length; // 2
 */
export function readYamlDocuments(y: YamlModule, text: string): YamlRead | undefined {
  const lines = new y.LineCounter();
  try {
    const documents = y.parseAllDocuments(text, { prettyErrors: false, uniqueKeys: false, lineCounter: lines });
    return { documents: Array.isArray(documents) ? documents : [documents as unknown as Document.Parsed], lines };
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

/**
 * A YAML scalar with what a reader of positions needs: its value, quoting
 * style and source range (`[start, value end, node end]`).
 *
 * @example
 * const s = yamlScalar(yaml, node);
 * if (s !== undefined) s.range[0]; // where the scalar is written
 */
export type YamlScalarAt = YamlNode & { value: unknown; type?: string; range: [number, number, number] };

/**
 * The node as a positioned scalar, or undefined when it is not a scalar with a range.
 *
 * @example
 * yamlScalar(yaml, doc.get('filter', true))?.type; // 'PLAIN'
 */
export function yamlScalar(y: YamlModule, node: unknown): YamlScalarAt | undefined {
  return y.isScalar(node) && node.range !== undefined && node.range !== null ? (node as YamlScalarAt) : undefined;
}
