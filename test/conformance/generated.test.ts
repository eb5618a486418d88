/**
 * The generated conformance files (semantics.json, list-http.json, the
 * dataset as SQL) are exactly what test/conformance/generate.ts makes now:
 * a change to the evaluator, the list's strings or the specs that changes
 * an expectation fails here until `node scripts/conformance-generate.mjs`
 * is run and the diff reviewed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from './generate.js';
import { SEMANTIC_SPECS } from './semantic-specs.js';

const root = new URL('../../', import.meta.url);

describe('generated conformance files', async () => {
  const files = await generatedFiles();
  it.each([...files.keys()])('%s equals a fresh generation', (path) => {
    expect(readFileSync(new URL(path, root), 'utf8')).toBe(files.get(path));
  });

  it('has ids worked out by hand for at least one case of every family', () => {
    const families = new Set(SEMANTIC_SPECS.map((s) => s.family));
    families.delete('validation');
    for (const family of families)
      expect(
        SEMANTIC_SPECS.some((s) => s.family === family && s.hand !== undefined),
        family,
      ).toBe(true);
  });
});
