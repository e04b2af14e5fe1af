// Loads one Goose session whichever form it is in: a database row (`<sessions.db>#<id>`), an
// agentlog export of one, or a legacy JSONL file.
import { text } from '../../json/narrow.js';
import { databaseProblem, parseRowLocator } from '../sqlite-store.js';
import { readExportHeader, readExportRows } from '../table-export.js';
import type { DiscoveredSession, FileProblem } from '../types.js';
import { exportFormat, exportTables } from './export.js';
import { databaseName } from './layout.js';
import { readLegacySession } from './legacy.js';
import { gooseMessage, parseJson, sessionFromRow, type GooseSession } from './model.js';
import { type GooseRows, loadSessionRows } from './store.js';

export interface LoadedGoose {
  session: GooseSession | null;
  /** Rows or lines that could not be read. */
  bad: number;
  problems: FileProblem[];
}

/** A session from its rows; messages whose content is not JSON are counted. */
export function sessionFromRows(rows: GooseRows, sessionId: string): { session: GooseSession | null; bad: number } {
  const row = rows.sessions.find((r) => text(r, 'id') === sessionId);
  const session = row === undefined ? undefined : sessionFromRow(row);
  if (session === undefined) return { session: null, bad: 0 };
  let bad = 0;
  for (const m of rows.messages) {
    const id = text(m, 'message_id') ?? `msg_${sessionId}_${String(m.id)}`;
    const message = gooseMessage(id, m.role, m.created_timestamp, parseJson(m.content_json), parseJson(m.metadata_json));
    if (message === undefined) bad++;
    else session.messages.push(message);
  }
  return { session, bad };
}

/** With `toolOutput` false, tool responses come without their output (a summary, the search index). */
export async function loadGoose(session: DiscoveredSession, busyTimeoutMs: number, toolOutput = true): Promise<LoadedGoose> {
  const locator = parseRowLocator(session.path, databaseName);
  if (locator !== undefined) {
    try {
      const { session: s, bad } = sessionFromRows(
        await loadSessionRows(locator.database, locator.sessionId, busyTimeoutMs, toolOutput),
        locator.sessionId,
      );
      return { session: s, bad, problems: [] };
    } catch (error) {
      return { session: null, bad: 0, problems: [databaseProblem(locator.database, error, 'Goose')] };
    }
  }
  if ((await readExportHeader(session.path, exportFormat)) !== undefined) {
    const { tables, badLines } = await readExportRows(session.path, exportFormat, exportTables);
    const { session: s, bad } = sessionFromRows({ sessions: tables.sessions ?? [], messages: tables.messages ?? [] }, session.sessionId);
    return { session: s, bad: bad + badLines, problems: [] };
  }
  const { session: s, badLines } = await readLegacySession(session.path);
  return { session: s.messages.length === 0 ? null : s, bad: badLines, problems: [] };
}
