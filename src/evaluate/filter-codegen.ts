/**
 * The code-generating back end: emits one JavaScript function per filter
 * with `new Function`, which the engine then optimises like hand-written
 * code. No user text ever reaches the source: values live in a constants
 * array (`k0`, `k1`, …), and a field name is spliced only as a
 * `JSON.stringify` literal after it has been checked to be an identifier
 * (`[A-Za-z_][A-Za-z0-9_]*`, the schema's rule); any other path is read by a
 * helper from the constants array.
 */
import { recordDatetime } from './datetime.js';
import type { RecordPredicate } from './options.js';
import type { PlanNode, PlanTest, PlanValue } from './plan.js';
import { isFieldHolder, readField } from '../schema/read-field.js';
import { isIdentifier } from '../ast/lexical.js';
import type { PositiveRelation } from '../ast/operator-facts.js';
import type { TextPosition } from '../ast/operators.js';

const JS_RELATIONS: Readonly<Record<PositiveRelation, string>> = { '=': '===', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };
const STRING_METHODS: Readonly<Record<TextPosition, string>> = { contains: 'includes', starts: 'startsWith', ends: 'endsWith' };

/** Lists up to this long compare with a chain of `===`; longer ones use a Set. */
const CHAIN_LIMIT = 8;

const EMPTY_RECORD: object = Object.freeze(Object.create(null) as object);

class Emitter {
  readonly constants: unknown[] = [];

  constant(value: unknown): string {
    this.constants.push(value);
    return `k${this.constants.length - 1}`;
  }

  /** An expression reading the raw value of a path from `r` (a field holder). */
  read(path: readonly string[]): string {
    if (path.length === 1 && isIdentifier(path[0]!)) {
      const key = JSON.stringify(path[0]);
      // `plain`: see plainRead in read-field.ts — a load instead of a call when the record is a plain object.
      return `(plain && !(${key} in OP) || hasOwn(r, ${key}) ? r[${key}] : undefined)`;
    }
    return `read(r, ${this.constant([...path])})`;
  }

  /** An expression that stores the typed value in `v` and is true when it is not null. */
  present(test: PlanTest): string {
    const raw = this.read(test.path);
    switch (test.type) {
      case 'string':
        return `typeof (v = ${raw}) === "string"`;
      case 'number':
        return `isFin(v = ${raw})`;
      case 'integer':
        return `isSafe(v = ${raw})`;
      case 'boolean':
        return `typeof (v = ${raw}) === "boolean"`;
      case 'datetime':
        return `(v = dt(${raw})) === v`;
    }
  }

  membership(values: readonly PlanValue[]): string {
    if (values.length === 0) return 'false';
    if (values.length <= CHAIN_LIMIT) return `(${values.map((x) => `v === ${this.constant(x)}`).join(' || ')})`;
    return `${this.constant(new Set(values))}.has(v)`;
  }

  /** The positive test on a non-null `v` (ast/operator-facts.ts); undefined for a null check. */
  check(test: PlanTest): string | undefined {
    const k = (): string => this.constant(test.value);
    const facts = test.facts;
    switch (facts.test.kind) {
      case 'compare':
        return `v ${JS_RELATIONS[facts.test.relation]} ${k()}`;
      case 'text':
        return `v.${STRING_METHODS[facts.test.position]}(${k()})`;
      case 'member':
        return this.membership(test.values);
      case 'present':
        return undefined;
    }
  }

  test(test: PlanTest): string {
    const present = this.present(test);
    const { negated, nullMatches } = test.facts;
    const positive = this.check(test);
    if (positive === undefined) return negated ? `!(${present})` : `(${present})`;
    const written = negated ? `!(${positive})` : positive;
    const check = test.fold ? `(v = v.toLowerCase(), ${written})` : `(${written})`;
    // docs/reference.md §"Filter semantics": the facts say whether null satisfies the operator.
    return nullMatches ? `(!(${present}) || ${check})` : `(${present} && ${check})`;
  }

  node(node: PlanNode): string {
    if (node.kind === 'test') return this.test(node);
    if (node.children.length === 0) return node.kind === 'all' ? 'true' : 'false';
    return `(${node.children.map((child) => this.node(child)).join(node.kind === 'all' ? ' && ' : ' || ')})`;
  }
}

/**
 * The source text a plan compiles to, and its constants. Exposed for tests
 * and for curious readers; `codegenPredicate` is what callers use.
 *
 * @example
 * generateFilterSource(plan).source; // '"use strict"; const k0 = K[0]; return function wepqlFilter(r) { … }'
 */
export function generateFilterSource(plan: PlanNode): { readonly source: string; readonly constants: readonly unknown[] } {
  const emitter = new Emitter();
  const body = emitter.node(plan);
  const bindings = emitter.constants.map((_, i) => `k${i} = K[${i}]`);
  const source = [
    '"use strict";',
    bindings.length > 0 ? `const ${bindings.join(', ')};` : '',
    'return function wepqlFilter(r) {',
    '  if (!isHolder(r)) r = EMPTY;',
    '  const p = getProto(r), plain = p === OP || p === null;',
    '  let v;',
    `  return ${body};`,
    '};',
  ].join('\n');
  return { source, constants: emitter.constants };
}

type Factory = (...args: unknown[]) => RecordPredicate;
/** Most distinct filter shapes whose generated factories are kept (oldest dropped first). */
const FACTORY_CACHE_SIZE = 256;
const factoryCache = new Map<string, Factory>();

let codegenAllowed: boolean | undefined;

/**
 * Whether this environment lets code be generated (`new Function` throws
 * under a Content-Security-Policy without `unsafe-eval`). Checked once.
 *
 * @example
 * canGenerateCode(); // true in Node
 */
export function canGenerateCode(): boolean {
  if (codegenAllowed === undefined) {
    try {
      codegenAllowed = new Function('return true')() === true;
    } catch {
      codegenAllowed = false;
    }
  }
  return codegenAllowed;
}

/**
 * Builds a predicate from a plan by generating code. Throws whatever
 * `new Function` throws when code generation is forbidden.
 *
 * @example
 * const matches = codegenPredicate(plan);
 * matches({ LastName: 'Smith' });
 */
export function codegenPredicate(plan: PlanNode): RecordPredicate {
  const { source, constants } = generateFilterSource(plan);
  // Constants stay out of the source, so filters of one shape share a source
  // text: reuse its factory instead of asking the engine to parse it again.
  let factory = factoryCache.get(source);
  if (factory === undefined) {
    factory = new Function('K', 'hasOwn', 'read', 'isHolder', 'EMPTY', 'isFin', 'isSafe', 'dt', 'getProto', 'OP', source) as Factory;
    if (factoryCache.size >= FACTORY_CACHE_SIZE) factoryCache.delete(factoryCache.keys().next().value as string);
    factoryCache.set(source, factory);
  }
  return factory(
    constants,
    Object.hasOwn,
    readField,
    isFieldHolder,
    EMPTY_RECORD,
    Number.isFinite,
    Number.isSafeInteger,
    recordDatetime,
    Object.getPrototypeOf,
    Object.prototype,
  );
}
