/**
 * Checking a validated filter or sort against a policy. Each refusal is a
 * diagnostic at the range of what was refused (the field, or the operator),
 * so a 400 response and `wepql lint` point at it.
 */
import type { Span } from '../ast/nodes.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { codeInfo } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { conditionsOf } from '../ast/fold.js';
import type { TypedFilter, TypedSort } from '../ast/typed-tree.js';
import type { Policy } from './policy.js';

/**
 * The policy's refusals in a validated filter, in text order.
 *
 * @example
 * const typed = analyzeFilterOrThrow('Ssn.StartsWith(123)', { schema: employeeSchema });
 * checkFilterPolicy(typed, definePolicy({ fields: { Ssn: { filter: ['Equal'] } } }, employeeSchema)).map((d) => d.code); // ['operator-not-allowed']
 */
export function checkFilterPolicy(filter: TypedFilter, policy: Policy): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { node, field, fieldIndex, operator } of conditionsOf(filter.clauses)) {
    // An InFields condition is refused per field, at that field's name in its list.
    const fieldSpan = node.kind === 'in-fields' ? node.source.fields[fieldIndex]!.span : node.source.field.span;
    checkCondition(field.name, operator, fieldSpan, node.source.operatorSpan, out, policy);
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * The policy's refusals in a validated sort.
 *
 * @example
 * const typed = analyzeSortOrThrow('Ssn=Asc', { schema: employeeSchema });
 * checkSortPolicy(typed, definePolicy({ fields: { Ssn: { sort: false } } }, employeeSchema))[0]?.code; // 'field-not-sortable'
 */
export function checkSortPolicy(sort: TypedSort, policy: Policy): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const key of sort.keys) {
    if (!policy.ruleOf(key.field.name).sort) {
      out.push(diagnostic('field-not-sortable', key.source.field.span, `this endpoint does not allow sorting by ${key.field.name}`));
    }
  }
  return out;
}

function checkCondition(name: string, operator: string, fieldSpan: Span, operatorSpan: Span, out: Diagnostic[], policy: Policy): void {
  const rule = policy.ruleOf(name).filter;
  if (rule === true) return;
  if (rule === false) {
    out.push(diagnostic('field-not-filterable', fieldSpan, `this endpoint does not allow filtering on ${name}`));
    return;
  }
  if (rule.has(operator as never)) return;
  const allowed = [...rule];
  const hint = allowed.length === 0 ? 'no operator is allowed on it' : `allowed: ${allowed.join(', ')}`;
  out.push({
    ...diagnostic('operator-not-allowed', operatorSpan, `this endpoint does not allow ${operator} on ${name}; ${hint}`),
    ...(allowed.length === 1 ? { suggestion: allowed[0]! } : {}),
  });
}

function diagnostic(code: DiagnosticCode, span: Span, message: string): Diagnostic {
  return { code, severity: codeInfo(code).severity, message, start: span.start, end: span.end };
}
