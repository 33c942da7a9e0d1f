import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryActivityLog } from '../../adapters/persistence/memory/in-memory-activity-log.js';
import { SqlActivityLog } from '../../adapters/persistence/mikro-orm/sql-activity-log.js';
import type { ActivityEntry, ActivityLog } from '../../ports/activity-log.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase } from '../support/migrated-database.js';

const T0 = new Date('2026-03-01T12:00:00.123Z');
const at = (minutes: number): Date => new Date(T0.getTime() + minutes * 60_000);

function entry(action: string, userId: number | null, minutes: number, data: Record<string, unknown> = {}): ActivityEntry {
  return { action, userId, data, ipAddress: '203.0.113.9', requestId: `req-${minutes}`, at: at(minutes) };
}

/** What every `ActivityLog` must do, on memory, SQLite and PostgreSQL. */
function activityLogContract(name: string, fresh: () => Promise<ActivityLog>): void {
  describe(`ActivityLog contract: ${name}`, () => {
    let log: ActivityLog;
    beforeEach(async () => {
      log = await fresh();
    });

    it('gives an entry back with every field, and its data as JSON round-trips it', async () => {
      const data = { provider: 'provider_a', nested: { list: [1, 'two', null, true] }, 'ünïcode': 'ok ✓', empty: '' };
      await log.record(entry('oauth.linked', 7, 0, data));
      await log.record({ action: 'oauth.login', userId: null, data: {}, ipAddress: null, requestId: null, at: at(1) });
      const [newest, older] = await log.recent({ limit: 10 });
      expect(newest).toEqual({ id: expect.any(Number) as number, action: 'oauth.login', userId: null, data: {}, ipAddress: null, requestId: null, at: at(1) });
      expect(older).toEqual({ ...entry('oauth.linked', 7, 0, data), id: expect.any(Number) as number });
      expect(older?.at.getTime()).toBe(T0.getTime());
      expect(newest?.id).not.toBe(older?.id);
    });

    it('lists newest first, filtered by user and by action, at most the limit', async () => {
      await log.record(entry('oauth.linked', 1, 0));
      await log.record(entry('oauth.login', 1, 5));
      await log.record(entry('oauth.linked', 2, 3));
      await log.record(entry('oauth.unlinked', 1, 2));
      const steps = (entries: { requestId: string | null }[]): (string | null)[] => entries.map((found) => found.requestId);
      expect(steps(await log.recent({ limit: 10 }))).toEqual(['req-5', 'req-3', 'req-2', 'req-0']);
      expect(steps(await log.recent({ userId: 1, limit: 10 }))).toEqual(['req-5', 'req-2', 'req-0']);
      expect(steps(await log.recent({ action: 'oauth.linked', limit: 10 }))).toEqual(['req-3', 'req-0']);
      expect(steps(await log.recent({ userId: 1, action: 'oauth.linked', limit: 10 }))).toEqual(['req-0']);
      expect(steps(await log.recent({ limit: 2 }))).toEqual(['req-5', 'req-3']);
      expect(await log.recent({ limit: 0 })).toEqual([]);
      expect(await log.recent({ userId: 99, limit: 10 })).toEqual([]);
    });

    it('puts the later written of two entries of one moment first', async () => {
      await log.record({ ...entry('first', 1, 0), requestId: 'first' });
      await log.record({ ...entry('second', 1, 0), requestId: 'second' });
      expect((await log.recent({ limit: 10 })).map((found) => found.action)).toEqual(['second', 'first']);
    });

    it('keeps what was recorded when the caller changes its object afterwards', async () => {
      const data: Record<string, unknown> = { provider: 'provider_a' };
      await log.record(entry('oauth.linked', 1, 0, data));
      data.provider = 'changed';
      const [found] = await log.recent({ limit: 1 });
      expect(found?.data).toEqual({ provider: 'provider_a' });
    });
  });
}

activityLogContract('in memory', () => Promise.resolve(new InMemoryActivityLog()));

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(engine.name, () => {
    const db = useMigratedDatabase(engine);
    activityLogContract(`SQL on ${engine.name}`, async () => {
      await db().raw.session((sql) => sql.exec('DELETE FROM activity_log'));
      return new SqlActivityLog(db().raw);
    });
  });
}
