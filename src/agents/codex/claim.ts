// Recognises a rollout given on the command line: a `.jsonl` file whose first line is a Codex line.
// Inside a Codex home the session takes its spawned agents' rollouts along, as discovery would.
import { basename, dirname, sep } from 'node:path';
import type { DiscoveredSession } from '../types.js';
import { readFirstLine } from '../../fs/read-lines.js';
import { statFile } from '../../fs/stat.js';
import { parseObjectLine } from '../../json/narrow.js';
import { codexLine, isEnvelopeLine } from './codex-line.js';
import { listRollouts, rolloutDirs, RolloutForest } from './discover.js';
import { idFromFileName, readMeta } from './rollout-meta.js';

/** The Codex home a path lies in (`<home>/sessions/…` or `<home>/archived_sessions/…`), if any. */
export function homeOfRollout(path: string): string | undefined {
  const parts = path.split(sep);
  for (let i = parts.length - 2; i > 0; i--) {
    if ((rolloutDirs as readonly string[]).includes(parts[i] as string)) return parts.slice(0, i).join(sep) || sep;
  }
  return undefined;
}

export async function claimRollout(path: string): Promise<DiscoveredSession | null> {
  if (!path.endsWith('.jsonl')) return null;
  const file = await statFile(path);
  if (file === null) return null;
  const first = await readFirstLine(path, 4 * 1024 * 1024);
  const obj = first === null ? undefined : parseObjectLine(first);
  if (obj === undefined) return null;
  const line = codexLine(obj);
  // The envelope is unmistakable; the envelope-less 2025 layout is only trusted under its own name.
  if (!isEnvelopeLine(obj) && !(line?.type === 'session_meta' && basename(path).startsWith('rollout-'))) return null;
  const meta = line?.type === 'session_meta' ? readMeta(line.payload) : undefined;

  const home = homeOfRollout(path);
  if (home !== undefined) {
    const forest = new RolloutForest((await listRollouts(home)).entries);
    const entry = forest.entries.find((e) => e.file.path === path);
    // Asked for by name, even a spawned agent's rollout is shown as a session of its own.
    if (entry !== undefined) return forest.session(entry, home);
  }
  const session: DiscoveredSession = {
    agent: 'codex',
    sessionId: meta?.id ?? idFromFileName(basename(path)),
    home: dirname(path),
    path,
    files: [file],
  };
  if (meta?.cwd !== undefined) session.cwd = meta.cwd;
  return session;
}
