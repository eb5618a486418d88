/**
 * `wepql/evolution`: saved filters across schema versions. Compare two
 * schemas (`diffSchemas`), lint a saved text against the schema it was
 * written for (`lintText` with `previousSchema`), and apply the safe rename
 * fixes (`renameFields`).
 *
 * This file only re-exports.
 *
 * @packageDocumentation
 */
export { diffSchemas, describeChange, isBreaking, retypeImpact } from '../schema/diff.js';
export type { RetypeImpact, SchemaChange, SchemaDiff } from '../schema/diff.js';
export { evolutionDiagnostics, renameAwareSchema } from '../lint/schema-evolution.js';
export { fixText, lintText, renameFields } from '../lint/lint-text.js';
export type { LintKind, LintTextOptions } from '../lint/lint-text.js';
