// The Codex reader: rollouts under `CODEX_HOME` (else `~/.codex`), one session per thread with its
// spawned agents nested inside.
import { join, relative, basename, isAbsolute } from 'node:path';
import type { AgentReader, DiscoveredSession, HomeLookup, TreeEntry } from '../types.js';
import { claimRollout } from './claim.js';
import { discoverCodex } from './discover.js';
import { codexMessages } from './search-messages.js';
import { codexEntryView } from './entry-view.js';
import { parseCodexSession } from './parse.js';

/** Codex's own convention: `CODEX_HOME`, else `~/.codex`. */
export function codexHomes(lookup: HomeLookup): string[] {
  return [lookup.env('CODEX_HOME') ?? join(lookup.homedir, '.codex')];
}

/** Each rollout named as it lies under the home (`sessions/2026/02/23/rollout-….jsonl`). */
export async function codexTree(session: DiscoveredSession): Promise<TreeEntry[]> {
  return session.files.map((f) => {
    const rel = relative(session.home, f.path);
    const relPath = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? basename(f.path) : rel;
    return { relPath, kind: 'file' as const, path: f.path };
  });
}

export const codexReader: AgentReader = {
  id: 'codex',
  displayName: 'Codex',
  aliases: ['codex cli'],
  homeVariables: [{ name: 'CODEX_HOME', default: '~/.codex' }],
  homes: codexHomes,
  discover: discoverCodex,
  claim: claimRollout,
  parse: parseCodexSession,
  tree: codexTree,
  messages: codexMessages,
  entryView: codexEntryView,
};
