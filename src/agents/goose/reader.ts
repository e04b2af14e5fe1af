// The Goose reader: `sessions/sessions.db` under Goose's data directory (read-only, with a busy
// timeout; each session kept as an export of its rows) and the legacy JSONL files beside it.
import { defaultBusyTimeoutMs, parseRowLocator } from '../sqlite-store.js';
import { rowExportTree } from '../row-session.js';
import { exportLines } from '../table-export.js';
import type { AgentReader } from '../types.js';
import { buildGooseRecord } from './build-record.js';
import { claimGoose } from './claim.js';
import { discoverGoose, type GooseOptions } from './discover.js';
import { exportHeader } from './export.js';
import { databaseName, gooseHomes } from './layout.js';
import { loadGoose } from './load.js';
import { gooseSearchMessages } from './search-messages.js';
import { loadSessionRows } from './store.js';

export function createGooseReader(options: Partial<GooseOptions> = {}): AgentReader {
  const opts: GooseOptions = { busyTimeoutMs: options.busyTimeoutMs ?? defaultBusyTimeoutMs };
  return {
    id: 'goose',
    displayName: 'Goose',
    aliases: ['block goose'],
    homeVariables: [{ name: 'XDG_DATA_HOME', default: '~/.local/share', folder: 'goose' }],
    homes: gooseHomes,
    discover: (home, fs) => discoverGoose(home, opts, fs),
    claim: (path) => claimGoose(path, opts),

    async parse(session, ctx) {
      const { session: s, bad, problems } = await loadGoose(session, opts.busyTimeoutMs, ctx.detail === 'full');
      const where = parseRowLocator(session.path, databaseName)?.database ?? session.path;
      return {
        record: s === null ? null : buildGooseRecord(s, ctx.detail === 'full'),
        cwds: s?.workingDir === undefined ? [] : [s.workingDir],
        badLines: bad > 0 ? [{ path: where, count: bad }] : [],
        problems,
      };
    },

    tree: async (session) =>
      rowExportTree(session, databaseName, 'goose-export', async (database, sessionId) => {
        const rows = await loadSessionRows(database, sessionId, opts.busyTimeoutMs);
        return exportLines(exportHeader(sessionId), { sessions: rows.sessions, messages: rows.messages });
      }),

    messages: gooseSearchMessages,
  };
}

export const gooseReader: AgentReader = createGooseReader();
