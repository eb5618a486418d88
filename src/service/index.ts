/**
 * `wepql/service`: language services for editors and filter bars —
 * completion and explanations.
 *
 * This file only re-exports; nothing inside `src/` imports it.
 */
export * from './complete.js';
export * from './words.js';
export * from './explain.js';
export * from './tokens.js';
export * from './hover.js';
