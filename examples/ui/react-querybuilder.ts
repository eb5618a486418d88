/**
 * react-querybuilder and wepql (docs/sdk.md, "From user interfaces"): the
 * `<QueryBuilder>` configuration from the schema, a saved filter opened in
 * the builder, and the builder's query sent back as the API's filter text.
 * In your own package, import from 'wepql/querybuilder' and
 * 'wepql' instead of the relative paths.
 */
import type { RuleGroupType } from '@react-querybuilder/core';
import { fromRuleGroup, queryBuilderConfig, toRuleGroup } from '../../src/react-querybuilder/index.js';
import { employeeSchema } from '../../src/index.js';

// <QueryBuilder {...config} query={query} onQueryChange={setQuery} listsAsArrays />
const config = queryBuilderConfig(employeeSchema);
console.log(
  config.fields
    .find((f) => f.name === 'EePortal')!
    .operators.map((o) => o.label)
    .join(' '),
);

// A saved filter, opened in the builder.
const saved = 'LastName.StartsWith(Sm);Or(Gender.Equal(1);Gender.IsNull())';
const query = toRuleGroup(saved, { schema: employeeSchema }).ruleGroup!;
console.log(JSON.stringify(query.rules[1]));

// The user adds a rule; the query goes back to the API as text.
const edited: RuleGroupType = { ...query, rules: [...query.rules, { field: 'ClientId', operator: 'in', value: [1, 2] }] };
console.log(fromRuleGroup(edited, { schema: employeeSchema }).filter);

// What wepql cannot say is a diagnostic at the rule's path, never dropped.
const negated: RuleGroupType = {
  combinator: 'and',
  rules: [{ combinator: 'or', not: true, rules: [{ field: 'Gender', operator: '=', value: 1 }] }],
};
const { filter, diagnostics } = fromRuleGroup(negated, { schema: employeeSchema });
console.log(filter, diagnostics.map((d) => `${d.code} at [${d.path.join(',')}]`).join('; '));
