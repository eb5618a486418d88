/**
 * A command line split as sh splits it, for the tests that run printed
 * `wepql` lines (help examples, the docs' command blocks) in the test's
 * process instead of through a shell: only lines of plain words,
 * 'single-quoted' and "double-quoted" text with $NAME or ${NAME} inside
 * double quotes, a trailing `# comment`, and optionally a final `> FILE`.
 * Anything more of the shell (pipes, globs, unquoted variables, escapes,
 * other redirects) gives undefined, and such a line goes to a real shell.
 */

/**
 * The words of a command line as sh makes them; undefined for a line that
 * needs more of the shell (redirects, pipes, globs, unquoted variables,
 * escapes). A `#` that starts a word starts a comment, as in sh.
 *
 * @example
 * shellWords(`wepql fmt "a.equal($X)" # note`, { X: '1' }); // ['wepql', 'fmt', 'a.equal(1)']
 */
export function shellWords(line: string, env: NodeJS.ProcessEnv): string[] | undefined {
  const words: string[] = [];
  const token = /\s*(?:([^\s'"\\$|&;<>()`*?[\]{}~#]+)|'([^']*)'|"((?:[^"\\`$]|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?)*)")/y;
  let word: string | undefined;
  let at = 0;
  while (at < line.length) {
    if (/\s/.test(line[at]!)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      at++;
      continue;
    }
    if (word === undefined && line[at] === '#') break;
    token.lastIndex = at;
    const m = token.exec(line);
    if (m === null || m[0].trimStart().length === 0) return undefined;
    const text = m[1] ?? m[2] ?? m[3]!.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_all, name: string) => env[name] ?? '');
    word = (word ?? '') + text;
    at = token.lastIndex;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * A command line of words (shellWords) and, when it ends in `> FILE` (FILE a
 * plain word), the file sh would redirect its standard output to; undefined
 * for a line that needs more of the shell.
 *
 * @example
 * redirectedWords('wepql schema --openapi > api.yaml', {}); // { words: ['wepql', 'schema', '--openapi'], stdout: 'api.yaml' }
 */
export function redirectedWords(line: string, env: NodeJS.ProcessEnv): { words: string[]; stdout?: string } | undefined {
  const m = /^(.*\S)\s+>\s*([A-Za-z0-9._/-]+)$/.exec(line);
  const words = shellWords(m === null ? line : m[1]!, env);
  if (words === undefined) return undefined;
  return m === null ? { words } : { words, stdout: m[2]! };
}
