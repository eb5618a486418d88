/**
 * Resolves a field path as written to the schema's field, reporting
 * unknown names (with the nearest name), objects used as values, spelling
 * that differs in case, and fields the schema keeps out of filters or sorts.
 */
import type { FieldNode } from '../ast/nodes.js';
import { nearestNameIn } from '../diagnostics/suggest.js';
import type { ResolvedField, Schema } from '../schema/schema.js';
import type { Reporter } from './report.js';
import { quoteText, replaceSpan } from './report.js';

/**
 * Where a field is used: decides `not-filterable` versus `not-sortable`.
 *
 * @example
 * const use: FieldUse = 'sort';
 */
export type FieldUse = 'filter' | 'sort';

const nearestFields = new WeakMap<Schema, Partial<Record<FieldUse, (name: string) => string | undefined>>>();

/** The usable field nearest to an unknown name, per schema object and use (its fields are frozen), each name worked out once. */
function nearestField(schema: Schema, use: FieldUse): (name: string) => string | undefined {
  let bySchema = nearestFields.get(schema);
  if (bySchema === undefined) nearestFields.set(schema, (bySchema = {}));
  return (bySchema[use] ??= nearestNameIn(schema.fields.filter((f) => (use === 'filter' ? f.filterable : f.sortable)).map((f) => f.name)));
}

/**
 * The schema's field for a field node, or undefined after reporting why
 * there is none. A field the schema marks not filterable/sortable is
 * reported and not returned.
 *
 * @example
 * resolveField(node, schema, 'filter', reporter); // ResolvedField for "LastName", or undefined
 */
export function resolveField(node: FieldNode, schema: Schema, use: FieldUse, reporter: Reporter): ResolvedField | undefined {
  const found = schema.lookup(node.name);
  if (found.found === 'none') {
    const suggestion = nearestField(schema, use)(node.name);
    if (suggestion === undefined) {
      reporter.report('unknown-field', node.span, `unknown field ${quoteText(node.name)}; it is not in the schema`);
    } else {
      // A suggestion, never a fix: a nearby name is a guess at what was meant,
      // and `--fix` applies only edits that keep the author's meaning.
      reporter.report('unknown-field', node.span, `unknown field ${quoteText(node.name)}; did you mean ${quoteText(suggestion)}?`, {
        suggestion,
      });
    }
    return undefined;
  }
  if (found.found === 'object') {
    const prefix = `${found.name}.`;
    const leaf = schema.fields.find((f) => f.name.startsWith(prefix));
    reporter.report(
      'not-a-leaf-field',
      node.span,
      `${quoteText(found.name)} is an object, not a field with a value` +
        (leaf === undefined ? '' : `; name one of its fields, such as ${quoteText(leaf.name)}`),
    );
    return undefined;
  }
  const field = found.field;
  if (!found.exactCase) {
    const fix = replaceSpan(node.span, field.name);
    reporter.report(
      'field-case-mismatch',
      node.span,
      `field ${quoteText(node.name)} is spelled ${quoteText(field.name)} in the schema`,
      fix === undefined ? { suggestion: field.name } : { suggestion: field.name, fix },
    );
  }
  if (use === 'filter' && !field.filterable) {
    reporter.report(
      'not-filterable',
      node.span,
      `field ${quoteText(field.name)} cannot be used in a filter: the schema marks it not filterable`,
    );
    return undefined;
  }
  if (use === 'sort' && !field.sortable) {
    reporter.report('not-sortable', node.span, `field ${quoteText(field.name)} cannot be used in a sort: the schema marks it not sortable`);
    return undefined;
  }
  return field;
}
