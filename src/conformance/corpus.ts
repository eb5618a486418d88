/**
 * The conformance corpora of grammar/corpus/ (grammar/README.md): where
 * they are in the source tree and the installed package alike, and the
 * shapes of their cases. Every implementation of the language reads the
 * same files; this module is how the TypeScript one reads them.
 */
import { readFileSync } from 'node:fs';

/** grammar/corpus/, two levels above this module in src/ and in dist/. */
const CORPUS_DIR = new URL('../../grammar/corpus/', import.meta.url);

/**
 * Reads one corpus file (a path inside grammar/corpus/) as JSON.
 *
 * @example
 * readCorpusFile<SemanticCorpus>('semantics.json').cases.length;
 */
export function readCorpusFile<T>(path: string): T {
  return JSON.parse(readFileSync(new URL(path, CORPUS_DIR), 'utf8')) as T;
}

/** The syntax corpora, in the order the runner reports them. */
export const SYNTAX_CORPUS_FILES = ['filter-valid.json', 'filter-invalid.json', 'sort.json'] as const;

/**
 * A case of the syntax corpora: text to parse, the diagnostic codes in order, the simplified tree.
 *
 * @example
 * const c: SyntaxCase = { name: 'x', kind: 'filter', input: 'A.IsNull()', diagnostics: [], ast: [{ op: 'IsNull', field: 'A' }] };
 */
export interface SyntaxCase {
  readonly name: string;
  readonly kind: 'filter' | 'sort';
  readonly input: string;
  readonly canonical?: string;
  readonly diagnostics: readonly string[];
  readonly ast?: unknown;
}

/**
 * A case of grammar/corpus/semantics.json: a filter and a sort over the
 * dataset, and either the ids the query returns in order, or the error
 * codes validation against the employee schema reports.
 *
 * @example
 * const c: SemanticCase = { name: 'x', family: 'null', filter: 'Gender.IsNull()', sort: '', caseSensitive: false, deleted: 'show', ids: [3, 4, 22] };
 */
export interface SemanticCase {
  readonly name: string;
  readonly family: string;
  readonly filter: string;
  readonly sort: string;
  readonly caseSensitive: boolean;
  /** `hide`: the list's soft-delete scope applies (RowStatus 3 left out, a null RowStatus kept); `show`: every record. */
  readonly deleted: 'show' | 'hide';
  readonly ids?: readonly number[];
  readonly errors?: readonly string[];
}

/**
 * grammar/corpus/semantics.json.
 *
 * @example
 * const { dataset, cases } = readCorpusFile<SemanticCorpus>('semantics.json');
 */
export interface SemanticCorpus {
  readonly description: string;
  /** The dataset, relative to grammar/corpus/. */
  readonly dataset: string;
  /** The filter that stands for the soft-delete scope of `deleted: "hide"`. */
  readonly deletedScope: string;
  readonly cases: readonly SemanticCase[];
}

/**
 * The conformance dataset's records (grammar/corpus/dataset/employees.json).
 *
 * @example
 * conformanceEmployees().length; // 30
 */
export function conformanceEmployees(): Record<string, unknown>[] {
  return readCorpusFile<Record<string, unknown>[]>('dataset/employees.json');
}
