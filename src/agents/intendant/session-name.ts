// Intendant keeps a session's name in the session's own meta.json, not in agentlog's names overlay.
import { basename, dirname, join } from 'node:path';
import { files } from '../../sessionlog/paths.js';
import { readIntendantName } from './meta.js';
import type { OwnSessionNames } from '../types.js';

/** The session folder of an Intendant session path (the folder itself, or a file inside it). */
export function intendantDir(sessionPath: string): string {
  const base = basename(sessionPath);
  return base === files.events || base === files.meta ? dirname(sessionPath) : sessionPath;
}

export const intendantNames: OwnSessionNames = {
  async read(sessionPath) {
    // The reader's own reading of the meta, so `scan`, `show` and the record never disagree on a name.
    return readIntendantName(intendantDir(sessionPath));
  },
  async write(sessionPath, name) {
    // Loaded here: the writer brings the session log's locks and schemas (zod), which the scan
    // worker, reading names only, would otherwise load with every reader.
    const { writeSessionName } = await import('../../sessionlog/session-name.js');
    const dir = intendantDir(sessionPath);
    return { path: join(dir, files.meta), name: writeSessionName(dir, name) };
  },
};
