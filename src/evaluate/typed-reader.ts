/**
 * Reading a field of a record as its type (docs/reference.md §"Filter semantics"),
 * shared by the filter's
 * closures and the sort's keys so that both count the same values as null:
 * missing, inherited, `null`, or not of the field's type (a numeric string
 * in a number field, a fraction in an integer field, text that is not a
 * datetime). Strings come back lower-cased when `fold` is set, datetimes as
 * epoch milliseconds.
 */
import type { ScalarType } from '../schema/values.js';
import { recordDatetime } from './datetime.js';
import { fieldReader } from '../schema/read-field.js';

/**
 * A record value read as its field's type: text (folded when asked),
 * a number (datetimes as epoch ms) or a boolean; null when the value is
 * missing or does not convert.
 *
 * @example
 * const value: TypedRecordValue = 'smith';
 */
export type TypedRecordValue = string | number | boolean;

/**
 * A reader for one field path that returns the value as the field's type,
 * or null.
 *
 * @example
 * const readName = typedFieldReader(['LastName'], 'string', true);
 * readName({ LastName: 'Smith' }); // 'smith'
 * readName({ LastName: 42 });      // null
 */
export function typedFieldReader(path: readonly string[], type: ScalarType, fold: boolean): (record: unknown) => TypedRecordValue | null {
  const read = fieldReader(path);
  // One closure per type (and fold), so each stays monomorphic for the engine.
  switch (type) {
    case 'string':
      return fold
        ? (r) => {
            const v = read(r);
            return typeof v === 'string' ? v.toLowerCase() : null;
          }
        : (r) => {
            const v = read(r);
            return typeof v === 'string' ? v : null;
          };
    case 'number':
      return (r) => {
        const v = read(r);
        return Number.isFinite(v) ? (v as number) : null;
      };
    case 'integer':
      return (r) => {
        const v = read(r);
        return Number.isSafeInteger(v) ? (v as number) : null;
      };
    case 'boolean':
      return (r) => {
        const v = read(r);
        return typeof v === 'boolean' ? v : null;
      };
    case 'datetime':
      return (r) => {
        const t = recordDatetime(read(r));
        return t === t ? t : null;
      };
  }
}
