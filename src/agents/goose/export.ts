// The kept form of a Goose database session: its `sessions` row and `messages` rows as JSON lines,
// read in one transaction, so a kept copy stays readable after Goose deletes the session.
import type { ExportHeader } from '../table-export.js';

export const exportFormat = 'agentlog/goose-export';
export const exportVersion = 1;
export const exportTables = ['sessions', 'messages'] as const;

export function exportHeader(sessionId: string): ExportHeader {
  return { format: exportFormat, version: exportVersion, session_id: sessionId, database: 'sessions.db' };
}
