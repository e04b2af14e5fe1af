// Crush's `crush.db` (internal/db/migrations): `sessions` (id, parent_session_id, title,
// prompt_tokens, completion_tokens, cost, created_at…) and `messages` (id, session_id, role,
// parts JSON, model, provider, created_at, finished_at, is_summary_message). Read read-only.
import type { JsonObject } from '../../json/narrow.js';
import { prepared, rowsOf, withReadOnlyDatabase } from '../sqlite-store.js';

export interface CrushRows {
  sessions: JsonObject[];
  messages: JsonObject[];
}

/** Every session row without its messages. Throws what better-sqlite3 throws. */
export function listSessionRows(path: string, busyTimeoutMs: number): Promise<JsonObject[]> {
  return withReadOnlyDatabase(path, busyTimeoutMs, (db) =>
    rowsOf(prepared(db, 'SELECT id, parent_session_id, title, created_at, updated_at FROM sessions').all()),
  );
}

const subtree =
  'WITH RECURSIVE tree(id) AS (SELECT id FROM sessions WHERE id = ? UNION SELECT s.id FROM sessions s JOIN tree t ON s.parent_session_id = t.id)';

/** The rows of one session and every session under it, in one read transaction. */
export function loadSessionRows(path: string, rootId: string, busyTimeoutMs: number): Promise<CrushRows> {
  return withReadOnlyDatabase(path, busyTimeoutMs, (db) =>
    db.transaction(() => ({
      sessions: rowsOf(
        prepared(db, `${subtree} SELECT * FROM sessions WHERE id IN (SELECT id FROM tree) ORDER BY created_at, id`).all(rootId),
      ),
      messages: rowsOf(
        prepared(db, `${subtree} SELECT * FROM messages WHERE session_id IN (SELECT id FROM tree) ORDER BY created_at, rowid`).all(rootId),
      ),
    }))(),
  );
}
