// Reads a discovered Droid session: the main file and its settings, and each sub-agent session
// discovery put with it.
import { settingsPathOf, sessionIdOf } from './layout.js';
import { readSession, readSettings, type DroidFile, type DroidSettings } from './read-session.js';
import type { DiscoveredSession } from '../types.js';
import type { DroidChild } from './record.js';

export interface LoadedSession {
  file: DroidFile;
  settings: DroidSettings;
  children: DroidChild[];
  /** Bad lines per file, only files with any. */
  badLines: { path: string; count: number }[];
}

/** Without `full`, tool-result-only user messages are read from their first bytes (see `readSession`). */
export async function loadSession(session: DiscoveredSession, full = true): Promise<LoadedSession> {
  const file = await readSession(session.path, full);
  const badLines = file.badLines > 0 ? [{ path: session.path, count: file.badLines }] : [];
  const children: DroidChild[] = [];
  for (const f of session.files) {
    if (f.path === session.path || !f.path.endsWith('.jsonl')) continue;
    const child = await readSession(f.path, full);
    if (child.badLines > 0) badLines.push({ path: f.path, count: child.badLines });
    children.push({ file: child, settings: readSettings(settingsPathOf(f.path)), id: sessionIdOf(f.path) });
  }
  return { file, settings: readSettings(settingsPathOf(session.path)), children, badLines };
}
