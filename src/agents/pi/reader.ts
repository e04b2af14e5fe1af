// The Pi reader: one session is one JSONL file; the record follows the active branch of its tree.
import { relative } from 'node:path';
import { errorMessage } from '../../fs/errors.js';
import type { Detail } from '../../record/types.js';
import type { AgentReader, DiscoveredSession, ParsedSession } from '../types.js';
import { defaultPiBounds, type PiBounds } from './bounds.js';
import { claimPi, discoverPi } from './discover.js';
import { piHomes } from './layout.js';
import { piRecord } from './record.js';
import { readPiFile } from './session-file.js';
import { piSearchMessages } from './search-messages.js';
import { piEntryView } from './entry-view.js';

/** Parses one discovered session; exported with its bounds so tests can use small ones. */
export async function parsePi(
  session: DiscoveredSession,
  bounds: PiBounds = defaultPiBounds,
  detail: Detail = 'full',
): Promise<ParsedSession> {
  const path = session.path;
  let read;
  try {
    read = await readPiFile(path, bounds, detail === 'full', session.files.find((f) => f.path === path)?.size);
  } catch (error) {
    return { record: null, cwds: [], badLines: [], problems: [{ path, kind: 'unreadable', reason: errorMessage(error) }] };
  }
  if (!read.ok) return { record: null, cwds: [], badLines: [], problems: [{ path, kind: 'oversized', reason: read.reason }] };
  const built = piRecord(session.sessionId, read.file, detail);
  const badLines = read.file.badLines > 0 ? [{ path, count: read.file.badLines }] : [];
  return { record: built?.record ?? null, cwds: built?.cwds ?? (session.cwd === undefined ? [] : [session.cwd]), badLines, problems: [] };
}

export function makePiReader(bounds: PiBounds = defaultPiBounds): AgentReader {
  return {
    id: 'pi',
    displayName: 'Pi',
    aliases: ['pi coding agent'],
    homeVariables: [{ name: 'PI_CODING_AGENT_DIR', default: '~/.pi/agent' }],
    homes: piHomes,
    discover: (home, fs) => discoverPi(home, bounds, fs),
    claim: (path) => claimPi(path, bounds.headerBytes),
    parse: (session, ctx) => parsePi(session, bounds, ctx.detail),
    tree: async (session) => [{ relPath: relative(session.home, session.path), kind: 'file', path: session.path }],
    messages: piSearchMessages,
    entryView: piEntryView,
  };
}

export const piReader: AgentReader = makePiReader();
