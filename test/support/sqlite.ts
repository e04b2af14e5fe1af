// Writing the databases fixtures describe: a read-write connection for one write, closed after it.
import Database from 'better-sqlite3';

/** Runs `write` on a connection to `path` (created when missing) and closes it, as a writer that then exits does. */
export function withWriter<T>(path: string, write: (db: Database.Database) => T): T {
  const db = new Database(path);
  try {
    return write(db);
  } finally {
    db.close();
  }
}
