import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FRAMEWORK_ROOT } from '../../../composition/app.js';
import { useTempDir } from '../../support/databases.js';
import { createTestDatabase } from '../../support/postgres-server.js';
import type { TestDatabase } from '../../support/postgres-server.js';
import { deleteRedisKeys, redisAvailable, redisUrl } from '../../support/redis-server.js';
import { runTwoServers, spawnServer } from '../../support/server-process.js';
import type { ServerProcess } from '../../support/server-process.js';

/**
 * Two real server processes of one app, counting one client on one shared store, must
 * together allow exactly the limit: the counter is shared, and concurrent requests at the
 * limit never slip through between reading and writing it.
 */

const FIXTURE = join(FRAMEWORK_ROOT, 'tests', 'support', 'fixtures', 'throttled-app.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const LIMIT = 25;
const REQUESTS_PER_SERVER = 100;
/** Each case takes 5–10 s here, nearly all of it two cold starts through tsx; room for a busy CI. */
const TIMEOUT = 30_000;

const tempDir = useTempDir('fw-shared-limit-');
const postgresServer = inject('postgresUrl');
const redisUp = await redisAvailable();

type Server = ServerProcess;

/**
 * A window span (seconds) whose current window has more than two minutes left, so no window
 * boundary falls inside the test: at a boundary the count rightly starts again, which would
 * let more than the limit through in one test.
 */
function spanWithTimeLeft(): number {
  for (let span = 3600; ; span++) {
    const spanMs = span * 1000;
    if (spanMs - (Date.now() % spanMs) > 120_000) return span;
  }
}

function startServer(name: string, env: Record<string, string>): Promise<Server> {
  return spawnServer(join(tempDir(), name), ['--import', TSX, FIXTURE], env, 60_000);
}

/** Both servers at once, alternating, all requests in flight together. */
async function flood(servers: Server[], path: string): Promise<Response[]> {
  const requests: Promise<Response>[] = [];
  for (let n = 0; n < REQUESTS_PER_SERVER; n++) for (const server of servers) requests.push(fetch(`${server.url}${path}`));
  return Promise.all(requests);
}

async function expectExactlyTheLimit(servers: Server[], path: string): Promise<void> {
  const answers = await flood(servers, path);
  const bodies = await Promise.all(answers.map((answer) => answer.text()));
  const statuses: Record<number, number> = {};
  for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  // Anything but 200 and 429 is a failure of its own; its body says which.
  const unexpected = answers.findIndex((answer) => answer.status !== 200 && answer.status !== 429);
  expect(statuses, unexpected === -1 ? '' : bodies[unexpected]).toEqual({
    200: LIMIT,
    429: servers.length * REQUESTS_PER_SERVER - LIMIT,
  });
  const allowed = answers.filter((answer) => answer.status === 200);
  const refused = answers.filter((answer) => answer.status === 429);
  for (const answer of refused) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(60);
  const remaining = allowed.map((answer) => Number(answer.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
  // Each allowed request saw its own count: remaining LIMIT-1 … 0, each once.
  expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
}

/**
 * Starts both, runs the check, and requires both to stop cleanly (exit 0 on SIGTERM, which a
 * connection left open would prevent). `together` starts them at once, which is safe where
 * migrations cannot collide (PostgreSQL's advisory lock, or a database per server); two first
 * starts on one SQLite file would both try to migrate it.
 */
async function withTwoServers(
  options: { together: boolean },
  env: (name: string) => Record<string, string>,
  check: (servers: Server[]) => Promise<void>,
): Promise<void> {
  await runTwoServers((name) => startServer(name, env(name)), options.together === true, check);
}

describe('two servers on one store allow exactly the limit', () => {
  const route = () => ({
    FIXTURE_PATH: `/limited/${randomBytes(6).toString('hex')}`,
    FIXTURE_LIMIT: String(LIMIT),
    FIXTURE_SPAN: String(spanWithTimeLeft()),
  });

  describe.skipIf(postgresServer === null)('CACHE_STORE=database on PostgreSQL', () => {
    let database: TestDatabase | null = null;
    beforeAll(async () => {
      if (postgresServer !== null) database = await createTestDatabase(postgresServer);
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('lets LIMIT requests through in all, the rest 429 with Retry-After', async () => {
      const settings = route();
      const url = database?.url ?? '';
      await withTwoServers(
        { together: true },
        () => ({ ...settings, CACHE_STORE: 'database', DATABASE_URL: url }),
        (servers) => expectExactlyTheLimit(servers, settings.FIXTURE_PATH),
      );
    }, TIMEOUT);
  });

  it('CACHE_STORE=database on one SQLite file: the same', async () => {
    const settings = route();
    const file = join(tempDir(), 'shared.sqlite');
    await withTwoServers(
      { together: false },
      () => ({ ...settings, CACHE_STORE: 'database', DATABASE_URL: `sqlite:${file}` }),
      (servers) => expectExactlyTheLimit(servers, settings.FIXTURE_PATH),
    );
  }, TIMEOUT);

  describe.skipIf(!redisUp)('CACHE_STORE=redis', () => {
    let counted = '';
    afterAll(async () => {
      if (counted !== '') await deleteRedisKeys('fw:', counted);
    });

    it('lets LIMIT requests through in all, with nothing shared but Redis', async () => {
      const settings = route();
      counted = settings.FIXTURE_PATH;
      await withTwoServers(
        { together: true },
        // A database of its own for each server: only Redis can carry the count across.
        (name) => ({ ...settings, CACHE_STORE: 'redis', REDIS_URL: redisUrl, DATABASE_URL: `sqlite:${join(tempDir(), `${name}.sqlite`)}` }),
        (servers) => expectExactlyTheLimit(servers, settings.FIXTURE_PATH),
      );
    }, TIMEOUT);
  });
});
