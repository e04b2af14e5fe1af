// The kept form of a database session: JSON lines holding its rows (and its descendants'), so a
// copy stays readable after OpenCode prunes its database. The first line marks the format.
import { forEachJsonObject } from '../../fs/read-jsonl.js';
import { readFirstLine } from '../../fs/read-lines.js';
import { asObject, num, parseObjectLine, str, text } from '../../json/narrow.js';
import { emptyRows, type OcRows } from './rows.js';

export const exportFormat = 'agentlog/opencode-export' as const;
export const exportVersion = 1;

const tables = ['session', 'message', 'part'] as const;
type Table = (typeof tables)[number];

export interface ExportHeader {
  format: typeof exportFormat;
  version: number;
  session_id: string;
  /** The database file name it came from (not its path: a kept copy names no home). */
  database: string;
}

/** Serialises a session's rows; the same rows always give the same bytes. */
export function exportLines(header: ExportHeader, rows: OcRows): Buffer {
  const lines = [JSON.stringify(header)];
  for (const row of rows.sessions) lines.push(JSON.stringify({ table: 'session', row }));
  for (const row of rows.messages) lines.push(JSON.stringify({ table: 'message', row }));
  for (const row of rows.parts) lines.push(JSON.stringify({ table: 'part', row }));
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

/** The header when `path` starts like an export, else undefined. */
export async function readExportHeader(path: string): Promise<ExportHeader | undefined> {
  const first = parseObjectLine((await readFirstLine(path, 64 * 1024)) ?? '');
  const sessionId = text(first, 'session_id');
  if (str(first, 'format') !== exportFormat || sessionId === undefined) return undefined;
  return { format: exportFormat, version: num(first, 'version') ?? 0, session_id: sessionId, database: str(first, 'database') ?? '' };
}

function isTable(value: string | undefined): value is Table {
  return value !== undefined && (tables as readonly string[]).includes(value);
}

/** Reads an export's rows back; lines that are not rows are counted. */
export async function readExportRows(path: string): Promise<{ rows: OcRows; badLines: number }> {
  const rows = emptyRows();
  let badLines = 0;
  let first = true;
  const r = await forEachJsonObject(path, (obj) => {
    if (first) {
      first = false;
      if (str(obj, 'format') === exportFormat) return;
    }
    const table = str(obj, 'table');
    const row = asObject(obj.row);
    if (!isTable(table) || row === undefined) {
      badLines++;
      return;
    }
    if (table === 'session') rows.sessions.push(row);
    else if (table === 'message') rows.messages.push(row);
    else rows.parts.push(row);
  });
  return { rows, badLines: badLines + r.badLines + (r.tornTail ? 1 : 0) };
}
