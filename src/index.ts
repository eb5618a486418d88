/**
 * `wepql`: the core of the filter and sort language — parse, validate,
 * format, evaluate, lint — with schemas, schema diffs, per-endpoint
 * policies, diagnostics, the language services of editors and filter bars
 * (completion, hover, explain, highlighting), the schema's JSON Schema,
 * OpenAPI and TypeScript documents, and the employee schema the guides use.
 * SQL, the list contract, data sources, the client SDK and the server have
 * their own entries (`wepql/sql`, `wepql/list`, `wepql/sources`,
 * `wepql/sdk`, `wepql/server`), as has each framework and UI bridge.
 *
 * @packageDocumentation
 */

// Syntax trees and operators.
export type {
  Span,
  ValueNode,
  FieldNode,
  ComparisonNode,
  NullCheckNode,
  ListNode,
  InFieldsNode,
  GroupNode,
  ConditionNode,
  FilterNode,
  FilterAst,
  SortItemNode,
  SortAst,
  Node,
} from './ast/nodes.js';
export { NO_SPAN } from './ast/nodes.js';
export { FILTER_OPERATORS, SORT_DIRECTIONS, canonicalOperator, operatorKind } from './ast/operators.js';
export type { FilterOperator, OperatorKind, SortDirection } from './ast/operators.js';

// Diagnostics.
export { hasErrors, lineColumn } from './diagnostics/diagnostic.js';
export type { Diagnostic, Severity, TextEdit } from './diagnostics/diagnostic.js';
export { DIAGNOSTIC_CODES, codeInfo } from './diagnostics/codes.js';
export type { CodeInfo, DiagnosticCode, DiagnosticStage } from './diagnostics/codes.js';
export { DEFAULT_LIMITS } from './diagnostics/limits.js';
export type { Limits } from './diagnostics/limits.js';
export { WepqlError } from './diagnostics/error.js';
export { renderCodeFrame } from './diagnostics/code-frame.js';
export type { CodeFrameOptions } from './diagnostics/code-frame.js';

// Schemas.
export { SCALAR_TYPES } from './schema/values.js';
export type { ScalarType } from './schema/values.js';
export { SchemaDefinitionError, defineSchema } from './schema/schema.js';
export type {
  FieldDefinition,
  FieldLookup,
  ObjectFieldDefinition,
  ResolvedField,
  ScalarFieldDefinition,
  Schema,
  SchemaDefinition,
} from './schema/schema.js';
export { inferSchema } from './schema/infer.js';
export type { InferSchemaOptions } from './schema/infer.js';
export { loadSchemaJson } from './schema/load-schema.js';
export type { LoadSchemaResult } from './schema/load-schema.js';

// Parsing.
export { parseFilter } from './syntax/parse-filter.js';
export type { ParseFilterResult } from './syntax/parse-filter.js';
export { parseSort } from './syntax/parse-sort.js';
export type { ParseSortResult } from './syntax/parse-sort.js';
export type { ParseOptions } from './syntax/parse-options.js';

// Validation and typed trees.
export { validateFilter } from './validate/validate-filter.js';
export type { ValidateFilterResult, ValidateOptions } from './validate/validate-filter.js';
export { validateSort } from './validate/validate-sort.js';
export type { ValidateSortResult } from './validate/validate-sort.js';
export { analyzeFilter, analyzeFilterOrThrow, analyzeSort, analyzeSortOrThrow } from './validate/analyze.js';
export type { AnalyzeFilterResult, AnalyzeOptions, AnalyzeSortResult } from './validate/analyze.js';
export { isOperatorApplicable, operatorsForType } from './validate/applicability.js';
export type {
  TypedComparison,
  TypedFilter,
  TypedFilterNode,
  TypedGroup,
  TypedInFields,
  TypedList,
  TypedNullCheck,
  TypedScalar,
  TypedSort,
  TypedSortKey,
} from './ast/typed-tree.js';
export { assertNever, conditionsOf, foldClauses, foldFilter, matchFilterNode } from './ast/fold.js';
export type { FieldCondition, FieldOf, FilterTreeNode, FoldHandlers, MatchHandlers, NodeOfKind } from './ast/fold.js';

// Printing.
export { formatFilter, formatSort, printFilter, printSort, quoteValue } from './print/format.js';
export type { PrintOptions, ValuePosition } from './print/format.js';

// Evaluation.
export { compileFilter } from './evaluate/compile-filter.js';
export { compileSort, sortRecords } from './evaluate/compile-sort.js';
export { query } from './evaluate/query.js';
export type { EvaluateOptions, EvaluateStrategy, QueryOptions, RecordComparator, RecordPredicate } from './evaluate/options.js';

// Linting.
export { lintFilter } from './lint/semantic-rules.js';
export type { LintOptions } from './lint/semantic-rules.js';
export { fixText, lintText } from './lint/lint-text.js';
export type { LintKind, LintTextOptions } from './lint/lint-text.js';
export { findingToJson, toSarif } from './lint/report.js';
export type { LintFinding } from './lint/report.js';

// Schema evolution: saved filters across schema versions.
export { diffSchemas, describeChange, isBreaking, retypeImpact } from './schema/diff.js';
export type { RetypeImpact, SchemaChange, SchemaDiff } from './schema/diff.js';
export { evolutionDiagnostics, renameAwareSchema } from './lint/schema-evolution.js';
export { renameFields } from './lint/lint-text.js';

// Per-endpoint policies.
export { definePolicy, policyLimits, PolicyDefinitionError } from './policy/policy.js';
export type { FieldRule, Policy, PolicyCaps, PolicyDefinition, ResolvedFieldRule } from './policy/policy.js';
export { checkFilterPolicy, checkSortPolicy } from './policy/check-policy.js';

// Language services for editors and filter bars.
export { complete } from './language-service/complete.js';
export type { CompleteOptions, CompletionItem, CompletionKind, CompletionResult } from './language-service/complete.js';
export { explain } from './language-service/explain.js';
export type { ExplainOptions, ExplainResult } from './language-service/explain.js';
export { highlightTokens } from './language-service/tokens.js';
export type { HighlightOptions, HighlightToken, TokenKind } from './language-service/tokens.js';
export { hoverAt } from './language-service/hover.js';
export type { HoverInfo, HoverOptions } from './language-service/hover.js';

// API documents of a schema: OpenAPI, JSON Schema, TypeScript record types.
export { openApiFor } from './openapi/openapi.js';
export type { OpenApiDocument, OpenApiOptions, WepqlExtension, WepqlFieldInfo } from './openapi/openapi.js';
export { jsonSchemaFor, schemaFromJsonSchema } from './openapi/json-schema.js';
export type { FromJsonSchemaOptions, FromJsonSchemaResult, JsonSchema } from './openapi/json-schema.js';
export { recordTypeFor } from './openapi/record-type.js';
export type { RecordTypeOptions } from './openapi/record-type.js';

// The employee schema of the reference endpoint (GET …/employees), as the guides and the server use it.
export { employeeSchema, employeeSchemaDefinition } from './schema/employee-schema.js';
