/**
 * When a JSON or YAML file holds no filter where wepql looks, the selectors
 * that would find them: the places of `filter` and `sort` strings anywhere
 * in the document, with list positions written `[*]` — so that a nested
 * dashboard file is reported with `--filter-path '$.views[*].filter'`
 * rather than passing as "0 filters checked".
 */
import { plainDocuments, type SavedSelectors } from './saved-filters.js';

const MAX_PATHS = 3;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

function step(key: string): string {
  return IDENTIFIER.test(key) ? `.${key}` : `['${key}']`;
}

/**
 * The generalised paths of `filter` and `sort` strings in the documents,
 * found without recursion (a deeply nested document cannot exhaust the
 * stack), at most three of each.
 *
 * @example
 * savedTextPaths([{ views: [{ filter: 'A.Equal(1)' }] }]); // { filter: ['$.views[*].filter'], sort: [] }
 */
export function savedTextPaths(documents: readonly unknown[]): { filter: string[]; sort: string[] } {
  const found = { filter: new Set<string>(), sort: new Set<string>() };
  const stack: [unknown, string][] = documents.map((d) => [d, '$']);
  let budget = 1_000_000;
  while (stack.length > 0 && budget-- > 0) {
    const [value, path] = stack.pop()!;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}[*]`]);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        if ((key === 'filter' || key === 'sort') && typeof child === 'string') {
          if (found[key].size < MAX_PATHS) found[key].add(`${path}${step(key)}`);
        } else stack.push([child, `${path}${step(key)}`]);
      }
    }
  }
  return { filter: [...found.filter], sort: [...found.sort] };
}

/**
 * A sentence naming the selectors that would find this file's filters and
 * sorts, or undefined when it has none (or the given selectors already are
 * those).
 *
 * @example
 * suggestSelectors('dash.yaml', 'views:\n  - filter: A.Equal(1)\n', {}); // "filters sit at $.views[*].filter: pass --filter-path '$.views[*].filter' …"
 */
export function suggestSelectors(path: string, text: string, selectors: SavedSelectors): string | undefined {
  void selectors;
  const documents = plainDocuments(path, text);
  if (documents === undefined) return undefined;
  const paths = savedTextPaths(documents);
  if (paths.filter.length === 0 && paths.sort.length === 0) return undefined;
  const flags = [...paths.filter.map((p) => `--filter-path '${p}'`), ...paths.sort.map((p) => `--sort-path '${p}'`)];
  const places = [...paths.filter, ...paths.sort].join(', ');
  return `filters or sorts sit at ${places}: pass ${flags.join(' ')} (or set "filterPath"/"sortPath" in wepql.config.json)`;
}
