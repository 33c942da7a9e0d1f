import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordLookup } from '../../ports/record-lookup.js';

/** A lookup over an empty `users` table, and a way to add a user to that same table. */
export interface LookupUnderTest {
  lookup: RecordLookup;
  /** Inserts a user with this email and returns the new row's id. */
  addUser: (email: string) => Promise<number>;
}

export type FreshLookup = () => Promise<LookupUnderTest>;

/**
 * What every `RecordLookup` must do, run against the in-memory adapter and both SQL engines,
 * so `unique`/`exists` tested with the fake behave the same on a real database.
 */
export function recordLookupContract(name: string, fresh: FreshLookup): void {
  describe(`RecordLookup contract: ${name}`, () => {
    let lookup: RecordLookup;
    let addUser: (email: string) => Promise<number>;

    beforeEach(async () => {
      ({ lookup, addUser } = await fresh());
    });

    it('answers many lookups of one table in one call, each as exists would, in order', async () => {
      const ada = await addUser('ada@example.com');
      await addUser('grace@example.com');
      const email = (value: string | number) => ({ column: 'email', value });
      expect(await lookup.existsEach({ table: 'users', probes: [] })).toEqual([]);
      expect(await lookup.existsEach({ table: 'users', probes: ['grace@example.com', 'nobody@example.com', 'ada@example.com', "' OR '1'='1"].map(email) })).toEqual([true, false, true, false]);
      expect(
        await lookup.existsEach({
          table: 'users',
          probes: [
            { column: 'id', value: String(ada) },
            { column: 'id', value: ada + 1000 },
            { column: 'email', value: 'ada@example.com', ignore: { column: 'id', value: ada } },
            { column: 'email', value: 'grace@example.com', ignore: { column: 'id', value: ada } },
            { column: 'id', value: ada },
          ],
        }),
      ).toEqual([true, false, false, true, true]);
      await expect(lookup.existsEach({ table: 'users; DROP TABLE users', probes: [email('x')] })).rejects.toThrow(TypeError);
      await expect(lookup.existsEach({ table: 'users', probes: [email('x'), { column: 'e-mail', value: 'x' }] })).rejects.toThrow(TypeError);
    });

    it('answers a list longer than one statement takes', async () => {
      await addUser('user-7@example.com');
      await addUser('user-640@example.com');
      const probes = Array.from({ length: 700 }, (_, index) => ({ column: 'email', value: `user-${index}@example.com` }));
      const found = await lookup.existsEach({ table: 'users', probes });
      expect(found.flatMap((hit, index) => (hit ? [index] : []))).toEqual([7, 640]);
    });

    it('finds nothing in an empty table', async () => {
      expect(await lookup.exists({ table: 'users', column: 'email', value: 'ada@example.com' })).toBe(false);
    });

    it('finds a row by a text column, and only that value', async () => {
      await addUser('ada@example.com');
      expect(await lookup.exists({ table: 'users', column: 'email', value: 'ada@example.com' })).toBe(true);
      expect(await lookup.exists({ table: 'users', column: 'email', value: 'grace@example.com' })).toBe(false);
      expect(await lookup.exists({ table: 'users', column: 'email', value: 'ada@example' })).toBe(false);
      expect(await lookup.exists({ table: 'users', column: 'email', value: '%' })).toBe(false);
    });

    it('finds a row by id, given as a number or as its decimal text', async () => {
      const id = await addUser('ada@example.com');
      expect(await lookup.exists({ table: 'users', column: 'id', value: id })).toBe(true);
      expect(await lookup.exists({ table: 'users', column: 'id', value: String(id) })).toBe(true);
      expect(await lookup.exists({ table: 'users', column: 'id', value: id + 1000 })).toBe(false);
    });

    it('leaves out the ignored row, and only that one', async () => {
      const ada = await addUser('ada@example.com');
      const grace = await addUser('grace@example.com');
      const query = { table: 'users', column: 'email', value: 'ada@example.com' };
      expect(await lookup.exists({ ...query, ignore: { column: 'id', value: ada } })).toBe(false);
      expect(await lookup.exists({ ...query, ignore: { column: 'id', value: String(ada) } })).toBe(false);
      expect(await lookup.exists({ ...query, ignore: { column: 'id', value: grace } })).toBe(true);
    });

    it.each([
      ['table', { table: 'users; DROP TABLE users', column: 'email', value: 'x' }],
      ['table', { table: 'Users', column: 'email', value: 'x' }],
      ['table', { table: '', column: 'email', value: 'x' }],
      ['table', { table: '1users', column: 'email', value: 'x' }],
      ['table', { table: '"users"', column: 'email', value: 'x' }],
      ['column', { table: 'users', column: 'email OR 1=1', value: 'x' }],
      ['column', { table: 'users', column: 'e-mail', value: 'x' }],
      ['ignore column', { table: 'users', column: 'email', value: 'x', ignore: { column: 'id--', value: 1 } }],
    ])('refuses a %s name that is not a plain identifier with a TypeError (%j)', async (_what, query) => {
      await addUser('ada@example.com');
      await expect(lookup.exists(query)).rejects.toThrow(TypeError);
      expect(await lookup.exists({ table: 'users', column: 'email', value: 'ada@example.com' })).toBe(true);
    });

    it('fails on a table that does not exist', async () => {
      await expect(lookup.exists({ table: 'no_such_table', column: 'id', value: 1 })).rejects.toThrow();
    });

    it('treats SQL-looking input as a plain value', async () => {
      await addUser("o'brien@example.ie");
      await addUser('ada@example.com');
      for (const value of ["' OR '1'='1", "x' OR 1=1 --", "'; DROP TABLE users; --", '" OR ""="', '1 OR 1=1']) {
        expect(await lookup.exists({ table: 'users', column: 'email', value })).toBe(false);
        expect(await lookup.exists({ table: 'users', column: 'email', value: 'nobody', ignore: { column: 'email', value } })).toBe(false);
      }
      expect(await lookup.exists({ table: 'users', column: 'email', value: "o'brien@example.ie" })).toBe(true);
      expect(await lookup.exists({ table: 'users', column: 'email', value: 'ada@example.com' })).toBe(true);
    });
  });
}
