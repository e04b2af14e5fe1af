// OpenCode's SQLite store (`opencode.db`, `opencode-<channel>.db`, since v1.2), read read-only with
// a busy timeout. A database that still cannot be read (locked, corrupt, not a database) is
// reported as unreadable for this scan; better-sqlite3 is loaded only when a database is present.
import type BetterSqlite3 from 'better-sqlite3';
import { asObject, type JsonObject } from '../../json/narrow.js';
import { openRegular } from '../../fs/read-open.js';
import { errorCode, errorMessage } from '../../fs/errors.js';
import { sqliteDatabase } from '../sqlite-store.js';
import type { FileProblem } from '../types.js';
import { sessionFromRow, type OcSession } from './model.js';
import type { OcRows } from './rows.js';

/** How long a read waits for a writer's lock before the database is reported unreadable. */
export const defaultBusyTimeoutMs = 2000;

/** A database file name OpenCode writes: `opencode.db`, or `opencode-<channel>.db`. */
export const databaseName = /^opencode(?:-[A-Za-z0-9._-]+)?\.db$/;

async function openReadOnly(path: string, busyTimeoutMs: number): Promise<BetterSqlite3.Database> {
  // SQLite opens without O_NONBLOCK: a FIFO named like a database would block it forever.
  const { handle } = await openRegular(path);
  await handle.close();
  const Database = sqliteDatabase();
  return new Database(path, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
}

/** Runs `read` on a read-only connection that is always closed afterwards. */
async function withDatabase<T>(path: string, busyTimeoutMs: number, read: (db: BetterSqlite3.Database) => T): Promise<T> {
  const db = await openReadOnly(path, busyTimeoutMs);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function rowsOf(values: unknown[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const v of values) {
    const row = asObject(v);
    if (row !== undefined) out.push(row);
  }
  return out;
}

/** The problem a failed read becomes, with what to do about it. */
export function databaseProblem(path: string, error: unknown): FileProblem {
  const code = errorCode(error) ?? '';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return {
      path,
      kind: 'unreadable',
      reason: `database is locked by a running OpenCode (${errorMessage(error)}); scan again when it is idle`,
    };
  }
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return { path, kind: 'unreadable', reason: `not a readable SQLite database (${errorMessage(error)})` };
  }
  return { path, kind: 'unreadable', reason: `cannot read the OpenCode database: ${errorMessage(error)}` };
}

/** Every session row's identity (no messages). Throws what better-sqlite3 throws. */
export function listDatabaseSessions(path: string, busyTimeoutMs: number): Promise<OcSession[]> {
  return withDatabase(path, busyTimeoutMs, (db) => {
    const sessions: OcSession[] = [];
    for (const row of rowsOf(db.prepare('SELECT * FROM session').all())) {
      const s = sessionFromRow(row);
      if (s !== undefined) sessions.push(s);
    }
    return sessions;
  });
}

const subtree =
  'WITH RECURSIVE tree(id) AS (SELECT id FROM session WHERE id = ? UNION SELECT s.id FROM session s JOIN tree t ON s.parent_id = t.id)';

/**
 * The part columns a summary reads, `data` as its raw bytes so long outputs can be cut before they
 * are decoded (summary-cut.ts). Only where the database stores text as UTF-8 (asked in the query,
 * evaluated once): a cast of UTF-16 text to a blob would hand on UTF-16 bytes.
 */
const partBytes =
  "SELECT id, message_id, session_id, CASE WHEN (SELECT encoding FROM pragma_encoding) = 'UTF-8' THEN CAST(data AS BLOB) ELSE data END AS data FROM part";

/**
 * The rows of one session and every session it launched (children, grandchildren…), in order.
 * `partDataBytes`: parts' `data` comes as a Buffer of UTF-8 (when the database's text is UTF-8).
 */
export function loadDatabaseRows(path: string, rootId: string, busyTimeoutMs: number, partDataBytes = false): Promise<OcRows> {
  return withDatabase(path, busyTimeoutMs, (db) => {
    const parts = partDataBytes ? partBytes : 'SELECT * FROM part';
    // One read transaction, so a writer cannot slip a half-written step between the three reads.
    return db.transaction(() => ({
      sessions: rowsOf(
        db.prepare(`${subtree} SELECT * FROM session WHERE id IN (SELECT id FROM tree) ORDER BY time_created, id`).all(rootId),
      ),
      messages: rowsOf(
        db.prepare(`${subtree} SELECT * FROM message WHERE session_id IN (SELECT id FROM tree) ORDER BY time_created, id`).all(rootId),
      ),
      parts: rowsOf(db.prepare(`${subtree} ${parts} WHERE session_id IN (SELECT id FROM tree) ORDER BY id`).all(rootId)),
    }))();
  });
}
