/**
 * What the CLI knows of its own package: the version it prints and puts in
 * SARIF logs, and the address of its diagnostics documentation — taken from
 * package.json's `repository` (or `homepage`), never written here, so a
 * report never points at an address the package does not declare.
 */
import { readFileSync } from 'node:fs';

interface PackageJson {
  readonly version?: unknown;
  readonly repository?: unknown;
  readonly homepage?: unknown;
}

function packageJson(): PackageJson {
  try {
    return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageJson;
  } catch {
    return {};
  }
}

/**
 * The package's version, or `unknown` when package.json cannot be read.
 *
 * @example
 * packageVersion(); // '0.1.0'
 */
export function packageVersion(): string {
  const v = packageJson().version;
  return typeof v === 'string' ? v : 'unknown';
}

/**
 * The web address of docs/diagnostics.md, from package.json's `repository`
 * (a GitHub or GitLab repository: its file view of the default branch) or
 * `homepage` (the page itself); undefined when the package declares neither.
 *
 * @example
 * diagnosticsDocsUri(); // 'https://github.com/o/wepql/blob/HEAD/docs/diagnostics.md', or undefined
 */
export function diagnosticsDocsUri(pkg: PackageJson = packageJson()): string | undefined {
  const repo = typeof pkg.repository === 'string' ? pkg.repository : (pkg.repository as { url?: unknown } | undefined)?.url;
  if (typeof repo === 'string') {
    const m =
      /^(?:git\+)?(?:https?:\/\/|git@|ssh:\/\/git@)?(github\.com|gitlab\.com)[/:]([^/\s]+\/[^/\s]+?)(?:\.git)?\/?$/.exec(repo) ??
      /^(github|gitlab):([^/\s]+\/[^/\s]+)$/.exec(repo);
    if (m !== null) {
      const host = m[1]!.includes('.') ? m[1]! : `${m[1]!}.com`;
      return `https://${host}/${m[2]!}/${host === 'gitlab.com' ? '-/blob' : 'blob'}/HEAD/docs/diagnostics.md`;
    }
  }
  return typeof pkg.homepage === 'string' && /^https?:\/\//.test(pkg.homepage) ? pkg.homepage : undefined;
}
