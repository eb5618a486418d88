/**
 * The floors of src/ (docs/architecture.md, "Floors"): a folder may import
 * its own files and the folders of the floors below its own, never a folder
 * on its own floor or above. `npm run lint` fails on such an import, on a
 * cycle through two folders, and on an import of a folder that is not on a
 * floor (a new folder takes its place in scripts/layers.cjs, which holds the
 * floors).
 */
const { FLOORS, LAYERS } = require('./scripts/layers.cjs');

const upward = FLOORS.flatMap((floor, i) => {
  const below = FLOORS.slice(0, i).flat();
  return floor.map((folder) => {
    const forbidden = LAYERS.filter((other) => other !== folder && !below.includes(other));
    return {
      name: `layer-${folder}`,
      comment: `src/${folder}/ is on floor ${i + 1}: it may import only ${below.join(', ') || 'nothing'}, never ${forbidden.join(', ')}`,
      severity: 'error',
      // Entry files (src/<folder>/index.ts) are held to their folder's floor like
      // any module: an entry sells what its folder and the floors below it hold.
      from: { path: `^src/${folder}/` },
      to: { path: `^src/(${forbidden.join('|')})/` },
    };
  });
}).filter((rule) => rule.to.path !== '^src/()/');

module.exports = {
  forbidden: [
    ...upward,
    {
      // The layer rules already forbid every edge up; this names a cycle
      // that leaves a folder outright, type-only imports included. Cycles
      // inside one folder are the folder's own business.
      name: 'no-folder-cycle',
      comment: 'A cycle through two folders cannot be read from the ground up.',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { circular: true, viaSomeNot: '^src/$1/' },
    },
    {
      name: 'unknown-folder',
      comment: 'Every folder of src/ has a place in LAYERS (.dependency-cruiser.cjs) and docs/architecture.md.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: `^src/(${LAYERS.join('|')})/|^src/index\\.ts$` },
    },
    {
      // The compiler's modules import each other in one direction (to-sql → compile → columns → the
      // dialect types); a cycle, even through types only, would make src/sql a knot again.
      name: 'no-sql-cycle',
      comment: 'No import cycle inside src/sql (its dialect folders included), run-time or type-only.',
      severity: 'error',
      from: { path: '^src/sql/' },
      to: { circular: true },
    },
    {
      name: 'engine-folders-apart',
      comment: 'An engine folder of src/sql/dialects/ imports no other engine folder: adding an engine is adding one folder.',
      severity: 'error',
      from: { path: '^src/sql/dialects/([^/]+)/' },
      to: { path: '^src/sql/dialects/[^/]+/', pathNot: '^src/sql/dialects/$1/' },
    },
    {
      name: 'engines-through-the-registry',
      comment:
        'The compiler and the shared dialect code take a Dialect object; only the registry (and the wepql/sql entry) names an engine folder.',
      severity: 'error',
      from: { path: '^src/sql/', pathNot: '^src/sql/(index\\.ts|dialects/registry\\.ts|dialects/[^/]+/)' },
      to: { path: '^src/sql/dialects/[^/]+/' },
    },
    {
      name: 'entries-only-from-outside',
      comment: 'The package entries (src/index.ts, src/<folder>/index.ts) are for users; code imports the module that holds a name.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/(index|[^/]+/index)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
