import { describe, expect, it, vi } from 'vitest';
import { MikroOrmUserRepository } from '../../adapters/persistence/mikro-orm/mikro-orm-user-repository.js';
import { SqlTransactions } from '../../adapters/persistence/mikro-orm/sql-transactions.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase } from '../support/migrated-database.js';

const at = new Date('2026-03-01T10:00:00.000Z');

/** A promise the test settles when it wants, to hold a transaction open. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Whether `promise` settled within a few turns of the event loop. */
async function settlesSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 30));
  return settled;
}

/**
 * The signed-in request's user lookup runs on SQLite's one pooled connection without borrowing
 * it when nobody holds it (raw-sql.ts `first`). These pin what that shortcut must never break:
 * a lookup made while a transaction holds the connection waits for it and never reads its
 * uncommitted rows, on every engine.
 */
for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`user lookup beside a transaction on ${engine.name}`, () => {
    const db = useMigratedDatabase(engine);

    async function freshUser(): Promise<{ users: MikroOrmUserRepository; id: number }> {
      await db().raw.session((sql) => sql.exec('DELETE FROM users'));
      const users = new MikroOrmUserRepository(db().orm, db().raw);
      const added = await users.add({ name: 'Committed', email: 'ada@example.com', passwordHash: null, emailVerifiedAt: null, sessionEpoch: 0, createdAt: at, updatedAt: at });
      if (added.kind !== 'added') throw new Error('the user was not added');
      return { users, id: added.user.id };
    }

    it('never sees a transaction’s uncommitted write, and on SQLite waits for the transaction to end', async () => {
      const { users, id } = await freshUser();
      const hold = gate();
      const written = gate();
      const transaction = new SqlTransactions(db().raw)
        .run(async (statements) => {
          await statements.query('UPDATE users SET name = ? WHERE id = ?', ['Uncommitted', id]);
          written.open();
          await hold.opened;
          throw new Error('rolled back on purpose');
        })
        .catch((error: unknown) => error);
      await written.opened;

      const lookup = users.findById(id);
      const byEmail = users.findByEmail('ada@example.com');
      if (engine.name === 'sqlite') {
        // The one connection is inside the transaction: the lookup queues for it.
        expect(await settlesSoon(lookup)).toBe(false);
      }
      hold.open();
      expect(((await transaction) as Error).message).toBe('rolled back on purpose');
      expect((await lookup)?.name).toBe('Committed');
      expect((await byEmail)?.name).toBe('Committed');
    });

    it('reads what a transaction committed once it has', async () => {
      const { users, id } = await freshUser();
      const hold = gate();
      const transaction = new SqlTransactions(db().raw).run(async (statements) => {
        await statements.query('UPDATE users SET session_epoch = session_epoch + 1 WHERE id = ?', [id]);
        await hold.opened;
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const lookup = users.findById(id);
      hold.open();
      await transaction;
      const found = await lookup;
      // SQLite: queued behind the transaction, it reads the commit. PostgreSQL: it ran on another connection, before or after.
      if (engine.name === 'sqlite') expect(found?.sessionEpoch).toBe(1);
      expect((await users.findById(id))?.sessionEpoch).toBe(1);
    });

    it('finds the user again and nobody when there is none', async () => {
      const { users, id } = await freshUser();
      expect((await users.findById(id))?.name).toBe('Committed');
      expect(await users.findById(id + 1000)).toBeNull();
      expect(await users.findByEmail('nobody@example.com')).toBeNull();
    });

    it.runIf(engine.name === 'sqlite')('looks up without borrowing the idle connection from the pool', async () => {
      const { users, id } = await freshUser();
      const connection = db().orm.em.getConnection() as unknown as { getKnex(): { client: { acquireConnection(): Promise<unknown> } } };
      const client = connection.getKnex().client;
      const acquire = vi.spyOn(client, 'acquireConnection');
      try {
        expect((await users.findById(id))?.name).toBe('Committed');
        expect(acquire).not.toHaveBeenCalled();
      } finally {
        acquire.mockRestore();
      }
    });

    it.runIf(engine.name === 'sqlite')('refuses a statement that writes', async () => {
      const before = await db().raw.first<{ n: number }>('SELECT count(*) AS n FROM users');
      await expect(db().raw.first('DELETE FROM users')).rejects.toMatchObject({ code: 'data.reads-only' });
      // Returns rows, yet writes: refused too.
      await expect(db().raw.first("INSERT INTO users (name, email, session_epoch, created_at, updated_at) VALUES ('x', 'reads-only@example.com', 0, 0, 0) RETURNING id")).rejects.toMatchObject({ code: 'data.reads-only' });
      // While the connection is lent (a transaction elsewhere), the queued path refuses as well.
      let queued: Promise<unknown> = Promise.resolve();
      await db().raw.session(async () => {
        queued = db().raw.first('DELETE FROM users').catch((error: unknown) => error);
        await expect(Promise.race([queued, new Promise((resolve) => setTimeout(() => resolve('waiting'), 50))])).resolves.toBe('waiting');
      });
      expect(await queued).toMatchObject({ code: 'data.reads-only' });
      expect(await db().raw.first<{ n: number }>('SELECT count(*) AS n FROM users')).toEqual(before);
    });
  });
}
