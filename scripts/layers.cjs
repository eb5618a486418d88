/**
 * The folders of src/ from the ground up (docs/architecture.md): a folder
 * may import its own files and the folders before it in this list, never a
 * folder after it. Read by .dependency-cruiser.cjs (which enforces it in
 * `npm run lint`) and scripts/house-counts.mjs.
 */
const LAYERS = [
  'ast',
  'diagnostics',
  'syntax',
  'schema',
  'validate',
  'policy',
  'print',
  'lint',
  'evaluate',
  // With its engine folders (sql/dialects/<engine>/): the compiler, the data sources above it and the
  // storage helpers all take a dialect object, so an engine's three faces sit on one floor, under sources/.
  'sql',
  'builder',
  'wire',
  'sdk',
  'language-service',
  'list',
  'sources',
  'openapi',
  'evolution',
  'query-builders',
  'frameworks',
  'react-querybuilder',
  'grid',
  'codemirror',
  'sample',
  'workspace',
  'reference-server',
  'conformance',
  'lsp',
  'cli',
];

module.exports = { LAYERS };
