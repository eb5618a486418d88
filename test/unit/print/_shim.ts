export * from '../../../src/print/format.js';
export * from '../../../src/schema/schema.js';
export * from '../../../src/diagnostics/error.js';
export * from '../../../src/ast/nodes.js';
export * from '../../../src/ast/operators.js';
