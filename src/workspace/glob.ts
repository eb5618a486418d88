/**
 * Globs for the paths `wepql lint` and `wepql fmt` are given (operands and
 * the config's `paths`), matched in time linear in the path and the pattern.
 *
 * A backtracking matcher (a glob compiled to a regular expression) takes
 * minutes on `**\/a*a*a*a*a*a*a*a*a*b.wepql` against a name of 120 `a`s, and
 * a cloned repository's config may hold such a pattern. Here each path
 * segment is matched by simulating the pattern's automaton — the set of
 * pattern positions reachable so far, advanced one character at a time —
 * and the segments by the same simulation one level up, with `**` as a loop:
 * no input makes it backtrack.
 *
 * Supported, as in the globs of ESLint and Prettier: `*` and `?` (never
 * across `/`), `**` as a whole segment (any number of directories), `[abc]`,
 * `[a-z]`, `[!a]`/`[^a]`, `{a,b}` alternatives (nested; at most
 * `MAX_GLOB_ALTERNATIVES` in all) and `\` escapes. Wildcards do not match a
 * name's leading `.` (write it: `.*`). Extended globs (`+(a|b)`, `!(a)`) are
 * refused with a message rather than read as something else.
 */
import { UsageError } from './usage-error.js';

/** The most alternatives a pattern's `{…}` may expand to. */
export const MAX_GLOB_ALTERNATIVES = 256;

type Token =
  | { readonly kind: 'char'; readonly char: string }
  | { readonly kind: 'any' }
  | { readonly kind: 'star' }
  | { readonly kind: 'class'; readonly negated: boolean; readonly ranges: readonly (readonly [string, string])[] };

/** A pattern segment: `**`, or the tokens of one name. */
type Segment = { readonly kind: 'globstar' } | { readonly kind: 'name'; readonly tokens: readonly Token[] };

/**
 * Counts the automaton's steps, so that a test can bound the work of a match.
 *
 * @example
 * const work: GlobWork = { steps: 0 };
 */
export interface GlobWork {
  steps: number;
}

/**
 * A compiled glob.
 *
 * @example
 * const glob = compileGlob('views/**\/*.{json,yaml}');
 * glob.base; // 'views'
 * glob.matches('views/hr/a.yaml'); // true
 */
export interface Glob {
  /** The leading directories without wildcards, where a walk starts (`.` when none). */
  readonly base: string;
  matches(path: string, work?: GlobWork): boolean;
}

/** What makes a string a glob: a wildcard, a class, an alternative, or an extended glob's opening (refused by `compileGlob`). */
export const GLOB_CHARS = /[*?[\]{}]|[@!+]\(/;

const refuse = (pattern: string, why: string): never => {
  throw new UsageError(`glob ${JSON.stringify(pattern)}: ${why}`);
};

/** `{a,b}` expanded, innermost braces first; a brace without a top-level comma is literal. */
function expandBraces(pattern: string, whole: string): string[] {
  let depth = 0;
  let open = -1;
  const commas: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '{') {
      if (depth++ === 0) {
        open = i;
        commas.length = 0;
      }
    } else if (c === ',' && depth === 1) commas.push(i);
    else if (c === '}' && depth > 0 && --depth === 0) {
      if (commas.length === 0) continue;
      const parts = [...commas, i].map((end, k) => pattern.slice(k === 0 ? open + 1 : commas[k - 1]! + 1, end));
      const head = pattern.slice(0, open);
      const tails = expandBraces(pattern.slice(i + 1), whole);
      const out: string[] = [];
      for (const part of parts) {
        for (const middle of expandBraces(part, whole)) {
          for (const tail of tails) {
            out.push(head + middle + tail);
            if (out.length > MAX_GLOB_ALTERNATIVES)
              refuse(whole, `its {…} alternatives expand to more than ${MAX_GLOB_ALTERNATIVES} patterns; name fewer`);
          }
        }
      }
      return out;
    }
  }
  return [pattern];
}

function tokenize(name: string, whole: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    if (c === '\\' && i + 1 < name.length) tokens.push({ kind: 'char', char: name[++i]! });
    else if ('@!+*?'.includes(c) && name[i + 1] === '(')
      refuse(whole, `extended globs such as ${c}(…) are not supported; use {a,b} alternatives, or escape the ( as \\(`);
    else if (c === '*') {
      // Consecutive stars within a name are one star.
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '[') {
      const close = name.indexOf(']', i + 2);
      if (close < 0) {
        tokens.push({ kind: 'char', char: c });
        continue;
      }
      let body = name.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      const ranges: [string, string][] = [];
      for (let k = 0; k < body.length; k++) {
        if (body[k + 1] === '-' && k + 2 < body.length) {
          ranges.push([body[k]!, body[k + 2]!]);
          k += 2;
        } else ranges.push([body[k]!, body[k]!]);
      }
      tokens.push({ kind: 'class', negated, ranges });
      i = close;
    } else tokens.push({ kind: 'char', char: c });
  }
  return tokens;
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((s, i) => s !== '.' && !(s === '' && i > 0));
}

function compileAlternative(pattern: string, whole: string): Segment[] {
  const out: Segment[] = [];
  for (const part of segmentsOf(pattern)) {
    if (part === '**') {
      if (out[out.length - 1]?.kind !== 'globstar') out.push({ kind: 'globstar' });
    } else out.push({ kind: 'name', tokens: tokenize(part, whole) });
  }
  return out;
}

function tokenAccepts(token: Token, c: string): boolean {
  switch (token.kind) {
    case 'char':
      return token.char === c;
    case 'any':
    case 'star':
      return true;
    case 'class':
      return token.ranges.some(([lo, hi]) => lo <= c && c <= hi) !== token.negated;
  }
}

/** One name against one segment's tokens: the set of reachable token positions, advanced a character at a time. */
function nameMatches(tokens: readonly Token[], name: string, work: GlobWork): boolean {
  // A wildcard never matches a leading dot: `*` does not find `.env`.
  if (name.startsWith('.') && (tokens[0]?.kind !== 'char' || tokens[0].char !== '.')) return false;
  const n = tokens.length;
  let current = new Uint8Array(n + 1);
  let next = new Uint8Array(n + 1);
  const close = (set: Uint8Array) => {
    // A star may match nothing: position k of a star reaches k + 1.
    for (let k = 0; k < n; k++) if (set[k] === 1 && tokens[k]!.kind === 'star') set[k + 1] = 1;
  };
  current[0] = 1;
  close(current);
  for (const c of name) {
    next.fill(0);
    let any = false;
    for (let k = 0; k < n; k++) {
      if (current[k] !== 1) continue;
      work.steps++;
      const token = tokens[k]!;
      if (!tokenAccepts(token, c)) continue;
      next[token.kind === 'star' ? k : k + 1] = 1;
      any = true;
    }
    if (!any) return false;
    close(next);
    [current, next] = [next, current];
  }
  return current[n] === 1;
}

function alternativeMatches(pattern: readonly Segment[], names: readonly string[], work: GlobWork): boolean {
  const m = pattern.length;
  let current = new Uint8Array(m + 1);
  let next = new Uint8Array(m + 1);
  const close = (set: Uint8Array) => {
    // `**` may match no directory at all.
    for (let k = 0; k < m; k++) if (set[k] === 1 && pattern[k]!.kind === 'globstar') set[k + 1] = 1;
  };
  current[0] = 1;
  close(current);
  for (const name of names) {
    next.fill(0);
    for (let k = 0; k < m; k++) {
      if (current[k] !== 1) continue;
      work.steps++;
      const segment = pattern[k]!;
      if (segment.kind === 'globstar') {
        if (!name.startsWith('.')) next[k] = 1;
      } else if (nameMatches(segment.tokens, name, work)) next[k + 1] = 1;
    }
    close(next);
    [current, next] = [next, current];
  }
  return current[m] === 1;
}

function baseOf(pattern: string): string {
  const parts = pattern.split('/');
  const literal: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (GLOB_CHARS.test(part) || part.includes('\\') || part.includes('(')) break;
    literal.push(part);
  }
  if (literal.length === 1 && literal[0] === '') return '/';
  return literal.length === 0 ? '.' : literal.join('/');
}

/**
 * Compiles a glob, or throws `UsageError` for one it does not read (an
 * extended glob, too many `{…}` alternatives).
 *
 * @example
 * compileGlob('**\/*.wepql').matches('views/hr/a.wepql'); // true
 */
export function compileGlob(pattern: string): Glob {
  const alternatives = expandBraces(pattern, pattern).map((p) => compileAlternative(p, pattern));
  return {
    base: baseOf(pattern),
    matches(path: string, work: GlobWork = { steps: 0 }): boolean {
      const names = segmentsOf(path);
      return alternatives.some((alternative) => alternativeMatches(alternative, names, work));
    },
  };
}
