/**
 * The one error type wepql throws, from `…OrThrow` helpers and from APIs
 * such as `compileFilter` that cannot return diagnostics.
 */
import type { Diagnostic } from './diagnostic.js';

/**
 * An error carrying the diagnostics that caused it.
 *
 * @example
 * try { compileFilter('A.Foo(1)', { schema }); }
 * catch (e) { if (e instanceof WepqlError) console.log(e.diagnostics[0].code); }
 */
export class WepqlError extends Error {
  /** Every diagnostic of the failed input, errors first. */
  readonly diagnostics: readonly Diagnostic[];
  constructor(message: string, diagnostics: readonly Diagnostic[]) {
    super(message);
    this.name = 'WepqlError';
    this.diagnostics = diagnostics;
  }

  /**
   * Builds an error whose message lists the error diagnostics.
   *
   * @example
   * throw WepqlError.from('filter', diagnostics);
   */
  static from(what: string, diagnostics: readonly Diagnostic[]): WepqlError {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    const lines = errors.slice(0, 5).map((d) => `  ${d.code} at ${d.start}-${d.end}: ${d.message}`);
    if (errors.length > 5) lines.push(`  … and ${errors.length - 5} more`);
    return new WepqlError(`invalid ${what}:\n${lines.join('\n')}`, diagnostics);
  }
}
