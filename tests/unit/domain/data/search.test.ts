import { describe, expect, it } from 'vitest';
import { column, key } from '../../../../domain/data/columns.js';
import { defineModel } from '../../../../domain/data/model.js';
import { everyWordInFirstClassDecides, firstClassDecides, fts5AllOf, fts5AnyColumnQuery, fts5ColumnQuery, relevanceClasses, searchMigrationSql, tsClassQuery } from '../../../../domain/data/search.js';

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

  it('narrows FTS5 queries as FTS5 reads them: any word in some columns, every one of several queries', () => {
    expect(fts5AnyColumnQuery(['a'], ['mug', 'blue'])).toBe('{a} : ("mug"* OR "blue"*)');
    expect(fts5AllOf(['"mug"*', '{a} : ("mug"*)'])).toBe('("mug"*) AND ({a} : ("mug"*))');
  });

  it.each([1, 2, 3, 4, 5])('the first class decides the ranking exactly when every row holding a word there outranks every other row (%i search columns)', (count) => {
    const classes = relevanceClasses(model(['a', 'b', 'c', 'd', 'e'].slice(0, count)));
    for (let words = 1; words <= 4; words++) {
      // Every row that matches every word: each word sits in a non-empty set of classes.
      const subsets = Array.from({ length: 2 ** classes.length - 1 }, (_, n) => n + 1);
      let inside = Infinity;
      let outside = -Infinity;
      const visit = (left: number, score: number, first: boolean): void => {
        if (left === 0) {
          if (first) inside = Math.min(inside, score);
          else outside = Math.max(outside, score);
          return;
        }
        for (const subset of subsets) {
          const weight = classes.reduce((sum, each, index) => sum + ((subset >> index) & 1) * each.weight, 0);
          visit(left - 1, score + weight, first || (subset & 1) === 1);
        }
      };
      visit(words, 0, false);
      expect(firstClassDecides(classes, words), `${classes.length} classes, ${words} words`).toBe(classes.length > 1 && inside > outside);
    }
  });
  it.each([1, 2, 3, 4, 5])('every word in the first class and one in the second decides the ranking exactly when that tier outranks every other row and "every word in the second" orders it (%i search columns)', (count) => {
    const classes = relevanceClasses(model(['a', 'b', 'c', 'd', 'e'].slice(0, count)));
    for (let words = 1; words <= 4; words++) {
      // Every row that matches every word: each word sits in a non-empty set of classes.
      const subsets = Array.from({ length: 2 ** classes.length - 1 }, (_, n) => n + 1);
      const outside: number[] = [];
      const inTier = { all: [] as number[], notAll: [] as number[] };
      const visit = (left: number, score: number, allFirst: boolean, anyOther: boolean, allOther: boolean): void => {
        if (left === 0) {
          if (classes.length === 2 && allFirst && anyOther) (allOther ? inTier.all : inTier.notAll).push(score);
          else outside.push(score);
          return;
        }
        for (const subset of subsets) {
          const weight = classes.reduce((sum, each, index) => sum + ((subset >> index) & 1) * each.weight, 0);
          const other = (subset & ~1) !== 0;
          visit(left - 1, score + weight, allFirst && (subset & 1) === 1, anyOther || other, allOther && other);
        }
      };
      visit(words, 0, true, false, true);
      const tier = [...inTier.all, ...inTier.notAll];
      const exact =
        tier.length > 0 &&
        Math.min(...tier) > Math.max(...outside) &&
        new Set(inTier.all).size === 1 &&
        new Set(inTier.notAll).size <= 1 &&
        Math.min(...inTier.all) > Math.max(...inTier.notAll, -Infinity);
      expect(everyWordInFirstClassDecides(classes, words), `${classes.length} classes, ${words} words`).toBe(exact);
    }
  });
});

describe('the search migration and PostgreSQL name limit', () => {
  const named = (table: string) => defineModel(table, { id: key.integer(), a: column.string(), b: column.string() }, { search: ['a', 'b'] });
  it.each([
    ['a table name whose longest index name is 63 bytes', 'x'.repeat(63 - '_search_first_gin'.length), true],
    ['one byte longer, where PostgreSQL would cut two index names to one', 'x'.repeat(64 - '_search_first_gin'.length), false],
  ])('%s', (_, table, accepted) => {
    const make = () => searchMigrationSql(named(table), 'postgres');
    if (accepted) expect(make().up).toContain(`"${table}_search_first_gin"`);
    else expect(make).toThrow(expect.objectContaining({ code: 'data.search-name-too-long' }));
    // SQLite has no such limit.
    expect(searchMigrationSql(named(table), 'sqlite').up).toContain(`"${table}_search"`);
  });
  it('makes the title index only when it is missing, so an app that added it by hand still migrates a fresh database', () => {
    expect(searchMigrationSql(named('posts'), 'postgres').up).toContain('CREATE INDEX IF NOT EXISTS "posts_search_first_gin"');
  });
});
