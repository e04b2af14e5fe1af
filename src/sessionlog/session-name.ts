// The one rule for session names, shared by the meta and the names overlay: whitespace runs
// collapse to one space, the ends are trimmed, and a name longer than 180 characters keeps its
// first 177 plus "..." (applied when writing and again when reading).
import { basename } from 'node:path';
import { SessionLogError } from './errors.js';
import { updateMetaSync } from './meta.js';

export const maxNameChars = 180;

/** The normalised name, or null when nothing but whitespace is left. */
export function normaliseNameOrNull(raw: string): string | null {
  const collapsed = raw.replace(/\s+/gu, ' ').trim();
  if (collapsed === '') return null;
  const chars = Array.from(collapsed);
  if (chars.length <= maxNameChars) return collapsed;
  return `${chars.slice(0, maxNameChars - 3).join('')}...`;
}

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
