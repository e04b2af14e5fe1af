// The hub store on PostgreSQL: several stateless hub processes over one database.
import { SqlStore } from '../sql-store.js';
import { PostgresDriver, type PostgresOptions } from './driver.js';
import { postgresSearch } from './search.js';

/** Opens a pool on the database; call `migrate()` before use. */
export async function openPostgresStore(opts: PostgresOptions): Promise<SqlStore> {
  const driver = new PostgresDriver(opts);
  if (opts.schema !== undefined) await driver.ensureSchema(opts.schema);
  return new SqlStore(driver, postgresSearch);
}
