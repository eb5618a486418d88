/**
 * Collects the diagnostics of one parse, honouring `limits.maxErrors`: past
 * the cap the rest are dropped, so hostile input cannot make the result grow
 * without bound, and one `too-many-errors` is added when a dropped one was an
 * error (dropped warnings alone do not turn a valid text into an invalid one).
 */
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../diagnostics/codes.js';
import type { Diagnostic, TextEdit } from '../diagnostics/diagnostic.js';

/**
 * Optional parts of a diagnostic.
 *
 * @example
 * sink.add('empty-clause', 'empty clause', 3, 4, { fix: [{ start: 3, end: 4, newText: '' }] });
 */
export interface DiagnosticExtras {
  readonly suggestion?: string;
  readonly fix?: readonly TextEdit[];
}

/**
 * A bounded, ordered collection of diagnostics.
 *
 * @example
 * const sink = new DiagnosticSink(100, text.length);
 * sink.add('empty-clause', 'empty clause', 3, 4);
 * sink.finish(); // [{ code: 'empty-clause', … }]
 */
export class DiagnosticSink {
  private readonly items: Diagnostic[] = [];
  private overflow: Diagnostic | undefined;
  /** Number of error-severity diagnostics reported so far (including dropped ones). */
  errorCount = 0;

  constructor(
    private readonly maxErrors: number,
    private readonly textLength: number,
  ) {}

  /** Reports one problem. Offsets are clamped into the text so every range lies inside it. */
  add(code: DiagnosticCode, message: string, start: number, end: number, extras?: DiagnosticExtras): void {
    const severity = DIAGNOSTIC_CODES[code].severity;
    if (severity === 'error') this.errorCount++;
    const s = Math.max(0, Math.min(start, this.textLength));
    const e = Math.max(s, Math.min(end, this.textLength));
    if (this.items.length >= this.maxErrors) {
      // Past the cap, a warning or info is dropped quietly: `too-many-errors`
      // is an error, and a text that only has too many warnings (a run of
      // empty clauses) must not become invalid because of them.
      if (severity !== 'error') return;
      this.overflow ??= {
        code: 'too-many-errors',
        severity: 'error',
        message: `stopped after ${this.maxErrors} problems (limit maxErrors); fix the problems above and parse again`,
        start: s,
        end: e,
      };
      return;
    }
    const d: Diagnostic =
      extras === undefined
        ? { code, severity, message, start: s, end: e }
        : {
            code,
            severity,
            message,
            start: s,
            end: e,
            ...(extras.suggestion === undefined ? {} : { suggestion: extras.suggestion }),
            ...(extras.fix === undefined ? {} : { fix: extras.fix }),
          };
    this.items.push(d);
  }

  /** The diagnostics in source order, with `too-many-errors` last when the cap was hit. */
  finish(): Diagnostic[] {
    const out = this.items.length > 1 ? this.items.sort((a, b) => a.start - b.start) : this.items;
    if (this.overflow !== undefined) out.push(this.overflow);
    return out;
  }
}
