/**
 * The project a config may reach: its own directory and the working
 * directory. A config comes with the repository, so the files it names
 * (`paths`, `schema`, `previousSchema`, `policy`) must lie inside the project,
 * judged by real path so that a symlink cannot lead out; `--allow-outside` on
 * the command line lifts the rule.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';

function realOrWritten(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // A glob or a missing file: judged by its written path.
    return path;
  }
}

/**
 * Whether `abs` (by real path) lies inside one of `roots`.
 *
 * @example
 * insideProject('/repo/schemas/employee.json', ['/repo']); // true
 * insideProject('/etc/passwd', ['/repo']); // false
 */
export function insideProject(abs: string, roots: readonly string[]): boolean {
  const real = realOrWritten(abs);
  return roots.some((root) => {
    const rel = relative(realOrWritten(root), real);
    return !rel.startsWith('..') && !isAbsolute(rel);
  });
}
