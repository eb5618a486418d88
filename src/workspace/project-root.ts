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
  return projectTest(roots)(abs);
}

/**
 * `insideProject` for many paths under the same roots: the roots' real
 * paths are read once, and `isReal` says a path is real already (a
 * directory a walk entered by its real path), which saves reading it again.
 *
 * @example
 * const inside = projectTest(['/repo']);
 * inside('/repo/views/a.json'); // true
 */
export function projectTest(roots: readonly string[]): (abs: string, isReal?: boolean) => boolean {
  const realRoots = roots.map(realOrWritten);
  return (abs, isReal = false) => {
    const real = isReal ? abs : realOrWritten(abs);
    return realRoots.some((root) => {
      const rel = relative(root, real);
      return !rel.startsWith('..') && !isAbsolute(rel);
    });
  };
}
