// The hub store on PostgreSQL: several stateless hub processes over one database.
import { type DialectSql, SqlStore } from '../sql-store.js';
import { PostgresDriver, type PostgresOptions } from './driver.js';
import { postgresSearch } from './search.js';

const postgresSql: DialectSql = {
  search: postgresSearch,
  // As text, so the driver hands the string through instead of parsing it into objects.
  jsonObject: (fields) => `json_build_object(${fields.map(([key, expr]) => `'${key}', ${expr}`).join(', ')})::text`,
};

/** Opens a pool on the database; call `migrate()` before use. */
export async function openPostgresStore(opts: PostgresOptions): Promise<SqlStore> {
  const driver = new PostgresDriver(opts);
  if (opts.schema !== undefined) await driver.ensureSchema(opts.schema);
  return new SqlStore(driver, postgresSql);
}
