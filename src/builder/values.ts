/**
 * Run-time half of the builder's value handling: JavaScript values become
 * the text the language reads (docs/reference.md §"Types and values"), field paths are
 * checked, and every
 * value node is quoted exactly as the printer would write it so that a built
 * tree equals the tree parsed from its own text.
 */
import type { FieldNode, ValueNode } from '../ast/nodes.js';
import { NO_SPAN } from '../ast/nodes.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { WepqlError } from '../diagnostics/error.js';
import type { ValuePosition } from '../print/quote.js';
import { needsQuoting } from '../print/quote.js';
// A leaf with no imports of its own, so the builder still depends only downwards.
import { hasInvalidCharacter, IDENTIFIER_RULE, isIdentifier, quoteValue } from '../ast/lexical.js';
import type { ScalarType } from '../schema/values.js';
import { instantOf } from '../schema/values.js';
import { convertValueText } from '../validate/convert-value.js';

/**
 * Throws a `WepqlError` carrying one diagnostic with no source range (a
 * built tree has no source).
 *
 * @example
 * builderError('invalid-value', 'a number value must be finite'); // throws
 */
export function builderError(code: DiagnosticCode, message: string): never {
  throw new WepqlError(message, [{ code, severity: 'error', message, start: 0, end: 0 }]);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Date) return 'an invalid Date';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : String(value);
}

/**
 * The language text of a JavaScript value: strings as they are, finite
 * numbers by `String` (whose output the number grammar always accepts:
 * `1e+21`, `1e-7`, `-0` → `0`), booleans as `true`/`false`, dates by
 * `toISOString()`. Throws `WepqlError` for NaN, ±Infinity, invalid dates,
 * dates outside years 0–9999, text with U+0000 or an unpaired surrogate, and
 * anything that is not one of those four types; `where` names the operator
 * in the message.
 *
 * @example
 * valueToText(1e21, 'Salary.Equal');                        // '1e+21'
 * valueToText(new Date(Date.UTC(2024, 0, 1)), 'BirthOn.Equal'); // '2024-01-01T00:00:00.000Z'
 * valueToText(NaN, 'Salary.Equal');                         // throws WepqlError (invalid-value)
 */
export function valueToText(value: unknown, where: string): string {
  switch (typeof value) {
    case 'string':
      if (hasInvalidCharacter(value)) {
        builderError('invalid-character', `${where}: the value contains U+0000 or an unpaired surrogate, which databases reject`);
      }
      return value;
    case 'number':
      if (!Number.isFinite(value)) {
        builderError('invalid-value', `${where}: a number value must be finite, got ${String(value)}`);
      }
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      if (value instanceof Date) {
        const time = instantOf(value);
        if (time === undefined) {
          builderError('invalid-value', `${where}: the Date is invalid or out of range; datetimes lie in the years 0001 to 9999`);
        }
        return new Date(time).toISOString();
      }
      return builderError('invalid-value', `${where}: expected a string, finite number, boolean or Date, got ${describe(value)}`);
  }
}

/**
 * `valueToText`, then, when the field's type is known (the builder was given
 * a schema), the text read as that type by the validator's own reader
 * (`convertValueText`), so the builder refuses exactly the values validation
 * would refuse, with the same reason. Throws `WepqlError` (`invalid-value`,
 * `integer-out-of-range`).
 *
 * @example
 * checkedValueText('2024-01-31', 'datetime', 'BirthOn.GreaterThan'); // '2024-01-31'
 * checkedValueText('yesterday', 'datetime', 'BirthOn.GreaterThan');  // throws WepqlError (invalid-value)
 */
export function checkedValueText(value: unknown, type: ScalarType | undefined, where: string): string {
  const text = valueToText(value, where);
  if (type === undefined) return text;
  const read = convertValueText(text, type);
  if (!read.ok) builderError(read.code, `${where}: ${describe(text)} is not a valid ${type}: ${read.reason}`);
  return text;
}

/**
 * A value node for built trees, quoted exactly when the printer would quote
 * it so that parsing the printed text gives back an equal node.
 *
 * @example
 * builtValue("O'Brien", 'argument'); // { kind: 'value', value: "O'Brien", quoted: true, raw: "'O''Brien'", span }
 */
export function builtValue(text: string, position: ValuePosition): ValueNode {
  const quoted = needsQuoting(text, position);
  return { kind: 'value', value: text, quoted, raw: quoted ? quoteValue(text) : text, span: NO_SPAN };
}

/**
 * A field node for a dotted path, checked against the field path rule of docs/reference.md
 * §"Lexical rules". Throws `WepqlError` (`invalid-field-path`) for anything else,
 * which the types prevent but plain JavaScript callers may still pass.
 *
 * @example
 * builtField('Address.Zip'); // { kind: 'field', path: ['Address', 'Zip'], name: 'Address.Zip', span }
 */
export function builtField(path: unknown): FieldNode {
  if (typeof path !== 'string') {
    return builderError('invalid-field-path', `a field path must be a string, got ${describe(path)}`);
  }
  const segments = path.split('.');
  for (const segment of segments) {
    if (!isIdentifier(segment)) {
      builderError('invalid-field-path', `${describe(path)} is not a field path: each dot-separated segment must match ${IDENTIFIER_RULE}`);
    }
  }
  return { kind: 'field', path: segments, name: path, span: NO_SPAN };
}
