// The rule for a session name as read (session-name.ts applies it when writing too), apart from the
// writer: a reader of metas (the scan worker's Intendant reader) then loads no lock or schema.
import { SessionLogError } from './errors.js';

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
