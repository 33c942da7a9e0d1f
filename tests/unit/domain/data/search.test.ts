import { describe, expect, it } from 'vitest';
import { column, key } from '../../../../domain/data/columns.js';
import { defineModel } from '../../../../domain/data/model.js';
import { fts5ColumnQuery, relevanceClasses, tsClassQuery } from '../../../../domain/data/search.js';

type Column = 'a' | 'b' | 'c' | 'd' | 'e';
const model = (search: readonly string[]) =>
  defineModel('notes', { id: key.integer(), a: column.string(), b: column.string(), c: column.string(), d: column.string(), e: column.string() }, { search: search as readonly Column[] });

describe('relevance counted the same on both engines', () => {
  it.each([
    [['a'], [{ label: 'A', columns: ['a'], weight: 2 }]],
    [['a', 'b'], [{ label: 'A', columns: ['a'], weight: 4 }, { label: 'B', columns: ['b'], weight: 2 }]],
    [
      // PostgreSQL has four weight labels: the fourth and later columns share the last one.
      ['a', 'b', 'c', 'd', 'e'],
      [
        { label: 'A', columns: ['a'], weight: 16 },
        { label: 'B', columns: ['b'], weight: 8 },
        { label: 'C', columns: ['c'], weight: 4 },
        { label: 'D', columns: ['d', 'e'], weight: 2 },
      ],
    ],
  ])('search columns %j make the classes %j (earlier weigh more, every class more than matching at all)', (search, classes) => {
    expect(relevanceClasses(model(search))).toEqual(classes);
  });

  it('asks each engine for the words inside one class only', () => {
    expect(fts5ColumnQuery(['d', 'e'], ['mug', 'blue'])).toBe('{d e} : ("mug"* "blue"*)');
    expect(tsClassQuery(['mug', 'blue'], 'B')).toBe('mug:*B & blue:*B');
  });
});
