/**
 * The validator's diagnostic collector: severities come from the code
 * registry, and reporting stops at `maxErrors` errors with one
 * `too-many-errors`, so a huge hand-built tree yields a bounded list.
 */
import type { Span } from '../ast/nodes.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { codeInfo } from '../diagnostics/codes.js';
import type { Diagnostic, TextEdit } from '../diagnostics/diagnostic.js';

/**
 * Extra parts of a diagnostic beyond code, range and message.
 *
 * @example
 * const extras: ReportExtras = { suggestion: 'LastName', fix: [{ start: 0, end: 8, newText: 'LastName' }] };
 */
export interface ReportExtras {
  readonly suggestion?: string;
  readonly fix?: readonly TextEdit[];
}

/**
 * Collects diagnostics for one validation run.
 *
 * @example
 * const r = new Reporter(100);
 * r.report('unknown-field', field.span, 'unknown field "Foo"');
 * r.hasErrors; // true
 */
export class Reporter {
  readonly diagnostics: Diagnostic[] = [];
  private errors = 0;
  private capped = false;
  constructor(private readonly maxErrors: number) {}

  /** True once any error was reported. */
  get hasErrors(): boolean {
    return this.errors > 0;
  }

  /** Adds a diagnostic with the code's registered severity. */
  report(code: DiagnosticCode, span: Span, message: string, extras: ReportExtras = {}): void {
    if (this.capped) return;
    const severity = codeInfo(code).severity;
    if (severity === 'error' && this.errors >= this.maxErrors) {
      this.capped = true;
      this.diagnostics.push({
        code: 'too-many-errors',
        severity: 'error',
        message: `stopped after ${this.maxErrors} errors (limit maxErrors); fix the errors above first`,
        start: span.start,
        end: span.end,
      });
      return;
    }
    if (severity === 'error') this.errors++;
    this.diagnostics.push({
      code,
      severity,
      message,
      start: span.start,
      end: span.end,
      ...(extras.suggestion === undefined ? {} : { suggestion: extras.suggestion }),
      ...(extras.fix === undefined ? {} : { fix: extras.fix }),
    });
  }
}

/**
 * A user's text inside a message: JSON-quoted and cut to a readable length,
 * so a hostile 8 KB value does not become an 8 KB message.
 *
 * @example
 * quoteText('abc'); // '"abc"'
 */
export function quoteText(text: string, max = 40): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/**
 * An edit replacing a node's source text, or undefined for a node built by
 * code (an empty span), where an edit would insert text at offset 0.
 *
 * @example
 * replaceSpan({ start: 0, end: 8 }, 'LastName'); // [{ start: 0, end: 8, newText: 'LastName' }]
 */
export function replaceSpan(span: Span, newText: string): readonly TextEdit[] | undefined {
  if (span.end <= span.start) return undefined;
  return [{ start: span.start, end: span.end, newText }];
}
