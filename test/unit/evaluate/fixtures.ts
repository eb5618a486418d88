/** The small schema the evaluator's unit tables use: one field of every type, all nullable. */
import { defineSchema } from '../../../src/index.js';

export const schema = defineSchema({
  fields: {
    S: { type: 'string', nullable: true },
    T: { type: 'string', nullable: true },
    N: { type: 'number', nullable: true },
    I: { type: 'integer', nullable: true },
    D: { type: 'datetime', nullable: true },
    E: { type: 'datetime', nullable: true },
    B: { type: 'boolean', nullable: true },
    constructor: { type: 'string', nullable: true },
    toString: { type: 'integer', nullable: true },
    Obj: { type: 'object', nullable: true, fields: { City: { type: 'string', nullable: true } } },
  },
});

export const STRATEGIES = ['codegen', 'closures'] as const;
