// The kept form of a session that lives in a database: JSON lines holding its rows table by table,
// so a copy stays readable after the agent prunes its store. A consistent read (one transaction),
// never a byte copy of a database a writer may be changing. The first line names the format.
import { forEachJsonObject } from '../fs/read-jsonl.js';
import { readFirstLine } from '../fs/read-lines.js';
import { asObject, parseObjectLine, str, text, type JsonObject } from '../json/narrow.js';

export interface ExportHeader {
  format: string;
  version: number;
  session_id: string;
  /** The database file name it came from (not its path: a kept copy names no home). */
  database: string;
  /** The session's working directory, when the store keeps it apart from the rows (Crush's projects.json). */
  cwd?: string;
}

export type TableRows = Record<string, JsonObject[]>;

/** Serialises a session's rows; the same rows always give the same bytes. */
export function exportLines(header: ExportHeader, tables: TableRows): Buffer {
  const lines = [JSON.stringify(header)];
  for (const [table, rows] of Object.entries(tables)) for (const row of rows) lines.push(JSON.stringify({ table, row }));
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

/** The header when `path` starts like an export of `format`, else undefined. */
export async function readExportHeader(path: string, format: string): Promise<ExportHeader | undefined> {
  const first = parseObjectLine((await readFirstLine(path, 64 * 1024)) ?? '');
  const sessionId = text(first, 'session_id');
  if (str(first, 'format') !== format || sessionId === undefined) return undefined;
  const version = first?.version;
  const cwd = text(first, 'cwd');
  return {
    format,
    version: typeof version === 'number' ? version : 0,
    session_id: sessionId,
    database: str(first, 'database') ?? '',
    ...(cwd === undefined ? {} : { cwd }),
  };
}

/** Reads an export's rows back into `tables` (known names only); other lines are counted. */
export async function readExportRows(
  path: string,
  format: string,
  names: readonly string[],
): Promise<{ tables: TableRows; badLines: number }> {
  const tables: TableRows = Object.fromEntries(names.map((n) => [n, []]));
  let badLines = 0;
  let first = true;
  const r = await forEachJsonObject(path, (line) => {
    if (first) {
      first = false;
      if (str(line, 'format') === format) return;
    }
    const rows = tables[str(line, 'table') ?? ''];
    const row = asObject(line.row);
    if (rows === undefined || row === undefined) badLines++;
    else rows.push(row);
  });
  return { tables, badLines: badLines + r.badLines + (r.tornTail ? 1 : 0) };
}
