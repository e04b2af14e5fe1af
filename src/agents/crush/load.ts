// Loads one Crush session's rows, from its database or from a kept export of it.
import { databaseProblem, parseRowLocator } from '../sqlite-store.js';
import { readExportRows } from '../table-export.js';
import type { DiscoveredSession, FileProblem } from '../types.js';
import { type CrushTree, treeFromRows } from './build-record.js';
import { exportFormat, exportTables, rowsFromTables } from './export.js';
import { databaseName } from './layout.js';
import { loadSessionRows } from './store.js';

export interface LoadedCrush {
  tree: CrushTree | null;
  /** Rows (or export lines) that could not be read. */
  bad: number;
  problems: FileProblem[];
}

/** With `toolOutput` false, tool results come without their output (a summary, the search index). */
export async function loadCrush(session: DiscoveredSession, busyTimeoutMs: number, toolOutput = true): Promise<LoadedCrush> {
  const locator = parseRowLocator(session.path, databaseName);
  if (locator !== undefined) {
    try {
      const { tree, badRows } = treeFromRows(
        await loadSessionRows(locator.database, locator.sessionId, busyTimeoutMs, toolOutput),
        locator.sessionId,
      );
      return { tree, bad: badRows, problems: [] };
    } catch (error) {
      return { tree: null, bad: 0, problems: [databaseProblem(locator.database, error, 'Crush')] };
    }
  }
  const { tables, badLines } = await readExportRows(session.path, exportFormat, exportTables);
  const { tree, badRows } = treeFromRows(rowsFromTables(tables), session.sessionId);
  return { tree, bad: badLines + badRows, problems: [] };
}
