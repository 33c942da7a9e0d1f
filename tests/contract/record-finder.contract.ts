import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordFinder } from '../../ports/record-finder.js';

export interface PostRow {
  slug: string;
  team_id: number;
  deleted: boolean;
}

/**
 * A finder over two empty tables: `posts` (integer `id`, `slug`, `team_id`, `deleted_at`;
 * on PostgreSQL `id` is a 32-bit `serial`) and `things` (`id` a UUID: the `uuid` type on
 * PostgreSQL, text on SQLite; `name`).
 */
export interface FinderUnderTest {
  finder: RecordFinder;
  /** Inserts a post and returns its id. */
  addPost: (post: PostRow) => Promise<number>;
  addThing: (id: string, name: string) => Promise<void>;
}

export type FreshFinder = () => Promise<FinderUnderTest>;

/** What every `RecordFinder` must do, on the in-memory adapter and both SQL engines. */
export function recordFinderContract(name: string, fresh: FreshFinder): void {
  describe(`RecordFinder contract: ${name}`, () => {
    let finder: RecordFinder;
    let addPost: FinderUnderTest['addPost'];
    let addThing: FinderUnderTest['addThing'];

    beforeEach(async () => {
      ({ finder, addPost, addThing } = await fresh());
    });

    it('finds nothing in an empty table', async () => {
      expect(await finder.findOne({ table: 'posts', where: { id: 1 } })).toBeNull();
    });

    it('finds a row by its key, given as a number or its decimal text, with its columns', async () => {
      await addPost({ slug: 'first', team_id: 1, deleted: false });
      const id = await addPost({ slug: 'second', team_id: 1, deleted: false });
      for (const value of [id, String(id)]) {
        const row = await finder.findOne({ table: 'posts', where: { id: value } });
        expect(row?.['slug']).toBe('second');
        expect(String(row?.['id'])).toBe(String(id));
      }
      expect(await finder.findOne({ table: 'posts', where: { id: id + 1000 } })).toBeNull();
    });

    it('needs every condition: a scope column, and IS NULL for null', async () => {
      const live = await addPost({ slug: 'live', team_id: 1, deleted: false });
      const gone = await addPost({ slug: 'gone', team_id: 1, deleted: true });
      expect(await finder.findOne({ table: 'posts', where: { id: live, team_id: 1, deleted_at: null } })).not.toBeNull();
      expect(await finder.findOne({ table: 'posts', where: { id: live, team_id: 2 } })).toBeNull();
      expect(await finder.findOne({ table: 'posts', where: { id: gone, deleted_at: null } })).toBeNull();
      expect(await finder.findOne({ table: 'posts', where: { id: gone } })).not.toBeNull();
    });

    it('finds a row by a text column, exactly', async () => {
      await addPost({ slug: 'hello-world', team_id: 1, deleted: false });
      expect((await finder.findOne({ table: 'posts', where: { slug: 'hello-world' } }))?.['slug']).toBe('hello-world');
      expect(await finder.findOne({ table: 'posts', where: { slug: 'hello' } })).toBeNull();
      expect(await finder.findOne({ table: 'posts', where: { slug: '%' } })).toBeNull();
    });

    it('finds by a UUID key, and a value no UUID column can hold is no row', async () => {
      const id = '0b9f7c2e-4a51-4b8e-9d3c-2f6a1e8b7c90';
      await addThing(id, 'widget');
      expect((await finder.findOne({ table: 'things', where: { id } }))?.['name']).toBe('widget');
      expect(await finder.findOne({ table: 'things', where: { id: 'not-a-uuid' } })).toBeNull();
      expect(await finder.findOne({ table: 'things', where: { id: 'ffffffff-4a51-4b8e-9d3c-2f6a1e8b7c90' } })).toBeNull();
    });

    it('a number past the column range, or text against an integer column, is no row', async () => {
      await addPost({ slug: 'only', team_id: 1, deleted: false });
      expect(await finder.findOne({ table: 'posts', where: { id: 2 ** 40 } })).toBeNull();
      expect(await finder.findOne({ table: 'posts', where: { id: 'abc' } })).toBeNull();
    });

    it.each([
      ['a table', { table: 'posts; DROP TABLE posts', where: { id: 1 } }],
      ['a table', { table: 'Posts', where: { id: 1 } }],
      ['a column', { table: 'posts', where: { 'id OR 1=1': 1 } }],
      ['a column', { table: 'posts', where: { id: 1, 'deleted-at': null } }],
      ['no condition', { table: 'posts', where: {} }],
    ])('refuses %s that is not plain with a TypeError (%j)', async (_what, query) => {
      await expect(finder.findOne(query)).rejects.toThrow(TypeError);
    });

    it('fails on a table that does not exist', async () => {
      await expect(finder.findOne({ table: 'no_such_table', where: { id: 1 } })).rejects.toThrow();
    });

    it('treats SQL-looking input as a plain value', async () => {
      await addPost({ slug: "o'brien", team_id: 1, deleted: false });
      for (const value of ["' OR '1'='1", "x' OR 1=1 --", "'; DROP TABLE posts; --", '1 OR 1=1']) {
        expect(await finder.findOne({ table: 'posts', where: { slug: value } })).toBeNull();
      }
      expect((await finder.findOne({ table: 'posts', where: { slug: "o'brien" } }))?.['slug']).toBe("o'brien");
    });
  });
}
