/** What the peers bench (peers.bench.ts) and its servers (peers.server.ts) share. */

export const SERVER_KINDS = ['fw', 'hapi', 'hapi-stack', 'express-memory', 'express-sqlite', 'fastify', 'fastify-secured', 'better-auth'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

/** What the parent hears once the server listens. */
export interface ReadyMessage {
  url: string;
}

/** The answer to 'stats': CPU time so far (all threads, Argon2's too) and memory, bytes. */
export interface StatsMessage {
  cpu: NodeJS.CpuUsage;
  rss: number;
  /** The highest RSS so far (kB → bytes). */
  maxRss: number;
  /** V8's heap: committed, and live (after a GC, for 'gc'). */
  heapTotal: number;
  heapUsed: number;
}

/** The bench's users: `bench<n>@example.com`, all with PASSWORD. */
export const BENCH_USERS = 8;
export const PASSWORD = 'correct horse battery staple';
export const benchEmail = (n: number): string => `bench${n}@example.com`;
export const benchName = (n: number): string => `Bench User ${n}`;
