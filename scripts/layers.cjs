/**
 * The floors of src/ from the ground up (docs/architecture.md, "Floors"):
 * a folder may import its own files and the folders of the floors below its
 * own, never a folder on its own floor or above. Each folder sits on the
 * lowest floor its imports allow, so folders on one floor are independent of
 * each other. Read by .dependency-cruiser.cjs, which enforces it in
 * `npm run lint`; test/unit/docs/architecture-doc.test.ts keeps the page's
 * table equal to this one.
 */
const FLOORS = [
  ['ast', 'diagnostics', 'wire'],
  ['syntax', 'schema', 'workspace'],
  ['validate', 'policy'],
  ['print', 'evaluate', 'sql', 'language-service', 'openapi'],
  ['lint', 'builder', 'list', 'query-builders', 'react-querybuilder', 'grid'],
  ['sdk', 'sources', 'frameworks', 'codemirror', 'lsp'],
  ['sample'],
  ['reference-server'],
  ['conformance'],
  ['cli'],
];

/** Every folder, floor by floor. */
const LAYERS = FLOORS.flat();

/**
 * The folders that may import Node built-ins (`node:*`, `fs`, …): the
 * command, the servers, the language server, the workspace files, the
 * sample's loaders and the conformance runner. Everything else runs in a
 * browser unchanged (test/unit/language-service/core-no-node.test.ts), and
 * no entry but `wepql/server` reaches these folders
 * (test/unit/api/public-surface.test.ts).
 */
const NODE_ONLY = ['cli', 'reference-server', 'lsp', 'workspace', 'sample', 'conformance'];

module.exports = { FLOORS, LAYERS, NODE_ONLY };
