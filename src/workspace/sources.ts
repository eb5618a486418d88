/**
 * Source discovery shared by `wepql lint`, `wepql fmt --check`/`--write`
 * and the language server: which files hold saved filters, read as bytes
 * so that a rewrite changes nothing else, and which files were asked for
 * but hold none — reported, never a silent pass.
 *
 * The rules (docs/linting.md, "Which files are read"):
 * - `.wepql` and `.txt` files are filter lines; a walk picks up `.wepql` only.
 * - A JSON, YAML or NDJSON file is read when it has the saved-filter shape
 *   (a list of `{filter, sort}` objects, or one) or a selector
 *   (`--filter-path`, `filterPath`) finds something in it; selectors add to
 *   the default shapes, never replace them. A walked file that has
 *   neither and no `filter`/`sort` string anywhere is not a saved-filter
 *   file and is skipped quietly; one that has them elsewhere is reported
 *   with the selector that would find them.
 * - `package.json`, lock files, `wepql.config.json`, the schema, previous
 *   schema and policy files and JSON Schema documents are never walked.
 */
import { basename, relative, resolve } from 'node:path';
import type { LintConfig } from './config.js';
import { discoverFiles, projectIgnorePatterns, type Candidate } from './discover.js';
import { loadYaml, needsYaml, readSavedFilters, SavedFileError, type SavedFile, type SavedSelectors } from './saved-filters.js';
import { parseSelector } from './selector.js';
import { decodeSource, FileTooLargeError, MAX_SOURCE_BYTES, readRegularFile, tooLargeReason, type SourceText } from './source-text.js';
import { UsageError } from './usage-error.js';
import { suggestSelectors } from './suggest-selector.js';

/**
 * A file read as saved filters.
 *
 * @example
 * for (const { file, label } of loaded.files) console.log(label, file.entries.length);
 */
export interface LoadedSource {
  readonly candidate: Candidate;
  /** How reports name it (`<stdin>` for standard input). */
  readonly label: string;
  readonly source: SourceText;
  readonly file: SavedFile;
}

/**
 * A file that was asked for but holds no filter or sort, and why.
 *
 * @example
 * const notice: NoFiltersNotice = { label: 'dash.yaml', message: 'holds no filter or sort' };
 */
export interface NoFiltersNotice {
  readonly label: string;
  readonly message: string;
}

/**
 * What a run reads.
 *
 * @example
 * const { files, notices } = await loadSources(candidates, { selectors: {}, exclude: new Set() });
 */
export interface LoadedSources {
  readonly files: readonly LoadedSource[];
  readonly notices: readonly NoFiltersNotice[];
  /** Files too large to read as text (`file-too-large`), left out so that the others are still read. */
  readonly tooLarge: readonly NoFiltersNotice[];
}

/**
 * The selectors of a run: flags first, else the config's.
 *
 * @example
 * selectorsOf(['$.views[*].filter'], undefined); // { filter: [[…]] }
 */
export function selectorsOf(filterPaths: readonly string[] | undefined, sortPaths: readonly string[] | undefined): SavedSelectors {
  return {
    ...(filterPaths === undefined ? {} : { filter: filterPaths.map((p) => parseSelector(p, '--filter-path')) }),
    ...(sortPaths === undefined ? {} : { sort: sortPaths.map((p) => parseSelector(p, '--sort-path')) }),
  };
}

/**
 * What a run asks for: operands, or the config's `paths` when there are none.
 *
 * @example
 * const request: SourceRequest = { cwd: process.cwd(), operands: ['.'], config: {}, ignorePatterns: [], allowOutside: false };
 */
export interface SourceRequest {
  readonly cwd: string;
  readonly operands: readonly string[];
  readonly config: LintConfig;
  /** `--ignore-pattern` values. */
  readonly ignorePatterns: readonly string[];
  /** `--ignore-path FILE` (instead of `.wepqlignore`), relative to `cwd`. */
  readonly ignorePath?: string;
  /** Let the config's `paths` lead outside the config's directory. */
  readonly allowOutside: boolean;
}

/**
 * The candidates a request names: the operands (relative to the working
 * directory) or the config's `paths` (relative to the config, confined to
 * its directory or the working directory unless `allowOutside`). Empty when neither names anything.
 *
 * @example
 * await findCandidates({ cwd: '/repo', operands: ['.'], config: {}, ignorePatterns: [], allowOutside: false });
 */
export async function findCandidates(request: SourceRequest): Promise<Candidate[]> {
  const { cwd, config } = request;
  const base = config.base ?? cwd;
  const patterns = projectIgnorePatterns(base, request.ignorePath === undefined ? undefined : resolve(cwd, request.ignorePath), [
    ...(config.ignorePatterns ?? []),
    ...request.ignorePatterns,
  ]);
  if (request.operands.length > 0) return discoverFiles(request.operands, { cwd, ignore: { base, patterns } });
  if (config.paths === undefined) return [];
  const found = await discoverFiles(config.paths, {
    cwd: base,
    ignore: { base, patterns },
    // The project: the config's directory, or the working directory when the config sits deeper (`--config ci/lint.json`).
    ...(request.allowOutside ? {} : { confineTo: [base, cwd] }),
  });
  return found.map((c) => ({ ...c, path: relative(cwd, c.abs) || c.path }));
}

/**
 * The absolute paths never read as saved filters when walked or globbed: the
 * config file and the schema, previous schema and policy files it or the
 * flags name.
 *
 * @example
 * excludedFiles(config, ['/repo/schemas/employee.json']);
 */
export function excludedFiles(config: LintConfig, extra: readonly (string | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const p of [config.file, config.schema, config.previousSchema, config.policy, ...extra]) if (p !== undefined) out.add(p);
  return out;
}

const NEVER_NAMES = new Set([
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'wepql.config.json',
  'composer.json',
  'deno.json',
]);

/**
 * Whether a walked or globbed file is never a saved-filter file: the
 * project's manifests and config, the files `exclude` names, and JSON Schema
 * documents (`*.schema.json`, or a `$schema` naming json-schema.org).
 *
 * @example
 * neverSavedFilters('/repo/package.json', '{}', new Set()); // true
 */
export function neverSavedFilters(abs: string, text: string, exclude: ReadonlySet<string>): boolean {
  return neverSavedFiltersByName(abs, exclude) || /^\s*\{\s*"\$schema"\s*:\s*"[^"]*json-schema\.org/.test(text);
}

/** The part of `neverSavedFilters` told by the path alone. */
function neverSavedFiltersByName(abs: string, exclude: ReadonlySet<string>): boolean {
  const name = basename(abs).toLowerCase();
  return exclude.has(abs) || NEVER_NAMES.has(name) || /^tsconfig.*\.json$/.test(name) || name.endsWith('.schema.json');
}

async function readCandidate(candidate: Candidate, label: string): Promise<SourceText> {
  if (candidate.origin !== 'stdin') return decodeSource(readRegularFile(candidate.abs, 'file'));
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of process.stdin) {
    bytes += (chunk as Buffer).length;
    // Counted as it comes: past the limit the text could not be made, so reading on is pointless.
    if (bytes > MAX_SOURCE_BYTES) throw new FileTooLargeError(label, bytes);
    chunks.push(chunk as Buffer);
  }
  return decodeSource(Buffer.concat(chunks));
}

/** A walked file's content that cannot hold a saved filter (no key text at all): skipped without parsing. */
function mentionsFilters(text: string): boolean {
  return text.includes('filter') || text.includes('sort');
}

function isDocument(path: string): boolean {
  return /\.(json|ndjson|jsonl|ya?ml)$/i.test(path);
}

/** Reads one candidate; `undefined` when a quiet walk skips it, a notice when it holds no filter. */
function classify(
  candidate: Candidate,
  label: string,
  source: SourceText,
  selectors: SavedSelectors,
): LoadedSource | NoFiltersNotice | undefined {
  const quiet = candidate.origin === 'walk' && isDocument(candidate.path);
  if (quiet && !mentionsFilters(source.text)) return undefined;
  let file: SavedFile;
  try {
    file = readSavedFilters(candidate.path, source.text, selectors);
  } catch (e) {
    if (!(e instanceof SavedFileError)) throw e;
    if (candidate.origin !== 'walk') throw new UsageError(candidate.origin === 'stdin' ? e.message.replace(/^-:/, `${label}:`) : e.message);
    const hint = suggestSelectors(candidate.path, source.text, selectors);
    return hint === undefined ? undefined : { label, message: `${e.message.slice(candidate.path.length + 2)}; skipped` };
  }
  if (file.entries.length > 0) return { candidate, label, source, file };
  const hint = isDocument(candidate.path) ? suggestSelectors(candidate.path, source.text, selectors) : undefined;
  if (quiet && hint === undefined) return undefined;
  return { label, message: noFiltersMessage(selectors, hint) };
}

function noFiltersMessage(selectors: SavedSelectors, hint: string | undefined): string {
  const selecting = selectors.filter !== undefined || selectors.sort !== undefined;
  const where = selecting
    ? 'neither the default shapes nor the --filter-path/--sort-path selectors (or filterPath/sortPath) find anything here'
    : 'holds no filter or sort';
  return hint === undefined ? where : `${where}; ${hint}`;
}

/**
 * How `loadSources` reads.
 *
 * @example
 * const options: LoadOptions = { selectors: {}, exclude: new Set(), reuse: (candidate, source) => known(candidate.abs, source.text) };
 */
export interface LoadOptions {
  readonly selectors: SavedSelectors;
  readonly exclude: ReadonlySet<string>;
  readonly stdinLabel?: string;
  /**
   * Asked for each file read from disk (never standard input) before it is
   * parsed: the entries a previous run read from exactly this text, or
   * undefined to parse it. `wepql lint --cache` answers from its cache;
   * only files that held entries are ever answered, so the file's place in
   * the run (read, never a notice) is what parsing would give.
   */
  readonly reuse?: (candidate: Candidate, source: SourceText) => Pick<SavedFile, 'format' | 'entries'> | undefined;
  /**
   * Asked for each file on disk before it is read: the entries a previous
   * run read from it when it is known not to have changed since (`wepql
   * lint --cache` answers from the file's status), or undefined to read
   * it. A file so answered is not read unless its text is asked for.
   */
  readonly trust?: (candidate: Candidate) => Pick<SavedFile, 'format' | 'entries'> | undefined;
}

/**
 * Reads the candidates: every file that holds saved filters, and a notice
 * for each file asked for that holds none (a walked JSON/YAML file without
 * any `filter`/`sort` string, or a never-read file, is skipped quietly), and
 * each file too large to read (`tooLarge`). Throws `UsageError` for a named
 * file that cannot be read or parsed.
 *
 * @example
 * const { files, notices } = await loadSources(await findCandidates(request), { selectors: {}, exclude: new Set() });
 */
export async function loadSources(candidates: readonly Candidate[], options: LoadOptions): Promise<LoadedSources> {
  // Only YAML files and selectors need the YAML reader (JSON and NDJSON are read without it): a JSON-only run starts without loading it.
  if (
    needsYaml(
      candidates.map((c) => c.path),
      options.selectors,
    )
  )
    await loadYaml();
  const files: LoadedSource[] = [];
  const notices: NoFiltersNotice[] = [];
  const tooLarge: NoFiltersNotice[] = [];
  for (const candidate of candidates) {
    const label = candidate.origin === 'stdin' ? (options.stdinLabel ?? '<stdin>') : candidate.path;
    const walkedOrGlobbed = candidate.origin === 'walk' || candidate.origin === 'glob';
    // A walked file the path rules now leave out (the cache itself, a schema) is left out before it is trusted.
    const trusted =
      candidate.origin === 'stdin' || (walkedOrGlobbed && neverSavedFiltersByName(candidate.abs, options.exclude))
        ? undefined
        : options.trust?.(candidate);
    if (trusted !== undefined) {
      files.push(trustedSource(candidate, label, trusted));
      continue;
    }
    let source: SourceText;
    try {
      source = await readCandidate(candidate, label);
    } catch (e) {
      if (!(e instanceof FileTooLargeError)) throw e;
      tooLarge.push({ label, message: `too large to read: ${tooLargeReason(e.bytes)}; its filters were not checked` });
      continue;
    }
    if (candidate.origin !== 'named' && candidate.origin !== 'stdin' && neverSavedFilters(candidate.abs, source.text, options.exclude))
      continue;
    const known = candidate.origin === 'stdin' ? undefined : options.reuse?.(candidate, source);
    if (known !== undefined) {
      files.push({ candidate, label, source, file: { path: candidate.path, content: source.text, ...known } });
      continue;
    }
    const result = classify(candidate, label, source, options.selectors);
    if (result === undefined) continue;
    if ('file' in result) files.push(result);
    else notices.push(result);
  }
  return { files, notices, tooLarge };
}

/** A file answered by `trust`: its text is read only if something asks for it (`--fix` does; a trusting run does not). */
function trustedSource(candidate: Candidate, label: string, known: Pick<SavedFile, 'format' | 'entries'>): LoadedSource {
  let read: SourceText | undefined;
  const text = (): SourceText => (read ??= decodeSource(readRegularFile(candidate.abs, 'file')));
  const source: SourceText = {
    get text() {
      return text().text;
    },
    get encoding() {
      return text().encoding;
    },
    get bom() {
      return text().bom;
    },
  };
  return {
    candidate,
    label,
    source,
    file: {
      path: candidate.path,
      format: known.format,
      entries: known.entries,
      get content() {
        return source.text;
      },
    },
  };
}
