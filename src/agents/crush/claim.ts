// Recognises a Crush session named on the command line: `<…/crush.db>#<session id>`, a `crush.db`
// (its most recently updated top-level session), or an agentlog export of one.
import { basename, dirname } from 'node:path';
import { statFile } from '../../fs/stat.js';
import { num, text } from '../../json/narrow.js';
import { claimRow } from '../row-session.js';
import { databaseFiles, parseRowLocator } from '../sqlite-store.js';
import { readExportHeader } from '../table-export.js';
import type { DiscoveredSession } from '../types.js';
import { crushSession, projectOfDataDir, topLevel, type CrushOptions } from './discover.js';
import { exportFormat } from './export.js';
import { databaseName } from './layout.js';
import { listSessionRows } from './store.js';
import { isRegularFile } from '../../fs/stat.js';

async function claimDatabase(database: string, sessionId: string | undefined, opts: CrushOptions): Promise<DiscoveredSession | null> {
  const chosen = await claimRow(
    database,
    sessionId,
    (db) => listSessionRows(db, opts.busyTimeoutMs),
    (rows) => topLevel(rows).sort((a, b) => (num(b, 'updated_at') ?? 0) - (num(a, 'updated_at') ?? 0))[0],
  );
  if (chosen === null) return null;
  const dataDir = dirname(database);
  return crushSession(dataDir, database, text(chosen, 'id') ?? '', await databaseFiles(database), projectOfDataDir(dataDir));
}

export async function claimCrush(path: string, opts: CrushOptions): Promise<DiscoveredSession | null> {
  const locator = parseRowLocator(path, databaseName);
  try {
    if (locator !== undefined) return await claimDatabase(locator.database, locator.sessionId, opts);
    if (basename(path) === databaseName) return await claimDatabase(path, undefined, opts);
    if (!/\.jsonl$/i.test(path) || !(await isRegularFile(path))) return null;
    const header = await readExportHeader(path, exportFormat);
    const file = header === undefined ? null : await statFile(path);
    if (header === undefined || file === null) return null;
    return {
      agent: 'crush',
      sessionId: header.session_id,
      home: dirname(path),
      path,
      files: [file],
      ...(header.cwd === undefined ? {} : { cwd: header.cwd }),
    };
  } catch {
    return null;
  }
}
