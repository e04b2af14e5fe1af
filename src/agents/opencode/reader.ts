// The OpenCode reader: `$XDG_DATA_HOME/opencode` (else `~/.local/share/opencode`), holding the
// SQLite database(s) of v1.2+ and the older JSON tree under `storage/`.
import { basename, join, relative } from 'node:path';
import type { Detail } from '../../record/types.js';
import type { AgentReader, ParsedSession, TreeEntry } from '../types.js';
import { buildOpencodeRecord } from './build-record.js';
import { claimOpencode } from './claim.js';
import { discoverOpencode, type OpencodeOptions } from './discover.js';
import { exportFormat, exportLines, exportVersion, readExportRows } from './export.js';
import { loadJsonTree } from './json-tree.js';
import { parseDatabaseLocator } from './locator.js';
import type { OcTree } from './model.js';
import { treeFromRows } from './rows.js';
import { databaseProblem, defaultBusyTimeoutMs, loadDatabaseRows } from './sqlite.js';
import { opencodeSearchMessages } from './search-messages.js';

function finish(
  tree: OcTree | null,
  badLines: ParsedSession['badLines'],
  problems: ParsedSession['problems'],
  detail: Detail,
): ParsedSession {
  const built = tree === null ? null : buildOpencodeRecord(tree, detail);
  return { record: built?.record ?? null, cwds: built?.cwds ?? [], badLines, problems };
}

export function createOpencodeReader(options: Partial<OpencodeOptions> = {}): AgentReader {
  const opts: OpencodeOptions = { busyTimeoutMs: options.busyTimeoutMs ?? defaultBusyTimeoutMs };
  return {
    id: 'opencode',
    displayName: 'OpenCode',
    aliases: ['open code'],
    homeVariables: [{ name: 'XDG_DATA_HOME', default: '~/.local/share', folder: 'opencode' }],

    homes(lookup) {
      const dataHome = lookup.env('XDG_DATA_HOME') ?? join(lookup.homedir, '.local', 'share');
      return [join(dataHome, 'opencode')];
    },

    discover: (home, fs) => discoverOpencode(home, opts, fs),

    claim: (path) => claimOpencode(path, opts),

    async parse(session, ctx) {
      const locator = parseDatabaseLocator(session.path);
      if (locator !== undefined) {
        let rows;
        try {
          // Below full detail parts come as bytes, so their long outputs are cut before they are decoded.
          rows = await loadDatabaseRows(locator.database, locator.sessionId, opts.busyTimeoutMs, ctx.detail !== 'full');
        } catch (error) {
          return { record: null, cwds: [], badLines: [], problems: [databaseProblem(locator.database, error)] };
        }
        const { tree, badRows } = treeFromRows(rows, locator.sessionId);
        return finish(tree, badRows > 0 ? [{ path: session.path, count: badRows }] : [], [], ctx.detail);
      }
      if (/\.jsonl$/i.test(session.path)) {
        const { rows, badLines } = await readExportRows(session.path);
        const { tree, badRows } = treeFromRows(rows, session.sessionId);
        const bad = badLines + badRows;
        return finish(tree, bad > 0 ? [{ path: session.path, count: bad }] : [], [], ctx.detail);
      }
      const loaded = await loadJsonTree(session.path, session.files, ctx.detail === 'full');
      return finish(loaded.tree, loaded.badLines, loaded.problems, ctx.detail);
    },

    async tree(session) {
      const locator = parseDatabaseLocator(session.path);
      if (locator === undefined) {
        return session.files.map((f): TreeEntry => ({ relPath: relative(session.home, f.path), kind: 'file', path: f.path }));
      }
      const header = { format: exportFormat, version: exportVersion, session_id: locator.sessionId, database: basename(locator.database) };
      return [
        {
          relPath: join('opencode-export', `${locator.sessionId}.jsonl`),
          kind: 'export',
          produce: async () => exportLines(header, await loadDatabaseRows(locator.database, locator.sessionId, opts.busyTimeoutMs)),
        },
      ];
    },

    messages: opencodeSearchMessages,
  };
}

export const opencodeReader: AgentReader = createOpencodeReader();
