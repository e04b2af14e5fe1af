// The hub store on SQLite: the embedded default for one person or a small team.
import { type DialectSql, SqlStore } from '../sql-store.js';
import { SqliteDriver, type SqliteOptions } from './driver.js';
import { sqliteSearch } from './search.js';

const sqliteSql: DialectSql = {
  search: sqliteSearch,
  // json_object writes compact JSON, keys in the order given, integers as numbers.
  jsonObject: (fields) => `json_object(${fields.map(([key, expr]) => `'${key}', ${expr}`).join(', ')})`,
};

/** Opens (creating when missing) the SQLite hub database at `path`; call `migrate()` before use. */
export function openSqliteStore(path: string, opts: SqliteOptions = {}): SqlStore {
  return new SqlStore(new SqliteDriver(path, opts), sqliteSql);
}
