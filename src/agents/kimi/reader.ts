// The Kimi Code reader: one session is one folder (state.json plus a wire per agent), read
// within the seed's fail-closed bounds; child agents nest in the calls that launched them.
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Detail } from '../../record/types.js';
import type { AgentReader, DiscoveredSession, ParsedSession, TreeEntry } from '../types.js';
import { defaultKimiBounds, type KimiBounds } from './bounds.js';
import { claimKimi, discoverKimi } from './discover.js';
import { kimiHomes } from './layout.js';
import { kimiRecord } from './record.js';
import { readKimiSession } from './session-read.js';
import { kimiSearchMessages } from './search-messages.js';
import { kimiEntryView } from './entry-view.js';

/** Every file under `dir` (symbolic links are not followed), in path order. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(path)));
    else if (e.isFile()) out.push(path);
  }
  return out;
}

/** Parses one discovered session; exported with its bounds so tests can use small ones. */
export async function parseKimi(
  session: DiscoveredSession,
  bounds: KimiBounds = defaultKimiBounds,
  detail: Detail = 'full',
): Promise<ParsedSession> {
  const logs = await readKimiSession(session.path, bounds, detail !== 'full', session.files);
  const built = kimiRecord(session.sessionId, logs, session.cwd, detail);
  return { record: built?.record ?? null, cwds: built?.cwds ?? [], badLines: logs.badLines, problems: logs.problems };
}

export function makeKimiReader(bounds: KimiBounds = defaultKimiBounds): AgentReader {
  return {
    id: 'kimi',
    displayName: 'Kimi Code',
    aliases: [],
    homeVariables: [{ name: 'KIMI_CODE_HOME', default: '~/.kimi-code' }],
    homes: kimiHomes,
    discover: (home, fs) => discoverKimi(home, bounds, fs),
    claim: (path) => claimKimi(path, bounds),
    parse: (session, ctx) => parseKimi(session, bounds, ctx.detail),
    async tree(session): Promise<TreeEntry[]> {
      return (await filesUnder(session.path)).map((path) => ({ relPath: relative(session.home, path), kind: 'file', path }));
    },
    messages: kimiSearchMessages,
    entryView: kimiEntryView,
  };
}

export const kimiReader: AgentReader = makeKimiReader();
