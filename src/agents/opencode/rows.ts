// Database rows (from `opencode.db` or from an agentlog export of it) as a loaded session tree.
// Rows keep their columns as OpenCode wrote them; message and part `data` hold the JSON info
// without the ids, which live in their own columns.
import { text, type JsonObject } from '../../json/narrow.js';
import { parseData, parsedFresh, sessionFromRow, sortMessages, type OcMessage, type OcSessionData, type OcTree } from './model.js';

export interface OcRows {
  sessions: JsonObject[];
  messages: JsonObject[];
  parts: JsonObject[];
}

export function emptyRows(): OcRows {
  return { sessions: [], messages: [], parts: [] };
}

/**
 * `data` with the row's ids merged in. Data parsed here from its JSON text (or bytes) is this reader's own
 * and takes them in place; an object the row carried as such is copied, never changed.
 */
function withIds(column: unknown, data: JsonObject, ids: Record<string, string | undefined>): JsonObject {
  if (!parsedFresh(column)) return { ...data, ...ids };
  const own = data as Record<string, unknown>;
  for (const key in ids) own[key] = ids[key];
  return own;
}

/** Builds the tree under `rootId`; rows whose `data` is not JSON are counted, not fatal. */
export function treeFromRows(rows: OcRows, rootId: string): { tree: OcTree | null; badRows: number } {
  let badRows = 0;
  const sessions = new Map<string, OcSessionData>();
  for (const row of rows.sessions) {
    const session = sessionFromRow(row);
    if (session === undefined) badRows++;
    else sessions.set(session.id, { session, messages: [] });
  }
  const messages = new Map<string, OcMessage>();
  for (const row of rows.messages) {
    const id = text(row, 'id');
    const sessionId = text(row, 'session_id');
    const data = parseData(row.data);
    const owner = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (id === undefined || data === undefined) {
      badRows++;
      continue;
    }
    if (owner === undefined) continue;
    const message: OcMessage = { id, info: withIds(row.data, data, { id, sessionID: sessionId }), parts: [] };
    messages.set(id, message);
    owner.messages.push(message);
  }
  for (const row of rows.parts) {
    const id = text(row, 'id');
    const messageId = text(row, 'message_id');
    const data = parseData(row.data);
    if (id === undefined || data === undefined) {
      badRows++;
      continue;
    }
    const message = messageId === undefined ? undefined : messages.get(messageId);
    message?.parts.push(withIds(row.data, data, { id, messageID: messageId, sessionID: text(row, 'session_id') }));
  }
  for (const data of sessions.values()) data.messages = sortMessages(data.messages);
  return { tree: sessions.has(rootId) ? { rootId, sessions } : null, badRows };
}
