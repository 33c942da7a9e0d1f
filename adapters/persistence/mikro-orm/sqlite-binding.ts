import { createRequire } from 'node:module';

/**
 * Which better-sqlite3 build this Node line loads.
 *
 * better-sqlite3 up to 12.x wraps its objects in `node::ObjectWrap`. Node 24.19 made that header
 * register an environment cleanup hook per object and remove it in the destructor, which CHECKs
 * for a current Environment; when V8 collects an unreachable Statement (any GC once a few
 * thousand were prepared) there is none, and the process aborts with
 * `node::RemoveEnvironmentCleanupHook ... Assertion failed: (env) != nullptr`.
 * better-sqlite3 13 is a Node-API addon (node-addon-api, no `node::ObjectWrap`) and does not
 * crash, but it needs Node-API 10, which Node 20 lacks (it segfaults there). So Node-API 10
 * lines (22, 24 and later) load 13.x, installed under the alias `better-sqlite3-node-api`, and
 * Node 20 keeps 11.10.0, the release MikroORM 6.6.16 pins, built from source for that line.
 * Both read and write the same database files, and their JavaScript API is the same.
 */
export type SqliteBindingPackage = 'better-sqlite3-node-api' | 'better-sqlite3';

/** The first Node-API version better-sqlite3 13 runs on (it is compiled with NAPI_VERSION=10). */
const NODE_API_FOR_13 = 10;

export function sqliteBindingPackage(nodeApiVersion: number = Number(process.versions.napi)): SqliteBindingPackage {
  return nodeApiVersion >= NODE_API_FOR_13 ? 'better-sqlite3-node-api' : 'better-sqlite3';
}

/** The better-sqlite3 `Database` class, as far as fw and knex use it. */
export interface SqliteDatabaseClass {
  new (filename: string, options?: Record<string, unknown>): SqliteDatabaseHandle;
  readonly prototype: SqliteDatabaseHandle;
}

export interface SqliteDatabaseHandle {
  exec(sql: string): unknown;
  prepare(sql: string): { reader: boolean; readonly: boolean; all(...params: unknown[]): unknown[]; get(...params: unknown[]): unknown; run(...params: unknown[]): unknown };
  close(): unknown;
  /** Whether the database is open (false once closed). */
  readonly open: boolean;
  /** Whether a transaction is in progress on this connection (between BEGIN and COMMIT or ROLLBACK). */
  readonly inTransaction: boolean;
}

const require = createRequire(import.meta.url);

/** The `Database` class of the build for the running Node line (loaded once; require caches it). */
export function loadSqliteBinding(): SqliteDatabaseClass {
  return require(sqliteBindingPackage()) as SqliteDatabaseClass;
}
