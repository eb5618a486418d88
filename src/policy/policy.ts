/**
 * Per-endpoint policies: on top of a schema, which fields one endpoint lets
 * clients filter (and with which operators), which it lets them sort, and
 * tighter caps. A policy only takes away: what the schema refuses stays
 * refused. Definitions are plain JSON-shaped data so they can live in a file
 * (`wepql lint --policy policy.json`).
 */
import type { FilterOperator } from '../ast/operators.js';
import { operatorInfo } from '../ast/operators.js';
import type { Limits } from '../diagnostics/limits.js';
import type { Schema } from '../schema/schema.js';

/**
 * What one field may do on the endpoint.
 *
 * @example
 * const ssn: FieldRule = { filter: ['Equal'], sort: false }; // only Ssn.Equal(…), never sorted
 */
export interface FieldRule {
  /** `false`: may not be filtered; a list: only these operators (as written, so `EqualInFields` is its own entry). Default `true`. */
  readonly filter?: boolean | readonly FilterOperator[];
  /** `false`: may not be sorted. Default `true`. */
  readonly sort?: boolean;
}

/**
 * The caps a policy may tighten (the smaller of the policy's and the handler's applies).
 *
 * @example
 * const caps: PolicyCaps = { maxConditions: 10, maxListValues: 50, maxDepth: 2 };
 */
export type PolicyCaps = Partial<
  Pick<Limits, 'maxConditions' | 'maxListValues' | 'maxDepth' | 'maxInFields' | 'maxSortKeys' | 'maxLength'>
>;

/**
 * A policy as written (in code or in a JSON file).
 *
 * @example
 * const definition: PolicyDefinition = { fields: { Ssn: { filter: ['Equal'], sort: false } }, caps: { maxConditions: 10 } };
 */
export interface PolicyDefinition {
  /** Rules by field name (the schema's dotted path; any case). */
  readonly fields?: Readonly<Record<string, FieldRule>>;
  /** Fields without a rule: `allow` (default) leaves them to the schema, `deny` refuses filtering and sorting on them. */
  readonly otherFields?: 'allow' | 'deny';
  readonly caps?: PolicyCaps;
}

/**
 * A checked policy, bound to the schema it was defined against.
 *
 * @example
 * const policy: Policy = definePolicy({ fields: { Ssn: { filter: ['Equal'], sort: false } } }, employeeSchema);
 */
export interface Policy {
  readonly schema: Schema;
  /** The rule of a field by its schema name; a field without a rule gets the `otherFields` default. */
  ruleOf(fieldName: string): ResolvedFieldRule;
  readonly caps: PolicyCaps;
  readonly definition: PolicyDefinition;
}

/**
 * A field's rule with defaults filled in.
 *
 * @example
 * definePolicy({ fields: { Ssn: { filter: ['Equal'] } } }, employeeSchema).ruleOf('Ssn'); // { filter: Set {'Equal'}, sort: true }
 */
export interface ResolvedFieldRule {
  /** `true`: any operator the schema allows; `false`: none; a set: only these. */
  readonly filter: boolean | ReadonlySet<FilterOperator>;
  readonly sort: boolean;
}

/**
 * Thrown by `definePolicy` for a definition that cannot be a policy.
 *
 * @example
 * try { definePolicy({ fields: { Nope: { sort: false } } }, employeeSchema); } catch (e) { (e as PolicyDefinitionError).path; } // 'fields.Nope'
 */
export class PolicyDefinitionError extends Error {
  /** Where in the definition the problem is, such as `fields.Ssn.filter[0]`. */
  readonly path: string;
  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = 'PolicyDefinitionError';
    this.path = path;
  }
}

const CAP_KEYS = ['maxConditions', 'maxListValues', 'maxDepth', 'maxInFields', 'maxSortKeys', 'maxLength'] as const;
const ALLOW: ResolvedFieldRule = Object.freeze({ filter: true, sort: true });
const DENY: ResolvedFieldRule = Object.freeze({ filter: false, sort: false });

/**
 * Checks a policy definition against a schema: every field must be a field
 * of the schema, every operator one of the language's, every cap a whole
 * number ≥ 0. Reads own properties only, so a definition parsed from
 * untrusted JSON cannot reach the prototype chain.
 *
 * @example
 * const policy = definePolicy({ fields: { Ssn: { filter: ['Equal'], sort: false } } }, employeeSchema);
 * handleListRequest(input, { source, schema: employeeSchema, codec, route, policy });
 */
export function definePolicy(definition: PolicyDefinition, schema: Schema): Policy {
  if (!isRecord(definition)) throw new PolicyDefinitionError('(root)', 'a policy must be an object');
  for (const key of Object.keys(definition)) {
    if (key !== 'fields' && key !== 'otherFields' && key !== 'caps')
      throw new PolicyDefinitionError(key, 'unknown key (expected fields, otherFields or caps)');
  }
  const rules = new Map<string, ResolvedFieldRule>();
  const fields = own(definition, 'fields');
  if (fields !== undefined) {
    if (!isRecord(fields)) throw new PolicyDefinitionError('fields', 'must be an object of field rules');
    for (const name of Object.keys(fields)) {
      const at = `fields.${name}`;
      const hit = schema.lookup(name);
      if (hit.found !== 'field')
        throw new PolicyDefinitionError(at, hit.found === 'object' ? 'names an object, not a field' : 'is not a field of the schema');
      if (rules.has(hit.field.name)) throw new PolicyDefinitionError(at, `repeats the rule of ${hit.field.name}`);
      rules.set(hit.field.name, fieldRule(own(fields, name), at));
    }
  }
  const other = own(definition, 'otherFields') ?? 'allow';
  if (other !== 'allow' && other !== 'deny') throw new PolicyDefinitionError('otherFields', 'must be "allow" or "deny"');
  const caps = readCaps(own(definition, 'caps'));
  const fallback = other === 'deny' ? DENY : ALLOW;
  return Object.freeze({
    schema,
    caps,
    definition,
    ruleOf: (fieldName: string) => rules.get(fieldName) ?? fallback,
  });
}

function fieldRule(rule: unknown, at: string): ResolvedFieldRule {
  if (!isRecord(rule)) throw new PolicyDefinitionError(at, 'must be an object such as { "filter": ["Equal"], "sort": false }');
  for (const key of Object.keys(rule))
    if (key !== 'filter' && key !== 'sort') throw new PolicyDefinitionError(`${at}.${key}`, 'unknown key (expected filter or sort)');
  const filter = own(rule, 'filter') ?? true;
  const sort = own(rule, 'sort') ?? true;
  if (typeof sort !== 'boolean') throw new PolicyDefinitionError(`${at}.sort`, 'must be true or false');
  if (typeof filter === 'boolean') return Object.freeze({ filter, sort });
  if (!Array.isArray(filter)) throw new PolicyDefinitionError(`${at}.filter`, 'must be true, false or a list of operators');
  const allowed = new Set<FilterOperator>();
  filter.forEach((op: unknown, i) => {
    if (operatorInfo(op) === undefined)
      throw new PolicyDefinitionError(
        `${at}.filter[${i}]`,
        `${JSON.stringify(op)} is not an operator (write it as in the language, such as "Equal")`,
      );
    allowed.add(op as FilterOperator);
  });
  return Object.freeze({ filter: allowed, sort });
}

function readCaps(caps: unknown): PolicyCaps {
  if (caps === undefined) return Object.freeze({});
  if (!isRecord(caps)) throw new PolicyDefinitionError('caps', 'must be an object');
  const out: Record<string, number> = {};
  for (const key of Object.keys(caps)) {
    if (!(CAP_KEYS as readonly string[]).includes(key))
      throw new PolicyDefinitionError(`caps.${key}`, `unknown cap (expected one of ${CAP_KEYS.join(', ')})`);
    const v = own(caps, key);
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
      throw new PolicyDefinitionError(`caps.${key}`, 'must be a whole number ≥ 0');
    out[key] = v;
  }
  return Object.freeze(out);
}

/**
 * The limits to analyse with: the handler's, each tightened to the policy's cap where it has one.
 *
 * @example
 * policyLimits({ maxConditions: 100 }, definePolicy({ caps: { maxConditions: 10 } }, employeeSchema)); // { maxConditions: 10 }
 */
export function policyLimits(limits: Partial<Limits> | undefined, policy: Policy | undefined): Partial<Limits> | undefined {
  if (policy === undefined || Object.keys(policy.caps).length === 0) return limits;
  const out: Record<string, number> = { ...limits };
  for (const key of CAP_KEYS) {
    const cap = policy.caps[key];
    if (cap === undefined) continue;
    const current = limits !== undefined && Object.hasOwn(limits, key) ? limits[key] : undefined;
    out[key] = current === undefined ? cap : Math.min(current, cap);
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function own(o: object, key: string): unknown {
  return Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}
