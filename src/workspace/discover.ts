/**
 * Which files `wepql lint` and `wepql fmt` read: named files, directories
 * (walked for saved-filter files) and globs (`'views/**\/*.{json,yaml}'`),
 * minus what `.gitignore`-style rules exclude (`.wepqlignore`, the config's
 * `ignorePatterns`, `--ignore-pattern`, `--ignore-path`). `node_modules` and
 * `.git` are never walked.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from './usage-error.js';

/** Extensions a directory walk picks up. */
export const SAVED_FILTER_EXTENSIONS = ['.json', '.yaml', '.yml', '.ndjson', '.jsonl', '.txt', '.wepql'] as const;

/**
 * The ignore rules of a run.
 *
 * @example
 * const rules: IgnoreRules = { base: process.cwd(), patterns: ['drafts/'] };
 */
export interface IgnoreRules {
  /** The directory patterns are relative to (the config file's, else the working directory). */
  readonly base: string;
  readonly patterns: readonly string[];
}

/**
 * Reads `.gitignore`-style patterns from a file (comments and blank lines
 * are handled by the rules themselves).
 *
 * @example
 * readIgnoreFile('.wepqlignore'); // ['drafts/', '*.bak']
 */
export function readIgnoreFile(path: string, required: boolean): string[] {
  try {
    return readFileSync(path, 'utf8').split(/\r?\n/);
  } catch (e) {
    if (!required && (e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new UsageError(`cannot read ignore file ${path}: ${(e as Error).message}`);
  }
}

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

const GLOB_CHARS = /[*?[\]{}!]/;

/**
 * The files named by `inputs`, in a stable order without duplicates. `-`
 * (standard input) is kept as is. Throws `UsageError` for a name that is
 * neither a file, a directory nor a glob matching at least one file.
 *
 * @example
 * await discoverFiles(['views/', 'extra/*.yaml'], { cwd: process.cwd(), ignore: { base: process.cwd(), patterns: [] } });
 */
export async function discoverFiles(
  inputs: readonly string[],
  options: { readonly cwd: string; readonly ignore: IgnoreRules },
): Promise<string[]> {
  // The matchers load only when needed: most runs name files and have no ignore rules.
  const patterns = options.ignore.patterns.filter((p) => p.trim() !== '' && !p.startsWith('#'));
  const rules = patterns.length === 0 ? undefined : (await import('ignore')).default().add(patterns);
  const isIgnored = (abs: string, dir: boolean): boolean => {
    if (rules === undefined) return false;
    const rel = relative(options.ignore.base, abs);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
    return rules.ignores(toPosix(rel) + (dir ? '/' : ''));
  };
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (shown: string): void => {
    if (!seen.has(shown)) {
      seen.add(shown);
      out.push(shown);
    }
  };
  // Walks `dir`, returning files (as shown to the user) that `accept` keeps.
  const walk = (dir: string, shownDir: string, accept: (shown: string) => boolean): string[] => {
    const found: string[] = [];
    const stack: [string, string][] = [[dir, shownDir]];
    while (stack.length > 0) {
      const [abs, shown] = stack.pop()!;
      let names: string[];
      try {
        names = readdirSync(abs).sort();
      } catch (e) {
        throw new UsageError(`cannot read directory ${shown}: ${(e as Error).message}`);
      }
      const subdirs: [string, string][] = [];
      for (const name of names) {
        if (name === 'node_modules' || name === '.git') continue;
        const childAbs = join(abs, name);
        const childShown = shown === '' || shown === '.' ? name : `${shown.replace(/\/$/, '')}/${name}`;
        let stat;
        try {
          stat = statSync(childAbs);
        } catch {
          continue;
        }
        if (stat.isDirectory()) {
          if (!isIgnored(childAbs, true)) subdirs.push([childAbs, childShown]);
        } else if (stat.isFile() && !isIgnored(childAbs, false) && accept(childShown)) found.push(childShown);
      }
      for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
    }
    return found.sort();
  };
  for (const input of inputs) {
    if (input === '-') {
      add('-');
      continue;
    }
    const abs = resolve(options.cwd, input);
    let stat;
    try {
      stat = statSync(abs);
    } catch {
      stat = undefined;
    }
    if (stat !== undefined && !stat.isDirectory()) {
      add(input);
      continue;
    }
    if (stat?.isDirectory() === true) {
      const lower = (s: string) => s.toLowerCase();
      const files = walk(abs, input, (shown) => SAVED_FILTER_EXTENSIONS.some((ext) => lower(shown).endsWith(ext)));
      for (const f of files) add(f);
      continue;
    }
    if (!GLOB_CHARS.test(input)) throw new UsageError(`cannot read ${input}: no such file or directory`);
    const picomatch = (await import('picomatch')).default;
    const scan = picomatch.scan(input);
    const base = scan.base === '' ? '.' : scan.base;
    const matcher = picomatch(toPosix(input), { dot: false });
    let files: string[] = [];
    try {
      if (statSync(resolve(options.cwd, base)).isDirectory()) files = walk(resolve(options.cwd, base), base === '.' ? '' : base, (shown) => matcher(shown));
    } catch (e) {
      if (e instanceof UsageError) throw e;
    }
    if (files.length === 0) throw new UsageError(`no files match ${JSON.stringify(input)}`);
    for (const f of files) add(f);
  }
  return out;
}
