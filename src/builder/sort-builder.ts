/**
 * The typed sort builder: `orderBy<Employee>('LastName', 'asc')` names only
 * the record type's scalar paths, and `thenBy` adds further keys in
 * priority order (docs/reference.md §"Sort grammar", §"Sort semantics").
 */
import type { SortAst, SortItemNode } from '../ast/nodes.js';
import { NO_SPAN } from '../ast/nodes.js';
import type { SortDirection } from '../ast/operators.js';
import type { PrintOptions } from '../print/printer.js';
import { printSort } from '../print/printer.js';
import type { FieldPath, FieldTypesFor } from './field-types.js';
import { builderError, builtField } from './values.js';

/**
 * A direction as the builder accepts it: lower case or the canonical spelling.
 *
 * @example
 * orderBy<Employee>('LastName', 'desc'); // 'LastName=Desc'
 */
export type SortDirectionInput = 'asc' | 'desc' | SortDirection;

/**
 * An immutable sort over records of type `T`: keys in priority order.
 *
 * @example
 * const s: Sort<Employee> = orderBy<Employee>('LastName').thenBy('Id', 'desc');
 * s.toString(); // 'LastName=Asc;Id=Desc'
 */
export interface Sort<T, M = {}> {
  /** Adds a lower-priority key; the direction defaults to ascending. */
  thenBy(field: FieldPath<T, M>, direction?: SortDirectionInput): Sort<T, M>;
  /** The keys so far. */
  readonly items: readonly SortItemNode[];
  /** The syntax tree, with `NO_SPAN` spans. */
  toAst(): SortAst;
  /** The canonical text (`printSort`): `LastName=Asc;CreatedOn=Desc`. */
  toString(options?: PrintOptions): string;
}

function direction(input: unknown): SortDirection {
  if (input === undefined || input === 'asc' || input === 'Asc') return 'Asc';
  if (input === 'desc' || input === 'Desc') return 'Desc';
  return builderError('invalid-direction', `a sort direction must be 'asc' or 'desc', got ${JSON.stringify(input) ?? String(input)}`);
}

class BuiltSort {
  readonly items: readonly SortItemNode[];

  constructor(items: readonly SortItemNode[]) {
    this.items = items;
  }

  thenBy(field: unknown, dir?: unknown): BuiltSort {
    const item: SortItemNode = {
      kind: 'sort-item',
      field: builtField(field),
      direction: direction(dir),
      explicitDirection: true,
      span: NO_SPAN,
    };
    return new BuiltSort([...this.items, item]);
  }

  toAst(): SortAst {
    return { kind: 'sort', items: this.items, span: NO_SPAN };
  }

  toString(options?: PrintOptions): string {
    return printSort(this.toAst(), options);
  }
}

/**
 * Starts a sort with its first key; `direction` defaults to ascending.
 * Only paths of `T` with a known scalar kind are accepted.
 *
 * @example
 * orderBy<Employee>('LastName', 'asc').thenBy('CreatedOn', 'desc').toString();
 * // 'LastName=Asc;CreatedOn=Desc'
 */
export function orderBy<T, M extends FieldTypesFor<T, M> = {}>(field: FieldPath<T, M>, direction?: SortDirectionInput): Sort<T, M> {
  return new BuiltSort([]).thenBy(field, direction) as unknown as Sort<T, M>;
}

/**
 * True when a value is a sort built by `orderBy()`.
 *
 * @example
 * isBuiltSort(orderBy<Employee>('Id')); // true
 */
export function isBuiltSort(value: unknown): value is Sort<unknown, {}> {
  return value instanceof BuiltSort;
}
