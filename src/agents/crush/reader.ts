// The Crush reader: projects from `projects.json` under Crush's global data directory, sessions
// from each project's `crush.db` (read-only, with a busy timeout), kept as an export of their rows.
import { rowExportTree } from '../row-session.js';
import { exportLines } from '../table-export.js';
import { defaultBusyTimeoutMs, parseRowLocator } from '../sqlite-store.js';
import type { AgentReader } from '../types.js';
import { buildCrushRecord } from './build-record.js';
import { claimCrush } from './claim.js';
import { discoverCrush, type CrushOptions } from './discover.js';
import { exportHeader } from './export.js';
import { crushHomes, databaseName } from './layout.js';
import { loadCrush } from './load.js';
import { crushSearchMessages } from './search-messages.js';
import { loadSessionRows } from './store.js';

export function createCrushReader(options: Partial<CrushOptions> = {}): AgentReader {
  const opts: CrushOptions = { busyTimeoutMs: options.busyTimeoutMs ?? defaultBusyTimeoutMs };
  return {
    id: 'crush',
    displayName: 'Crush',
    aliases: ['charm crush'],
    homeVariables: [
      { name: 'CRUSH_GLOBAL_DATA', default: '~/.local/share/crush' },
      { name: 'XDG_DATA_HOME', default: '~/.local/share', folder: 'crush' },
    ],
    homes: crushHomes,
    discover: (home, fs) => discoverCrush(home, opts, fs),
    claim: (path) => claimCrush(path, opts),

    async parse(session, ctx) {
      const { tree, bad, problems } = await loadCrush(session, opts.busyTimeoutMs, ctx.detail === 'full');
      const record = tree === null ? null : buildCrushRecord(tree, session.cwd, ctx.detail === 'full');
      const where = parseRowLocator(session.path, databaseName)?.database ?? session.path;
      return {
        record,
        cwds: session.cwd === undefined ? [] : [session.cwd],
        badLines: bad > 0 ? [{ path: where, count: bad }] : [],
        problems,
      };
    },

    tree: async (session) =>
      rowExportTree(session, databaseName, 'crush-export', async (database, sessionId) => {
        const rows = await loadSessionRows(database, sessionId, opts.busyTimeoutMs);
        return exportLines(exportHeader(sessionId, session.cwd), { sessions: rows.sessions, messages: rows.messages });
      }),

    messages: crushSearchMessages,
  };
}

export const crushReader: AgentReader = createCrushReader();
