// The one rule for session names, shared by the meta and the names overlay: whitespace runs
// collapse to one space, the ends are trimmed, and a name longer than 180 characters keeps its
// first 177 plus "..." (applied when writing and again when reading).
import { basename } from 'node:path';
import { updateMetaSync } from './meta.js';
import { normaliseName } from './name-rule.js';

export { maxNameChars, normaliseName, normaliseNameOrNull } from './name-rule.js';

/**
 * Names the session in `dir` in its own meta (how an Intendant-format session is renamed; other
 * agents' sessions go to the names overlay). Returns the stored name.
 */
export function writeSessionName(dir: string, name: string, nowMs: number = Date.now()): string {
  const normalised = normaliseName(name);
  updateMetaSync(dir, (current) => ({ ...(current ?? { session_id: basename(dir) }), name: normalised }), nowMs);
  return normalised;
}
