/**
 * The API report in api/ must match the code: a change of public surface
 * (an export added, removed or changed in any entry of package.json
 * `exports`) is a visible diff, committed with `npm run api:update`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without declarations
import { checkReports, exportEntries, generateReports, lineDiff, reportName } from '../../../scripts/api-report.mjs';
import { assertFreshDist } from '../../support/dist.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('the API report', () => {
  it('matches the declarations of every entry in package.json exports', { timeout: 180_000 }, () => {
    // From the declarations npm test's build wrote (a second compile of src/ here cost ~15 s); `npm run api:check` compiles.
    assertFreshDist();
    const problems: string[] = checkReports(generateReports({ fromDist: true }));
    expect(problems, problems.join('\n\n')).toEqual([]);
  });

  it('covers every subpath export, TypeScript or file', () => {
    const entries = exportEntries({
      name: 'wepql',
      exports: {
        '.': { types: './dist/index.d.ts', default: './dist/index.js' },
        './express': { types: './dist/frameworks/express.d.ts', default: './dist/frameworks/express.js' },
        './schemas/employee.json': './schemas/employee.json',
      },
    });
    expect(entries.map((e: { specifier: string; source?: string }) => [e.specifier, e.source, reportName(e.specifier)])).toEqual([
      ['wepql', 'src/index.ts', 'wepql.api.md'],
      ['wepql/express', 'src/frameworks/express.ts', 'wepql-express.api.md'],
      ['wepql/schemas/employee.json', undefined, 'wepql-schemas-employee.json.api.md'],
    ]);
  });

  it('entry files name what they export (no `export *`)', () => {
    const sources = exportEntries()
      .map((e: { source?: string }) => e.source)
      .filter((s: string | undefined): s is string => s !== undefined);
    expect(sources.length).toBeGreaterThanOrEqual(7);
    for (const source of sources) {
      expect(readFileSync(join(ROOT, source), 'utf8'), source).not.toMatch(/^export (type )?\*/m);
    }
  });

  it('prints a change as removed and added lines with context', () => {
    expect(lineDiff('a\nb\nc\nd', 'a\nb\nX\nd')).toBe('  a\n  b\n- c\n+ X\n  d');
  });
});
