// OpenCode's SQLite store (`opencode.db`, `opencode-<channel>.db`, since v1.2), read read-only with
// a busy timeout. A database that still cannot be read (locked, corrupt, not a database) is
// reported as unreadable for this scan; better-sqlite3 is loaded only when a database is present.
import type BetterSqlite3 from 'better-sqlite3';
import type { JsonObject } from '../../json/narrow.js';
import { databaseProblem as storeProblem, prepared, rowsOf, withReadOnlyDatabase } from '../sqlite-store.js';
import type { FileProblem } from '../types.js';
import { sessionFromRow, type OcSession } from './model.js';
import type { OcRows } from './rows.js';

/** How long a read waits for a writer's lock before the database is reported unreadable. */
export { defaultBusyTimeoutMs } from '../sqlite-store.js';

/** A database file name OpenCode writes: `opencode.db`, or `opencode-<channel>.db`. */
export const databaseName = /^opencode(?:-[A-Za-z0-9._-]+)?\.db$/;

/** The problem a failed read becomes, with what to do about it. */
export function databaseProblem(path: string, error: unknown): FileProblem {
  return storeProblem(path, error, 'OpenCode');
}

/** Every session row's identity (no messages). Throws what better-sqlite3 throws. */
export function listDatabaseSessions(path: string, busyTimeoutMs: number): Promise<OcSession[]> {
  return withReadOnlyDatabase(path, busyTimeoutMs, (db) => {
    const sessions: OcSession[] = [];
    for (const row of rowsOf(prepared(db, 'SELECT * FROM session').all())) {
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

type TreeRead = (rootId: string, partDataBytes: boolean) => OcRows;

/** Each connection's read of a session tree: better-sqlite3 builds a transaction's wrapper anew on every `transaction()` call. */
const treeReads = new WeakMap<BetterSqlite3.Database, TreeRead>();

/** Text below the surrogates, where JavaScript's string order is SQLite's BINARY order of its UTF-8 bytes. */
const plainId = (id: unknown): id is string => typeof id === 'string' && !/[\ud800-\uffff]/.test(id);

/**
 * Parts in `id` order. SQLite's `ORDER BY id` sorted whole rows, `data` and all: past the page cache
 * its sorter spilled to a temporary file (4,690 writes and as many reads back on the bench home),
 * so the rows come in index order and are sorted here, where their ids allow it (ids are unique).
 */
function partsInOrder(db: BetterSqlite3.Database, rootId: string, partDataBytes: boolean): JsonObject[] {
  const select = `${subtree} ${partDataBytes ? partBytes : 'SELECT * FROM part'} WHERE session_id IN (SELECT id FROM tree)`;
  const parts = rowsOf(prepared(db, select).all(rootId));
  if (!parts.every((p) => plainId(p.id))) return rowsOf(prepared(db, `${select} ORDER BY id`).all(rootId));
  return parts.sort((a, b) => ((a.id as string) < (b.id as string) ? -1 : 1));
}

function treeRead(db: BetterSqlite3.Database): TreeRead {
  let read = treeReads.get(db);
  if (read === undefined) {
    // One read transaction, so a writer cannot slip a half-written step between the reads.
    read = db.transaction(
      (rootId: string, partDataBytes: boolean): OcRows => ({
        sessions: rowsOf(
          prepared(db, `${subtree} SELECT * FROM session WHERE id IN (SELECT id FROM tree) ORDER BY time_created, id`).all(rootId),
        ),
        messages: rowsOf(
          prepared(db, `${subtree} SELECT * FROM message WHERE session_id IN (SELECT id FROM tree) ORDER BY time_created, id`).all(rootId),
        ),
        parts: partsInOrder(db, rootId, partDataBytes),
      }),
    );
    treeReads.set(db, read);
  }
  return read;
}

/**
 * The rows of one session and every session it launched (children, grandchildren…), in order.
 * `partDataBytes`: parts' `data` comes as a Buffer of UTF-8 (when the database's text is UTF-8).
 */
export function loadDatabaseRows(path: string, rootId: string, busyTimeoutMs: number, partDataBytes = false): Promise<OcRows> {
  // One connection, its prepared statements and its transaction serve every session of a scan
  // (sqlite-store.ts): opened, prepared and closed per session they cost ~65 ms of the bench home's
  // 98 database sessions.
  return withReadOnlyDatabase(path, busyTimeoutMs, (db) => treeRead(db)(rootId, partDataBytes));
}
