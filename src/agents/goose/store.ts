// Goose's `sessions.db` (session/storage.rs create_schema, schema 13): `sessions` (id, name,
// session_type, working_dir, created_at, accumulated_*_tokens, accumulated_cost, model_config_json…)
// and `messages` (id, message_id, session_id, role, content_json, created_timestamp, metadata_json).
import type { JsonObject } from '../../json/narrow.js';
import { rowsOf, withReadOnlyDatabase } from '../sqlite-store.js';

export interface GooseRows {
  sessions: JsonObject[];
  messages: JsonObject[];
}

/** Every session that holds a message (Goose lists no empty session either). Throws what better-sqlite3 throws. */
export function listSessionRows(path: string, busyTimeoutMs: number): Promise<JsonObject[]> {
  return withReadOnlyDatabase(path, busyTimeoutMs, (db) =>
    rowsOf(
      db
        .prepare(
          'SELECT id, working_dir, name, updated_at FROM sessions s WHERE EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id)',
        )
        .all(),
    ),
  );
}

/** One session's row and messages, in one read transaction, in the order Goose inserted them. */
export function loadSessionRows(path: string, sessionId: string, busyTimeoutMs: number): Promise<GooseRows> {
  return withReadOnlyDatabase(path, busyTimeoutMs, (db) =>
    db.transaction(() => ({
      sessions: rowsOf(db.prepare('SELECT * FROM sessions WHERE id = ?').all(sessionId)),
      messages: rowsOf(db.prepare('SELECT * FROM messages WHERE session_id = ? ORDER BY id').all(sessionId)),
    }))(),
  );
}
