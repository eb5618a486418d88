/**
 * What a user sees of the package before running it: the licence, where the
 * code lives, and that `npm ci` installs without EBADENGINE on the Node
 * versions package.json promises.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown> & {
  engines: { node: string };
  files: string[];
  repository: { type: string; url: string };
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; dev?: boolean; optional?: boolean; engines?: { node?: string } | string[] }>;
};
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

describe('package metadata', () => {
  it('ships an MIT LICENSE naming the wepql contributors, as package.json says', () => {
    const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} wepql contributors\n/);
    expect(license).toContain('THE SOFTWARE IS PROVIDED "AS IS"');
    expect(pkg['license']).toBe('MIT');
    expect(pkg.files).toContain('LICENSE');
  });

  it('names its repository, home page and issue tracker, all at one address', () => {
    const base = 'https://github.com/wepql/wepql';
    expect(pkg.repository).toEqual({ type: 'git', url: `git+${base}.git` });
    expect(pkg['homepage']).toBe(`${base}#readme`);
    expect(pkg['bugs']).toEqual({ url: `${base}/issues` });
  });
});

describe('npm ci: no EBADENGINE', () => {
  const locked = Object.entries(lock.packages).filter(([path]) => path !== '');
  const engine = (entry: (typeof locked)[number][1]): string | undefined =>
    Array.isArray(entry.engines) ? undefined : entry.engines?.node;

  it('every locked package admits the Node that runs the tests', () => {
    const refused = locked
      .filter(([, entry]) => engine(entry) !== undefined && !semver.satisfies(process.versions.node, engine(entry)!))
      .map(([path, entry]) => `${path}@${entry.version} wants node ${engine(entry)}`);
    expect(refused).toEqual([]);
  });

  it('every runtime dependency admits the oldest Node package.json promises', () => {
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    const refused = locked
      .filter(([, entry]) => entry.dev !== true && engine(entry) !== undefined && !semver.satisfies(oldest, engine(entry)!))
      .map(([path, entry]) => `${path}@${entry.version} wants node ${engine(entry)}`);
    expect(refused).toEqual([]);
  });
});
