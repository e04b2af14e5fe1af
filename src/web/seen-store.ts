// What the person has seen of each session, kept in the browser's storage: how many turns were on
// screen when they last reached the end (the "last seen" line) and the session's end time then (the
// list's unseen-output dot).

export interface Seen {
  turns: number;
  ended_at: string | null;
}

const storageKey = 'agentlog.seen.v1';
/** Only the most recently viewed sessions are remembered, so the storage stays small. */
const maxEntries = 2000;

function readAll(): Record<string, Seen> {
  try {
    const raw = localStorage.getItem(storageKey);
    const parsed: unknown = raw === null ? {} : JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, Seen>) : {};
  } catch {
    return {};
  }
}

let cache: Record<string, Seen> | null = null;

export function seenOf(key: string): Seen | null {
  cache ??= readAll();
  const s = cache[key];
  return s !== undefined && typeof s.turns === 'number' ? s : null;
}

export function markSeen(key: string, seen: Seen): void {
  cache ??= readAll();
  delete cache[key];
  cache[key] = seen;
  const keys = Object.keys(cache);
  for (const k of keys.slice(0, Math.max(0, keys.length - maxEntries))) delete cache[k];
  try {
    localStorage.setItem(storageKey, JSON.stringify(cache));
  } catch {
    // Storage full or disabled: the line and the dot are a convenience, the page works without.
  }
}

/** True when the session ended later than when the person last looked (never for unvisited ones). */
export function hasUnseen(key: string, endedAt: string | null): boolean {
  const s = seenOf(key);
  if (s === null || endedAt === null || s.ended_at === null) return false;
  return Date.parse(endedAt) > Date.parse(s.ended_at);
}
