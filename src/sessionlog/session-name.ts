// The one rule for session names, shared by the meta and the names overlay: whitespace runs
// collapse to one space, the ends are trimmed, and a name longer than 180 characters keeps its
// first 177 plus "..." (applied when writing and again when reading).
import { basename } from 'node:path';
import { SessionLogError } from './errors.js';
import { updateMetaSync } from './meta.js';
import { normaliseNameOrNull } from './name-rule.js';

export { maxNameChars, normaliseNameOrNull } from './name-rule.js';

/** The normalised name; an empty one is an InvalidArgument error. */
export function normaliseName(raw: string): string {
  const name = normaliseNameOrNull(raw);
  if (name === null) throw new SessionLogError('InvalidArgument', 'a session name cannot be empty; give at least one visible character');
  return name;
}

/**
 * Names the session in `dir` in its own meta (how an Intendant-format session is renamed; other
 * agents' sessions go to the names overlay). Returns the stored name.
 */
export function writeSessionName(dir: string, name: string, nowMs: number = Date.now()): string {
  const normalised = normaliseName(name);
  updateMetaSync(dir, (current) => ({ ...(current ?? { session_id: basename(dir) }), name: normalised }), nowMs);
  return normalised;
}
