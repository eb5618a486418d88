/**
 * The figures of `npm run counts` only go down (docs/architecture.md): a
 * change that quotes an operator name outside the table, adds a
 * `switch (node.kind)`, a `.kind ===` chain or a walk with its own stack of
 * filter nodes outside the fold, hand-writes a
 * JSON or YAML reader, writes a function of 60 lines or more, imports up a
 * layer, or compares or quotes an engine's name outside the dialect folders
 * fails here. When a figure falls, lower its
 * ceiling with it.
 *
 * The layer figure is left out here (`--skip-layers`): it is the count of
 * dependency-cruiser's violations of .dependency-cruiser.cjs, and `npm test`
 * runs that same check as `npm run lint`'s `depcruise`, which fails on any
 * one; counting it again here cost about 5 CPU-seconds of the file's 6.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

const CEILINGS = {
  operatorNamesOutsideTable: 0,
  kindSwitchesOutsideFold: 0,
  handWrittenJsonYamlReaders: 0,
  kindChainsOutsideFold: 0,
  handWalksOutsideFold: 0,
  functionsOver60Lines: 0,
  engineComparisons: 0,
  dialectNamesOutsideDialects: 0,
};

describe('npm run counts', () => {
  it('stays at or under its ceilings', { timeout: 120_000 }, () => {
    const out = execFileSync(process.execPath, ['scripts/house-counts.mjs', '--json', '--skip-layers'], { cwd: ROOT, encoding: 'utf8' });
    const counts = JSON.parse(out) as Record<keyof typeof CEILINGS, number>;
    expect(counts).not.toHaveProperty('layerViolations');
    for (const [figure, ceiling] of Object.entries(CEILINGS)) {
      expect(counts[figure as keyof typeof CEILINGS], `${figure} (npm run counts -- --list says where)`).toBeLessThanOrEqual(ceiling);
    }
  });
});
