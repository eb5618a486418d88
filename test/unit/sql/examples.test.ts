/**
 * The worked examples of docs/sql.md run against the BUILT library (dist/,
 * `npm run build`) and end by checking that the database and `query()`
 * agree; this keeps them working.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const built = existsSync(`${root}dist/index.js`);

describe.skipIf(!built)('examples/sql (needs npm run build)', () => {
  it.each([
    ['employees-postgres.mjs', 'all three agree'],
    ['employees-sqlite.mjs', 'SQLite and query() agree'],
  ])('%s', (file, verdict) => {
    const out = execFileSync(process.execPath, [`examples/sql/${file}`], { cwd: root, encoding: 'utf8', timeout: 90_000 });
    expect(out).toContain(verdict);
    expect(out).toContain('ORDER BY');
  });
});
