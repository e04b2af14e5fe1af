// The name of a listed session, for `scan` and `show`: an Intendant-format session's own meta
// name, any other agent's name from the overlay.
import { basename, dirname, join } from 'node:path';
import type { AgentId } from '../record/types.js';
import type { SessionRow } from '../scan/session-row.js';
import { files } from '../sessionlog/paths.js';
import { readMeta } from '../sessionlog/meta.js';
import { normaliseNameOrNull, writeSessionName } from '../sessionlog/session-name.js';
import { overlayName, overlayPath, readOverlay, setOverlayName, type Overlay } from './overlay.js';
import { sourceOfAgent } from './sources.js';

/** The session folder of an Intendant session path (the folder itself, or a file inside it). */
export function intendantDir(sessionPath: string): string {
  const base = basename(sessionPath);
  return base === files.events || base === files.meta ? dirname(sessionPath) : sessionPath;
}

/** The name in an Intendant session's meta, or null (no meta, no name, or an unreadable meta). */
export async function intendantMetaName(sessionPath: string): Promise<string | null> {
  try {
    const name = (await readMeta(intendantDir(sessionPath)))?.name;
    return name === undefined ? null : normaliseNameOrNull(name);
  } catch {
    return null;
  }
}

async function nameOf(agent: AgentId, sessionId: string, sessionPath: string, overlay: Overlay): Promise<string | null> {
  if (agent === 'intendant') return intendantMetaName(sessionPath);
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
  for (const row of rows) row.name = await nameOf(row.agent, row.session_id, row.file, overlay);
  return warnings;
}

/** One session's name (for `show`); an unreadable overlay reads as no name. */
export async function sessionName(stateRoot: string, agent: AgentId, sessionId: string, sessionPath: string): Promise<string | null> {
  const overlay = await readOverlay(stateRoot).catch((): Overlay => ({}));
  return nameOf(agent, sessionId, sessionPath, overlay);
}

export interface Renamed {
  /** `meta`: written into the Intendant session's own meta; `overlay`: into session_names.json. */
  where: 'meta' | 'overlay';
  path: string;
  source: string;
  name: string;
}

/** Renames a session: an Intendant session in its own meta, any other agent's in the overlay. */
export async function renameSession(
  stateRoot: string,
  agent: AgentId,
  sessionId: string,
  sessionPath: string,
  name: string,
): Promise<Renamed> {
  if (agent === 'intendant') {
    const dir = intendantDir(sessionPath);
    const stored = writeSessionName(dir, name);
    return { where: 'meta', path: join(dir, files.meta), source: sourceOfAgent[agent], name: stored };
  }
  const source = sourceOfAgent[agent];
  const stored = await setOverlayName(stateRoot, source, sessionId, name);
  return { where: 'overlay', path: overlayPath(stateRoot), source, name: stored };
}
