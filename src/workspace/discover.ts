/**
 * Which files `wepql lint`, `wepql fmt --check`/`--write` and the language
 * server consider, in the manner of ESLint and Prettier: named files,
 * directories (walked) and globs (`'views/**\/*.{json,yaml}'`), minus what
 * `.gitignore`-style rules exclude (`.gitignore` and `.wepqlignore` at the
 * project root, the config's `ignorePatterns`, `--ignore-pattern`,
 * `--ignore-path`). `node_modules` and `.git` are never walked; a directory
 * is visited once by its real path, so a symlink loop ends.
 *
 * Whether a candidate holds saved filters is decided by its content (see
 * `sources.ts`); this module only finds candidates and says how each was
 * named, which decides how quiet a file without filters may be.
 */
import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { compileGlob, GLOB_CHARS } from './glob.js';
import { projectTest } from './project-root.js';
import { readRegularText } from './source-text.js';
import { UsageError } from './usage-error.js';

/**
 * Extensions a directory walk picks up. `.txt` is not among them: a
 * repository's text files (licences, notes) are not saved filters; name a
 * `.txt` file, or match it with a glob, to lint it.
 */
export const WALKED_EXTENSIONS = ['.wepql', '.json', '.yaml', '.yml', '.ndjson', '.jsonl'] as const;

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
 * How a candidate was named: on its own, by a glob, or found walking a
 * directory. A walked JSON or YAML file that holds no filter is skipped
 * quietly; a named file that holds none is always reported.
 *
 * @example
 * const origin: CandidateOrigin = 'walk';
 */
export type CandidateOrigin = 'named' | 'glob' | 'walk' | 'stdin';

/**
 * A file to consider.
 *
 * @example
 * const c: Candidate = { path: 'views/a.json', abs: '/repo/views/a.json', origin: 'walk' };
 */
export interface Candidate {
  /** The path as reports show it (relative to the working directory when the input was). */
  readonly path: string;
  /** The absolute path (`-` for standard input). */
  readonly abs: string;
  readonly origin: CandidateOrigin;
}

/**
 * Options of `discoverFiles`.
 *
 * @example
 * const options: DiscoverOptions = { cwd: '/repo', ignore: { base: '/repo', patterns: [] }, confineTo: ['/repo'] };
 */
export interface DiscoverOptions {
  /** The directory inputs are relative to. */
  readonly cwd: string;
  readonly ignore: IgnoreRules;
  /**
   * When set, every input (by real path, so a symlink cannot lead out)
   * must lie inside one of these directories: the config's `paths` stay in
   * the project.
   */
  readonly confineTo?: readonly string[];
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
    statSync(path);
  } catch (e) {
    if (!required && (e as NodeJS.ErrnoException).code === 'ENOENT') return [];
  }
  return readRegularText(path, 'ignore file').split(/\r?\n/);
}

/**
 * The ignore patterns of a project directory: its `.gitignore`, then its
 * `.wepqlignore` (or `ignorePath` instead of the latter), then `extra`.
 *
 * @example
 * projectIgnorePatterns('/repo', undefined, ['drafts/']);
 */
export function projectIgnorePatterns(base: string, ignorePath: string | undefined, extra: readonly string[]): string[] {
  return [
    ...readIgnoreFile(join(base, '.gitignore'), false),
    ...(ignorePath === undefined ? readIgnoreFile(join(base, '.wepqlignore'), false) : readIgnoreFile(ignorePath, true)),
    ...extra,
  ];
}

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

type IsIgnored = (abs: string, dir: boolean) => boolean;

async function ignoreMatcher(rules: IgnoreRules): Promise<IsIgnored> {
  // The matcher loads only when needed: most runs name files and have no ignore rules.
  const patterns = rules.patterns.filter((p) => p.trim() !== '' && !p.startsWith('#'));
  if (patterns.length === 0) return () => false;
  const matcher = (await import('ignore')).default().add(patterns);
  return (abs, dir) => {
    const rel = relative(rules.base, abs);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
    return matcher.ignores(toPosix(rel) + (dir ? '/' : ''));
  };
}

function childLabel(shown: string, name: string): string {
  return shown === '' || shown === '.' ? name : `${shown.replace(/\/$/, '')}/${name}`;
}

/** A file a walk found: its path as shown, and whether it is known to lie inside the project already. */
interface Walked {
  readonly shown: string;
  /** Not a symlink, in a directory whose real path lies inside the project: no need to read its real path. */
  readonly inside: boolean;
}

/**
 * Walks `dir` without recursion, returning the files (as shown) that
 * `accept` keeps. Each directory is entered once by its real path, so a
 * symlink loop (`loop -> .`) ends instead of walking for ever. Entry types
 * come from the directory listing: only a symlink costs a `stat`.
 */
function walk(
  dir: string,
  shownDir: string,
  isIgnored: IsIgnored,
  accept: (shown: string) => boolean,
  inside?: (abs: string, isReal?: boolean) => boolean,
): Walked[] {
  const found: Walked[] = [];
  const visited = new Set<string>();
  const stack: [string, string][] = [[dir, shownDir]];
  while (stack.length > 0) {
    const [abs, shown] = stack.pop()!;
    let real: string;
    try {
      real = realpathSync(abs);
    } catch {
      continue;
    }
    if (visited.has(real)) continue;
    visited.add(real);
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (e) {
      throw new UsageError(`cannot read directory ${shown}: ${(e as Error).message}`);
    }
    const dirInside = inside === undefined || inside(real, true);
    const subdirs: [string, string][] = [];
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const { name } = entry;
      if (name === 'node_modules' || name === '.git') continue;
      const childAbs = join(abs, name);
      const childShown = childLabel(shown, name);
      const kind = entryKind(entry, childAbs);
      if (kind === 'directory') {
        if (!isIgnored(childAbs, true)) subdirs.push([childAbs, childShown]);
      } else if (kind === 'file' && !isIgnored(childAbs, false) && accept(childShown))
        found.push({ shown: childShown, inside: dirInside && !entry.isSymbolicLink() });
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
  }
  return found.sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
}

/** A listed entry's type, following a symlink (`undefined` when it dangles or is neither a file nor a directory). */
function entryKind(entry: Dirent, abs: string): 'file' | 'directory' | undefined {
  if (entry.isSymbolicLink()) {
    let stat: Stats;
    try {
      stat = statSync(abs);
    } catch {
      return undefined;
    }
    return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : undefined;
  }
  return entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : undefined;
}

/** Throws unless `abs` lies inside the project (when confined at all). */
type Confine = (input: string, abs: string) => void;

function confiner(roots: readonly string[] | undefined): Confine {
  if (roots === undefined) return () => undefined;
  const inside = projectTest(roots);
  return (input, abs) => {
    if (inside(abs)) return;
    throw new UsageError(
      `"paths" entry ${JSON.stringify(input)} lies outside the project (${roots.join(' or ')}); pass --allow-outside to read it`,
    );
  };
}

function globFiles(input: string, cwd: string, isIgnored: IsIgnored, inside?: (abs: string, isReal?: boolean) => boolean): Walked[] {
  const glob = compileGlob(toPosix(input));
  try {
    if (!statSync(resolve(cwd, glob.base)).isDirectory()) return [];
  } catch {
    return [];
  }
  return walk(resolve(cwd, glob.base), glob.base === '.' ? '' : glob.base, isIgnored, (shown) => glob.matches(shown), inside);
}

function statOf(abs: string): Stats | undefined {
  try {
    return statSync(abs);
  } catch {
    return undefined;
  }
}

/**
 * The candidates named by `inputs`, in a stable order without duplicates.
 * `-` (standard input) is kept as is. Throws `UsageError` for a name that is
 * neither a file, a directory nor a glob matching at least one file, and,
 * with `confineTo`, for one outside that directory.
 *
 * @example
 * await discoverFiles(['views/', 'extra/*.yaml'], { cwd: process.cwd(), ignore: { base: process.cwd(), patterns: [] } });
 */
export async function discoverFiles(inputs: readonly string[], options: DiscoverOptions): Promise<Candidate[]> {
  const isIgnored = await ignoreMatcher(options.ignore);
  const confine = confiner(options.confineTo);
  const inside = options.confineTo === undefined ? undefined : projectTest(options.confineTo);
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const add = (path: string, origin: CandidateOrigin, known = false): void => {
    const abs = path === '-' ? '-' : resolve(options.cwd, path);
    if (abs !== '-' && !known) confine(path, abs);
    if (seen.has(abs)) return;
    seen.add(abs);
    out.push({ path, abs, origin });
  };
  const walked = (shown: string) => WALKED_EXTENSIONS.some((ext) => shown.toLowerCase().endsWith(ext));
  for (const input of inputs) {
    if (input === '-') {
      add('-', 'stdin');
      continue;
    }
    const abs = resolve(options.cwd, input);
    confine(input, abs);
    const stat = statOf(abs);
    if (stat !== undefined && !stat.isDirectory()) add(input, 'named');
    else if (stat !== undefined) for (const f of walk(abs, input, isIgnored, walked, inside)) add(f.shown, 'walk', f.inside);
    else {
      if (!GLOB_CHARS.test(input)) throw new UsageError(`cannot read ${input}: no such file or directory`);
      const files = globFiles(input, options.cwd, isIgnored, inside);
      if (files.length === 0) throw new UsageError(`no files match ${JSON.stringify(input)}`);
      for (const f of files) add(f.shown, 'glob', f.inside);
    }
  }
  return out;
}
