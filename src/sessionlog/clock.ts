// Time for the log: an injectable clock and the local-time renderings the format uses.

export { type Clock, systemClock } from '../fs/clock.js';

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** `HH:MM:SS.mmm` in local time: the `ts` of a log line (its date lives in `ts_ms`). */
export function timeOfDay(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** `YYYY-MM-DD` + separator + `HH:MM:SS` in local time, no offset (the meta's `created_at`). */
export function localDateTime(ms: number, separator: 'T' | ' ' = 'T'): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}${separator}${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Reads a local naive `YYYY-MM-DD[T ]HH:MM:SS` back to epoch ms (legacy metas), or undefined. */
export function parseLocalDateTime(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})/.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const ms = new Date(y, mo - 1, d, h, mi, s).getTime();
  return Number.isFinite(ms) ? ms : undefined;
}
