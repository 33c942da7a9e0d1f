import type { RawSql } from '../../adapters/persistence/mikro-orm/raw-sql.js';

const AT = new Date('2026-03-01T12:00:00.000Z');

/**
 * Empties `tables` (children first) and `users`, then adds password-less users with these
 * addresses and returns their ids in order: the setup of the contract tests whose rows belong
 * to users.
 */
export function freshUsers<const E extends readonly string[]>(raw: RawSql, emails: E, tables: readonly string[] = []): Promise<{ -readonly [K in keyof E]: number }> {
  return raw.session(async (sql) => {
    await sql.exec([...tables, 'users'].map((table) => `DELETE FROM ${table};`).join(' '));
    const ids: number[] = [];
    for (const email of emails) {
      await sql.query('INSERT INTO users (name, email, password, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', ['Someone', email, null, AT, AT]);
      const [row] = await sql.query<{ id: number | string }>('SELECT id FROM users WHERE email = ?', [email]);
      // PostgreSQL returns a bigint as text.
      ids.push(Number(row?.id));
    }
    return ids as { -readonly [K in keyof E]: number };
  });
}
