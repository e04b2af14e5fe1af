// The rule for a session name as read (session-name.ts applies it when writing too), apart from the
// writer: a reader of metas (the scan worker's Intendant reader) then loads no lock or schema.
export const maxNameChars = 180;

/** The normalised name, or null when nothing but whitespace is left. */
export function normaliseNameOrNull(raw: string): string | null {
  const collapsed = raw.replace(/\s+/gu, ' ').trim();
  if (collapsed === '') return null;
  const chars = Array.from(collapsed);
  if (chars.length <= maxNameChars) return collapsed;
  return `${chars.slice(0, maxNameChars - 3).join('')}...`;
}
