import { column, key } from '../../domain/data/columns.js';
import { defineModel } from '../../domain/data/model.js';

/** The row the race tests' processes fight over (`tests/support/race-worker.ts`). */
export const Counter = defineModel('counters', { id: key.integer(), name: column.string(), hits: column.integer() }, { timestamps: false });
