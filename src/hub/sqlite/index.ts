// The hub store on SQLite: the embedded default for one person or a small team.
import { SqlStore } from '../sql-store.js';
import { SqliteDriver, type SqliteOptions } from './driver.js';
import { sqliteSearch } from './search.js';

/** Opens (creating when missing) the SQLite hub database at `path`; call `migrate()` before use. */
export function openSqliteStore(path: string, opts: SqliteOptions = {}): SqlStore {
  return new SqlStore(new SqliteDriver(path, opts), sqliteSearch);
}
