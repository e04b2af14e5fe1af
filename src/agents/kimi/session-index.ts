// session_index.jsonl: Kimi Code's list of session folders. Read within its bounds (≤ 8 MiB,
// ≤ 256 KiB a record); a breach rejects the whole index and discovery relies on the folder walk.
import { stat } from 'node:fs/promises';
import { basename, resolve, sep } from 'node:path';
import { forEachJsonObject } from '../../fs/read-jsonl.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { bool, text } from '../../json/narrow.js';
import type { FileProblem } from '../types.js';
import { sessionDirPattern } from './layout.js';

export interface IndexEntry {
  sessionId: string;
  sessionDir: string;
  workDir: string | undefined;
  deleted: boolean;
}

export interface IndexRead {
  entries: IndexEntry[];
  problem: FileProblem | null;
}

/** Later lines for a session replace earlier ones; a folder outside `sessionsRoot` is ignored. */
export async function readSessionIndex(path: string, sessionsRoot: string, maxBytes: number, maxRecordBytes: number): Promise<IndexRead> {
  try {
    const size = (await stat(path)).size;
    if (size > maxBytes)
      return {
        entries: [],
        problem: { path, kind: 'oversized', reason: `session index is ${size} bytes, over the ${maxBytes}-byte bound; not read` },
      };
  } catch (error) {
    if (isNotFound(error)) return { entries: [], problem: null };
    return { entries: [], problem: { path, kind: 'unreadable', reason: errorMessage(error) } };
  }
  const root = resolve(sessionsRoot) + sep;
  const byId = new Map<string, IndexEntry>();
  const r = await forEachJsonObject(
    path,
    (o) => {
      const sessionId = text(o, 'sessionId');
      const dir = text(o, 'sessionDir');
      if (sessionId === undefined) return;
      const previous = byId.get(sessionId);
      const sessionDir = dir === undefined ? previous?.sessionDir : resolve(dir);
      if (sessionDir === undefined || !sessionDir.startsWith(root) || !sessionDirPattern.test(basename(sessionDir))) return;
      byId.set(sessionId, {
        sessionId,
        sessionDir,
        workDir: text(o, 'workDir') ?? previous?.workDir,
        deleted: bool(o, 'deleted') === true,
      });
    },
    { maxLineBytes: maxRecordBytes },
  );
  if (r.oversizedLines > 0)
    return {
      entries: [],
      problem: { path, kind: 'oversized', reason: `a session index record is over the ${maxRecordBytes}-byte bound; index not used` },
    };
  return { entries: [...byId.values()], problem: null };
}
