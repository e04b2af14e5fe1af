// Goose's `sessions.db` (session/storage.rs create_schema, schema 13): `sessions` (id, name,
// session_type, working_dir, created_at, accumulated_*_tokens, accumulated_cost, model_config_json…)
// and `messages` (id, message_id, session_id, role, content_json, created_timestamp, metadata_json).
import type { JsonObject } from '../../json/narrow.js';
import { columnsWith, prepared, rowsOf, withReadOnlyDatabase } from '../sqlite-store.js';

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

/** A `toolResponse` item cut to what a summary reads of it: its id, status and `isError`. */
const responseOf = (json: string, at: string): string =>
  `json_object('type', 'toolResponse', 'id', ${json}->'${at}.id', 'toolResult', json_object('status', ${json}->'${at}.toolResult.status', 'value', json_object('isError', ${json}->'${at}.toolResult.value.isError')))`;

/**
 * A message's `content_json` with each `toolResponse` item cut to `responseOf`: tool output is most
 * of the database's bytes (the user rows carrying it: 27 of 32 MB on the bench home) and a summary
 * or the search index reads none of it, so SQLite drops it without handing the text to JavaScript.
 * Content that is not a JSON array stays as it is (counted bad as before); items that are not
 * objects are left out, as `gooseMessage` leaves them out.
 */
const contentWithoutOutput = `CASE
    WHEN instr(content_json, '"toolResponse"') = 0 OR NOT json_valid(content_json) OR json_type(content_json) <> 'array' THEN content_json
    WHEN json_array_length(content_json) = 1 AND content_json->>'$[0].type' = 'toolResponse' THEN json_array(${responseOf('content_json', '$[0]')})
    ELSE (SELECT json_group_array(CASE WHEN value->>'type' = 'toolResponse' THEN ${responseOf('value', '$')} ELSE value END)
      FROM json_each(messages.content_json) WHERE type = 'object')
  END`;

/**
 * One session's row and messages, in one read transaction, in the order Goose inserted them; with
 * `toolOutput` false, tool responses come without their output (`contentWithoutOutput`).
 */
export function loadSessionRows(path: string, sessionId: string, busyTimeoutMs: number, toolOutput = true): Promise<GooseRows> {
  return withReadOnlyDatabase(path, busyTimeoutMs, (db) => {
    const columns = toolOutput ? '*' : columnsWith(db, 'messages', 'content_json', contentWithoutOutput);
    return db.transaction(() => ({
      sessions: rowsOf(prepared(db, 'SELECT * FROM sessions WHERE id = ?').all(sessionId)),
      messages: rowsOf(prepared(db, `SELECT ${columns} FROM messages WHERE session_id = ? ORDER BY id`).all(sessionId)),
    }))();
  });
}
