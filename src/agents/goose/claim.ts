// Recognises a Goose session named on the command line: `<…/sessions.db>#<id>`, a `sessions.db`
// (its most recently updated session), a legacy `<id>.jsonl` (by its metadata line), or an
// agentlog export of a database session.
import { basename, dirname } from 'node:path';
import { statFile } from '../../fs/stat.js';
import { str } from '../../json/narrow.js';
import { claimRow } from '../row-session.js';
import { databaseFiles, parseRowLocator } from '../sqlite-store.js';
import { readExportHeader } from '../table-export.js';
import type { DiscoveredSession } from '../types.js';
import { databaseSession, legacySession, listedOf, type GooseOptions } from './discover.js';
import { exportFormat } from './export.js';
import { databaseName } from './layout.js';
import { readLegacyHeader } from './legacy.js';
import { listSessionRows } from './store.js';
import { isRegularFile } from '../../fs/stat.js';

async function claimDatabase(database: string, sessionId: string | undefined, opts: GooseOptions): Promise<DiscoveredSession | null> {
  const chosen = await claimRow(
    database,
    sessionId,
    (db) => listSessionRows(db, opts.busyTimeoutMs),
    (rows) => rows.sort((a, b) => ((str(b, 'updated_at') ?? '') < (str(a, 'updated_at') ?? '') ? -1 : 1))[0],
  );
  if (chosen === null) return null;
  // The home is the data directory above `sessions/`, as discovery names it.
  return databaseSession(dirname(dirname(database)), database, listedOf(chosen), await databaseFiles(database));
}

export async function claimGoose(path: string, opts: GooseOptions): Promise<DiscoveredSession | null> {
  const locator = parseRowLocator(path, databaseName);
  try {
    if (locator !== undefined) return await claimDatabase(locator.database, locator.sessionId, opts);
    if (basename(path) === databaseName) return await claimDatabase(path, undefined, opts);
    if (!/\.jsonl$/i.test(path) || !(await isRegularFile(path))) return null;
    const header = await readExportHeader(path, exportFormat);
    if (header !== undefined) {
      const file = await statFile(path);
      return file === null ? null : { agent: 'goose', sessionId: header.session_id, home: dirname(path), path, files: [file] };
    }
    if ((await readLegacyHeader(path)) === undefined) return null;
    return await legacySession(dirname(dirname(path)), path);
  } catch {
    return null;
  }
}
