/**
 * `wepql/codemirror`: a CodeMirror 6 language package for wepql filter and
 * sort inputs. `@codemirror/state`, `@codemirror/view`, `@codemirror/lint`
 * and `@codemirror/autocomplete` are peer dependencies; the core of wepql
 * does not depend on them.
 *
 * @packageDocumentation
 */
export { wepql, wepqlDiagnostics } from './wepql-language.js';
export type { WepqlEditorOptions } from './wepql-language.js';
