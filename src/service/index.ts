/**
 * `wepql/service`: language services for editors and filter bars —
 * completion and explanations.
 *
 * This file only re-exports; nothing inside `src/` imports it.
 */
export { complete } from './complete.js';
export type { CompleteOptions, CompletionItem, CompletionKind, CompletionResult } from './complete.js';
export { explain } from './explain.js';
export type { ExplainOptions, ExplainResult } from './explain.js';
