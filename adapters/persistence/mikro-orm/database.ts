import { DefaultLogger, MikroORM } from '@mikro-orm/core';
import type { LogContext, LoggerNamespace, LoggerOptions, Options } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Engine } from '../../../domain/migrations/migration-files.js';
import type { Secret } from '../../../domain/shared/secret.js';
import { NodeLineSqliteDriver } from './node-line-sqlite-driver.js';
import { RawSql } from './raw-sql.js';
import type { QueryObserver } from './raw-sql.js';
import { UserSchema } from './mappings/user-schema.js';

export type DatabaseSettings = { engine: 'sqlite'; path: string } | { engine: 'postgres'; url: Secret };

/** Every mapping of the framework's own tables; modules add theirs as they land. */
export const FRAMEWORK_SCHEMAS = [UserSchema];

/** One open database: the ORM for repositories, raw SQL for the migrator, and how to close both. */
export interface Database {
  readonly engine: Engine;
  readonly orm: MikroORM;
  readonly raw: RawSql;
  close(): Promise<void>;
}

/**
 * MikroORM's logger, telling `observer` of every statement the ORM runs. Only the statement's
 * text is asked for ('query', never 'query-params'), so bound values never reach it; nothing
 * is printed that the default logger would not print.
 */
class ObservedOrmLogger extends DefaultLogger {
  constructor(
    options: LoggerOptions,
    private readonly observer: QueryObserver,
  ) {
    super(options);
  }

  override isEnabled(namespace: LoggerNamespace, context?: LogContext): boolean {
    return namespace === 'query' || super.isEnabled(namespace, context);
  }

  override logQuery(context: LogContext): void {
    this.observer(context.query ?? '', context.params?.length ?? 0, context.took ?? 0);
  }
}

export interface DatabaseOptions {
  /** Told of every SQL statement (the local request inspector); none otherwise. */
  onQuery?: QueryObserver | undefined;
}

export async function openDatabase(settings: DatabaseSettings, options: DatabaseOptions = {}): Promise<Database> {
  const observer = options.onQuery;
  const common = {
    entities: FRAMEWORK_SCHEMAS,
    // The schema belongs to the SQL migrations; the ORM never creates or alters tables.
    ensureDatabase: false,
    allowGlobalContext: false,
    debug: false,
    discovery: { warnWhenNoEntities: false },
    ...(observer === undefined ? {} : { loggerFactory: (loggerOptions: LoggerOptions) => new ObservedOrmLogger(loggerOptions, observer) }),
  } satisfies Partial<Options>;

  const orm =
    settings.engine === 'sqlite'
      ? await MikroORM.init({ ...common, driver: NodeLineSqliteDriver, dbName: settings.path })
      : await MikroORM.init({
          ...common,
          driver: PostgreSqlDriver,
          clientUrl: settings.url.reveal(),
          pool: { min: 0, max: 10 },
        });
  const raw = new RawSql(settings.engine, orm, observer ?? null);
  if (settings.engine === 'sqlite') {
    // WAL lets readers work while a writer commits; the busy timeout makes a second process
    // (the CLI next to a running server) wait for the lock instead of failing at once. Reads go
    // through a memory map of up to 256 MiB: with SQLite's default 2 MiB page cache, every
    // count(*) of a 1 000 000-row table re-read its 9 000 index pages with a system call each
    // (130 ms; 0.3 ms mapped; docs/decisions.md 'Counting large tables on SQLite').
    await raw.session(async (sql) => {
      await sql.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON; PRAGMA mmap_size = 268435456;');
    });
  }
  return {
    engine: settings.engine,
    orm,
    raw,
    close: () => orm.close(true),
  };
}
