import type { Configuration } from '@mikro-orm/core';
import { AbstractSqlDriver, BetterSqliteConnection, BetterSqliteKnexDialect, BetterSqlitePlatform } from '@mikro-orm/better-sqlite';
import { loadSqliteBinding } from './sqlite-binding.js';

/** MikroORM's better-sqlite3 dialect, loading the build of better-sqlite3 this Node line runs safely. */
class NodeLineSqliteDialect extends BetterSqliteKnexDialect {
  override _driver(): unknown {
    return loadSqliteBinding();
  }
}

class NodeLineSqliteConnection extends BetterSqliteConnection {
  override createKnex(): void {
    // knex takes a client class where MikroORM's types say a name.
    this.client = this.createKnexClient(NodeLineSqliteDialect as unknown as string);
    this.connected = true;
  }
}

/**
 * MikroORM's BetterSqliteDriver, except for which better-sqlite3 it loads: see sqlite-binding.ts
 * (better-sqlite3 11 aborts Node 24 when a statement is garbage collected).
 */
export class NodeLineSqliteDriver extends AbstractSqlDriver<NodeLineSqliteConnection> {
  constructor(config: Configuration) {
    super(config, new BetterSqlitePlatform(), NodeLineSqliteConnection, ['knex', 'better-sqlite3']);
  }
}
