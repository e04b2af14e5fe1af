// The kept form of a Crush session: its `sessions` and `messages` rows (and its sub-agents') as
// JSON lines, read in one transaction, so a kept copy stays readable after Crush deletes it.
import type { ExportHeader } from '../table-export.js';
import type { CrushRows } from './store.js';

export const exportFormat = 'agentlog/crush-export';
export const exportVersion = 1;
export const exportTables = ['sessions', 'messages'] as const;

export function exportHeader(sessionId: string, cwd: string | undefined): ExportHeader {
  return {
    format: exportFormat,
    version: exportVersion,
    session_id: sessionId,
    database: 'crush.db',
    ...(cwd === undefined ? {} : { cwd }),
  };
}

export function rowsFromTables(tables: Record<string, CrushRows['sessions']>): CrushRows {
  return { sessions: tables.sessions ?? [], messages: tables.messages ?? [] };
}
