// An Intendant session's working directory from its `session_meta.json` alone (a few hundred bytes):
// the project root, else the worktree, without reading the session's log.
import type { DiscoveredSession } from '../types.js';
import { readMeta } from './meta.js';
import { SessionDir } from './session-dir.js';

export async function intendantSessionCwd(session: DiscoveredSession): Promise<string | null> {
  try {
    const { meta } = await readMeta(new SessionDir(session.path));
    return meta.projectRoot ?? meta.worktreePath ?? null;
  } catch {
    return null;
  }
}
