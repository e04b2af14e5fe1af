// Crush's `crush.db` (internal/db/migrations): `sessions` (id, parent_session_id, title,
// prompt_tokens, completion_tokens, cost, created_at…) and `messages` (id, session_id, role,
// parts JSON, model, provider, created_at, finished_at, is_summary_message). Read read-only.
import type { JsonObject } from '../../json/narrow.js';
import { columnsWith, prepared, rowsOf, withReadOnlyDatabase } from '../sqlite-store.js';

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

/** A tool result's part cut to what a summary reads of it: its type, call id and `is_error`. */
const resultOf = (json: string, at: string): string =>
  `json_object('type', ${json}->>'${at}.type', 'data', json_object('tool_call_id', ${json}->>'${at}.data.tool_call_id', 'is_error', ${json}->'${at}.data.is_error'))`;

/**
 * A tool message's `parts` cut to `resultOf` each result: the output is most of a database's bytes
 * (83% on the bench home) and a summary or the search index reads none of it, so SQLite drops it
 * without handing the text to JavaScript. The common message of one result is cut without
 * `json_each` (a third of the cost). Parts that are not a JSON array stay as they are, so they are
 * counted bad as before; items that are not objects are left out, as `parseParts` leaves them out.
 */
const partsWithoutOutput = `CASE WHEN role = 'tool' AND json_valid(parts) AND json_type(parts) = 'array' THEN
    CASE WHEN json_array_length(parts) = 1 AND json_type(parts, '$[0]') = 'object' THEN json_array(${resultOf('parts', '$[0]')})
    ELSE (SELECT json_group_array(${resultOf('value', '$')}) FROM json_each(messages.parts) WHERE type = 'object') END
  ELSE parts END`;

/**
 * The rows of one session and every session under it, in one read transaction; with `toolOutput`
 * false, tool results come without their output (`partsWithoutOutput`).
 */
export function loadSessionRows(path: string, rootId: string, busyTimeoutMs: number, toolOutput = true): Promise<CrushRows> {
  return withReadOnlyDatabase(path, busyTimeoutMs, (db) => {
    const columns = toolOutput ? '*' : columnsWith(db, 'messages', 'parts', partsWithoutOutput);
    return db.transaction(() => ({
      sessions: rowsOf(
        prepared(db, `${subtree} SELECT * FROM sessions WHERE id IN (SELECT id FROM tree) ORDER BY created_at, id`).all(rootId),
      ),
      messages: rowsOf(
        prepared(db, `${subtree} SELECT ${columns} FROM messages WHERE session_id IN (SELECT id FROM tree) ORDER BY created_at, rowid`).all(
          rootId,
        ),
      ),
    }))();
  });
}
