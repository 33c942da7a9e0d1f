import { describe } from 'vitest';
import { InMemoryUserRepository } from '../../adapters/persistence/memory/in-memory-user-repository.js';
import { MikroOrmUserRepository } from '../../adapters/persistence/mikro-orm/mikro-orm-user-repository.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase } from '../support/migrated-database.js';
import { userRepositoryContract } from './user-repository.contract.js';

userRepositoryContract('in-memory', () => Promise.resolve(new InMemoryUserRepository()));

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(engine.name, () => {
    const db = useMigratedDatabase(engine);
    userRepositoryContract(`MikroORM on ${engine.name}`, async () => {
      await db().raw.session((sql) => sql.exec('DELETE FROM users'));
      return new MikroOrmUserRepository(db().orm, db().raw);
    });
  });
}
