/**
 * A field as a schema resolved it: the part of a schema that a validated
 * tree (`typed-tree.ts`) carries, so the typed tree can live beside the
 * syntax tree while `schema/` builds the fields. `schema/schema.ts`
 * re-exports these types.
 */
import type { ScalarType } from './operators.js';

/**
 * Why a field is deprecated and what to use instead.
 *
 * @example
 * const d: DeprecationDefinition = { replacement: 'WorkEmail', reason: 'personal addresses are no longer collected' };
 */
export interface DeprecationDefinition {
  /** The field to use instead (the schema's spelling of its full path). */
  readonly replacement?: string;
  /** Free text shown in the warning. */
  readonly reason?: string;
}

/**
 * A scalar field with its full path and every flag resolved.
 *
 * @example
 * const zip: ResolvedField = schema.fields.find((f) => f.name === 'Address.Zip')!;
 * zip.path; // ['Address', 'Zip']
 */
export interface ResolvedField {
  /** The schema's spelling of the path, joined with `.`. */
  readonly name: string;
  /** The schema's spelling of each segment. */
  readonly path: readonly string[];
  readonly type: ScalarType;
  /** Whether the value may be null: the field is nullable, or an object on its path is. */
  readonly nullable: boolean;
  readonly filterable: boolean;
  readonly sortable: boolean;
  readonly description?: string;
  /** Earlier full paths of the field (see `ScalarFieldDefinition.renamedFrom`); absent when it was never renamed. */
  readonly renamedFrom?: readonly string[];
  /** Present when the field is deprecated. */
  readonly deprecated?: DeprecationDefinition;
}
