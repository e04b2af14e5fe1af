// Numbers and times as the list and the transcript show them (design brief "Visual language"):
// relative in the list, absolute local time in the transcript, compact token counts.

/** "now", "5m", "3h", "2d", "4w", then the date. `nowMs` is passed in so tests pin the clock. */
export function relativeTime(iso: string | null, nowMs: number): string {
  if (iso === null) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const s = Math.max(0, Math.round((nowMs - t) / 1000));
  if (s < 60) return 'now';
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  if (s < 7 * 86_400) return `${Math.floor(s / 86_400)}d`;
  if (s < 60 * 86_400) return `${Math.floor(s / (7 * 86_400))}w`;
  return new Date(t).toISOString().slice(0, 10);
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** "2026-11-02 11:00" in the browser's time zone, or "" for a missing time. */
export function localDateTime(iso: string | null): string {
  if (iso === null) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "11:00" in the browser's time zone. */
export function localTime(iso: string | null): string {
  return localDateTime(iso).slice(11);
}

/** 950 → "950", 12_400 → "12k", 1_230_000 → "1.2M". */
export function compactCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${n < 10_000 ? (n / 1000).toFixed(1).replace(/\.0$/, '') : Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** "41s", "12m", "3h 5m" between two ISO times, or "" when either is missing. */
export function duration(from: string | null, to: string | null): string {
  if (from === null || to === null) return '';
  const s = Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));
  if (Number.isNaN(s)) return '';
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.round(s / 60)}m`;
  const h = Math.floor(s / 3600);
  const m = Math.round((s % 3600) / 60);
  return m === 0 ? `${h}h` : `${h}h ${m}m`;
}

/** The local calendar days (YYYY-MM-DD) a session was active on, from its first to its last time. */
export function activeDays(startedAt: string | null, endedAt: string | null): [string, string] | null {
  const start = startedAt ?? endedAt;
  if (start === null) return null;
  const day = (iso: string): string => localDateTime(iso).slice(0, 10);
  return [day(start), day(endedAt ?? start)];
}
