import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryPasswordResetTokens } from '../../adapters/persistence/memory/in-memory-password-reset-tokens.js';
import { SqlPasswordResetTokens } from '../../adapters/persistence/mikro-orm/sql-password-reset-tokens.js';
import type { PasswordResetTokens } from '../../ports/password-reset-tokens.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase } from '../support/migrated-database.js';
import { freshUsers } from '../support/seed-users.js';

const T0 = new Date('2026-03-01T12:00:00.000Z');

function contract(name: string, fresh: () => Promise<{ tokens: PasswordResetTokens; users: [number, number] }>): void {
  describe(`PasswordResetTokens contract: ${name}`, () => {
    let tokens: PasswordResetTokens;
    let ada: number;
    let bob: number;
    beforeEach(async () => {
      const made = await fresh();
      tokens = made.tokens;
      [ada, bob] = made.users;
    });

    it('consumes the matching token once and gives its time', async () => {
      await tokens.put(ada, 'hash-a', T0);
      expect(await tokens.consume(ada, 'hash-x')).toBeNull();
      expect((await tokens.consume(ada, 'hash-a'))?.getTime()).toBe(T0.getTime());
      expect(await tokens.consume(ada, 'hash-a')).toBeNull();
    });

    it('keeps one token per user: a new one replaces the old', async () => {
      await tokens.put(ada, 'old', T0);
      await tokens.put(ada, 'new', new Date(T0.getTime() + 1000));
      await tokens.put(bob, 'old', T0);
      expect(await tokens.consume(ada, 'old')).toBeNull();
      expect((await tokens.consume(ada, 'new'))?.getTime()).toBe(T0.getTime() + 1000);
      expect(await tokens.consume(bob, 'old')).not.toBeNull();
    });

    it('lets only one of two concurrent uses of a token succeed', async () => {
      await tokens.put(ada, 'once', T0);
      const results = await Promise.all([tokens.consume(ada, 'once'), tokens.consume(ada, 'once'), tokens.consume(ada, 'once')]);
      expect(results.filter((result) => result !== null)).toHaveLength(1);
    });
  });
}

contract('in memory', () => Promise.resolve({ tokens: new InMemoryPasswordResetTokens(), users: [1, 2] }));

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(engine.name, () => {
    const db = useMigratedDatabase(engine);
    contract(`SQL on ${engine.name}`, async () => {
      const users = await freshUsers(db().raw, ['ada@example.com', 'bob@example.com'], ['password_reset_tokens']);
      return { tokens: new SqlPasswordResetTokens(db().raw), users };
    });
  });
}
