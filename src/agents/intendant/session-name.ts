// Intendant keeps a session's name in the session's own meta.json, not in agentlog's names overlay.
import { basename, dirname, join } from 'node:path';
import { readMeta } from '../../sessionlog/meta.js';
import { files } from '../../sessionlog/paths.js';
import { normaliseNameOrNull, writeSessionName } from '../../sessionlog/session-name.js';
import type { OwnSessionNames } from '../types.js';

/** The session folder of an Intendant session path (the folder itself, or a file inside it). */
export function intendantDir(sessionPath: string): string {
  const base = basename(sessionPath);
  return base === files.events || base === files.meta ? dirname(sessionPath) : sessionPath;
}

export const intendantNames: OwnSessionNames = {
  async read(sessionPath) {
    try {
      const name = (await readMeta(intendantDir(sessionPath)))?.name;
      return name === undefined ? null : normaliseNameOrNull(name);
    } catch {
      return null;
    }
  },
  async write(sessionPath, name) {
    const dir = intendantDir(sessionPath);
    return { path: join(dir, files.meta), name: writeSessionName(dir, name) };
  },
};
