/**
 * The playground's visual builder: a react-querybuilder `<QueryBuilder>`
 * configured from the schema by `wepql/querybuilder`, editing the same
 * filter as the CodeMirror box. A change in the builder writes its text into
 * the box (so the box's diagnostics are the builder's too); a change in the
 * box that reads as a valid filter is shown in the builder. Rules with a
 * problem are marked in the builder by react-querybuilder's own validation
 * classes, from the diagnostics' paths. Written without JSX, so the page's
 * TypeScript needs no JSX settings.
 */
import { createElement, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryBuilder } from 'react-querybuilder';
import type { RuleGroupType, RuleType, ValidationMap } from 'react-querybuilder';
import type { Schema } from '../../src/index.js';
import type { ModelDiagnostic } from '../../src/react-querybuilder/index.js';
import { QUERY_BUILDER_OPERATOR_NAMES, fromRuleGroup, queryBuilderConfig, toRuleGroup } from '../../src/react-querybuilder/index.js';

// The operator a new rule starts with: one that keeps every row.
const NEW_RULE_OPERATOR = QUERY_BUILDER_OPERATOR_NAMES.IsNotNull;

/**
 * What the page calls on the builder: show a filter text typed in the box.
 *
 * @example
 * const builder = mountVisualBuilder(host, { schema, onText: (t) => setBoxText(t), onDiagnostics: show });
 * builder.showText('Gender.IsNull()');
 */
export interface VisualBuilder {
  showText(text: string): void;
}

interface Bridge {
  setQuery?: (query: RuleGroupType) => void;
  /** A query shown before the component mounted. */
  pending?: RuleGroupType;
  /** The last text the builder wrote into the box, so its echo does not rebuild the builder. */
  lastWritten?: string;
}

// The id of the rule or group at a react-querybuilder path, for its validation map.
function idAt(query: RuleGroupType, path: readonly (string | number)[]): string | undefined {
  let node: RuleGroupType | RuleGroupType['rules'][number] = query;
  for (const step of path) {
    if (typeof step !== 'number' || !('rules' in node)) return undefined;
    const next: RuleGroupType['rules'][number] | undefined = node.rules[step];
    if (next === undefined || typeof next === 'string') return undefined;
    node = next;
  }
  return node.id;
}

function validationMap(query: RuleGroupType, diagnostics: readonly ModelDiagnostic[]): ValidationMap {
  const map: ValidationMap = {};
  for (const d of diagnostics) {
    if (d.severity !== 'error') continue;
    const id = idAt(query, d.path);
    if (id !== undefined) map[id] = { valid: false, reasons: [d.message] };
  }
  return map;
}

/**
 * Renders the builder into `host`. `onText` receives the text to put in the
 * filter box whenever the builder changes; `onDiagnostics` the builder's
 * diagnostics (with their paths) for the page to list.
 *
 * @example
 * mountVisualBuilder(document.getElementById('builder')!, { schema: employeeSchema, onText, onDiagnostics });
 */
export function mountVisualBuilder(
  host: HTMLElement,
  options: { schema: Schema; onText(text: string): void; onDiagnostics(diagnostics: readonly ModelDiagnostic[]): void },
): VisualBuilder {
  const { schema } = options;
  const config = queryBuilderConfig(schema);
  const bridge: Bridge = {};

  function Builder(): ReturnType<typeof createElement> {
    const [query, setQuery] = useState<RuleGroupType>(bridge.pending ?? { combinator: 'and', rules: [] });
    useEffect(() => {
      bridge.setQuery = setQuery;
      if (bridge.pending !== undefined) setQuery(bridge.pending);
    }, []);
    // QueryBuilder is generic over its field and operator types; createElement cannot infer them, so its props are spelled here.
    return createElement(QueryBuilder as unknown as (props: Record<string, unknown>) => ReturnType<typeof createElement>, {
      ...config,
      query,
      listsAsArrays: true,
      // Only a person's edits write to the box; showing the box's filter must not rewrite it.
      enableMountQueryChange: false,
      // A rule's type decides its value: a new field starts from that field's default rather than the last one's value.
      resetOnFieldChange: true,
      // A new rule starts as "is not null" on its field (Id.IsNotNull() for the first field, whose Id is never null),
      // which keeps every employee, instead of Equal('') — no match at all until a value is typed.
      onAddRule: (rule: RuleType) => ({ ...rule, operator: NEW_RULE_OPERATOR, value: '' }),
      validator: (q: RuleGroupType) => validationMap(q as RuleGroupType, fromRuleGroup(q as RuleGroupType, { schema }).diagnostics),
      onQueryChange: (next: RuleGroupType) => {
        setQuery(next);
        const result = fromRuleGroup(next, { schema });
        options.onDiagnostics(result.diagnostics);
        const text = result.filter ?? result.text;
        bridge.lastWritten = text;
        options.onText(text);
      },
    });
  }

  createRoot(host).render(createElement(Builder));
  return {
    showText(text: string): void {
      if (text === bridge.lastWritten) return;
      const { ruleGroup } = toRuleGroup(text, { schema });
      // Text with errors leaves the builder as it was; the box shows why.
      if (ruleGroup === undefined) return;
      bridge.lastWritten = undefined;
      options.onDiagnostics([]);
      bridge.pending = ruleGroup;
      bridge.setQuery?.(ruleGroup);
    },
  };
}
