// The name of a listed session, for `scan` and `show`: from the agent's own files when its reader
// keeps names (`names`), else from agentlog's overlay.
import { loadReader } from '../agents/registry.js';
import type { AgentId } from '../record/types.js';
import type { SessionRow } from '../scan/session-row.js';
import { overlayName, overlayPath, readOverlay, setOverlayName, type Overlay } from './overlay.js';
import { sourceOfAgent } from './sources.js';

async function nameOf(agent: AgentId, sessionId: string, sessionPath: string, overlay: Overlay): Promise<string | null> {
  const own = (await loadReader(agent)).names;
  if (own !== undefined) return own.read(sessionPath);
  return overlayName(overlay, sourceOfAgent[agent], sessionId);
}

/** Fills `row.name` for every listed session; returns warnings (an unreadable overlay). */
export async function applySessionNames(rows: SessionRow[], stateRoot: string): Promise<string[]> {
  let overlay: Overlay = {};
  const warnings: string[] = [];
  try {
    overlay = await readOverlay(stateRoot);
  } catch (error) {
    warnings.push(error instanceof Error ? error.message : String(error));
  }
  // Concurrently: an agent that keeps names reads each session's file, and one read awaited after
  // another left `scan` idle for a tenth of an unchanged run (measured).
  await Promise.all(
    rows.map(async (row) => {
      row.name = await nameOf(row.agent, row.session_id, row.file, overlay);
    }),
  );
  return warnings;
}

/** One session's name (for `show`); an unreadable overlay reads as no name. */
export async function sessionName(stateRoot: string, agent: AgentId, sessionId: string, sessionPath: string): Promise<string | null> {
  const overlay = await readOverlay(stateRoot).catch((): Overlay => ({}));
  return nameOf(agent, sessionId, sessionPath, overlay);
}

export interface Renamed {
  /** `meta`: written into the session's own files (the agent keeps names); `overlay`: into session_names.json. */
  where: 'meta' | 'overlay';
  path: string;
  source: string;
  name: string;
}

/** Renames a session: in its own files when the agent keeps names, else in the overlay. */
export async function renameSession(
  stateRoot: string,
  agent: AgentId,
  sessionId: string,
  sessionPath: string,
  name: string,
): Promise<Renamed> {
  const source = sourceOfAgent[agent];
  const own = (await loadReader(agent)).names;
  if (own !== undefined) return { where: 'meta', source, ...(await own.write(sessionPath, name)) };
  const stored = await setOverlayName(stateRoot, source, sessionId, name);
  return { where: 'overlay', path: overlayPath(stateRoot), source, name: stored };
}
