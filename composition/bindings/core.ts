import { join } from 'node:path';
import { SystemClock } from '../../adapters/clock/system-clock.js';
import { MarkerFileSwitch } from '../../adapters/maintenance/marker-file-switch.js';
import { FetchHttpClient } from '../../adapters/outbound-http/fetch-http-client.js';
import type { Database } from '../../adapters/persistence/mikro-orm/database.js';
import { SqlFileMigrator } from '../../adapters/persistence/mikro-orm/sql-file-migrator.js';
import type { MigrationSource } from '../../adapters/persistence/mikro-orm/sql-file-migrator.js';
import { CryptoRandomSource } from '../../adapters/random/crypto-random-source.js';
import type { AppKeys } from '../../domain/security/app-keys.js';
import type { Clock } from '../../ports/clock.js';
import type { HttpClient } from '../../ports/http-client.js';
import type { Logger } from '../../ports/logger.js';
import type { MaintenanceSwitch } from '../../ports/maintenance-switch.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { SchemaMigrator } from '../../ports/schema-migrator.js';
import type { Config } from '../config.js';
import { provide, provideDefault, token } from './provide.js';
import type { Binding } from './provide.js';

/** What every area uses: settings, keys, log, time, randomness, the database and its migrations. */
export const CORE_TOKENS = {
  config: token<Config>('Config'),
  /** APP_KEY's derived keys (sessions, signed URLs, encrypted columns…), derived once at boot. */
  appKeys: token<AppKeys>('AppKeys'),
  logger: token<Logger>('Logger'),
  clock: token<Clock>('Clock'),
  random: token<RandomSource>('RandomSource'),
  database: token<Database>('Database'),
  migrationSources: token<readonly MigrationSource[]>('MigrationSources'),
  migrator: token<SchemaMigrator>('SchemaMigrator'),
  maintenance: token<MaintenanceSwitch>('MaintenanceSwitch'),
  /** Every outgoing HTTP call (providers); TestApp.fakeHttp swaps it. */
  httpClient: token<HttpClient>('HttpClient'),
} as const;

const T = CORE_TOKENS;

/** What boot opened or derived before the container: bound as they are. */
export interface CoreValues {
  logger: Logger;
  database: Database;
  migrationSources: readonly MigrationSource[];
}

export function coreArea(values: CoreValues) {
  return (binding: Binding): void => {
    const { container } = binding;
    container.bind(T.config).toConstantValue(binding.config);
    container.bind(T.appKeys).toConstantValue(binding.keys);
    container.bind(T.logger).toConstantValue(values.logger);
    container.bind(T.database).toConstantValue(values.database);
    container.bind(T.migrationSources).toConstantValue(values.migrationSources);
    provideDefault(binding, T.clock, [], () => new SystemClock());
    provide(container, T.random, [], () => new CryptoRandomSource());
    provideDefault(binding, T.httpClient, [], () => new FetchHttpClient());
    // The spec's marker file: every process of the app on this machine sees the same one.
    provide(container, T.maintenance, [T.config], (settings) => new MarkerFileSwitch(join(settings.root, 'storage', 'framework', 'down')));
    provide(container, T.migrator, [T.database, T.migrationSources, T.clock], (db, sources, clock) => new SqlFileMigrator(db.raw, sources, clock));
  };
}
