// Epoch milliseconds as ISO timestamps without a Date: readers date every line or row (a Kimi wire,
// Intendant's session log), and `new Date(ms).toISOString()` per line was a measurable share of a scan.

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);
/** 10000-01-01T00:00:00Z: before it an ISO timestamp has a four-digit year. */
export const fourDigitYears = 253402300800000;

/** The whole second formatted last (epoch ms, a multiple of 1000) and its text up to the milliseconds. */
const lastSecond = { ms: Number.NaN, prefix: '' };

/**
 * `new Date(ms).toISOString()` for whole milliseconds from 1970 to 9999 (days to a civil date after
 * Howard Hinnant's `civil_from_days`); undefined outside that range, where the caller asks a Date.
 * Example: epochIso(0) === '1970-01-01T00:00:00.000Z'.
 */
export function epochIso(ms: number): string | undefined {
  if (!Number.isInteger(ms) || ms < 0 || ms >= fourDigitYears) return undefined;
  const milli = ms % 1000;
  // Lines come a few to the second: the second's `YYYY-MM-DDTHH:MM:SS.` is formatted once (its
  // strings were ~7 of the 78 MB an Intendant scan of the bench home allocated).
  if (ms - milli === lastSecond.ms) return `${lastSecond.prefix}${pad3(milli)}Z`;
  const secs = (ms - milli) / 1000;
  const days = Math.floor(secs / 86400);
  const sod = secs - days * 86400;
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const h = Math.floor(sod / 3600);
  const mi = Math.floor((sod - h * 3600) / 60);
  const s = sod - h * 3600 - mi * 60;
  lastSecond.ms = ms - milli;
  lastSecond.prefix = `${year}-${pad2(month)}-${pad2(day)}T${pad2(h)}:${pad2(mi)}:${pad2(s)}.`;
  return `${lastSecond.prefix}${pad3(milli)}Z`;
}

/**
 * Epoch milliseconds as `new Date(ms).toISOString()`, or null for no time (none given, or one a
 * Date has not): `epochIso` where it answers, a Date only for fractions and years past 9999.
 */
export function msIso(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  const fast = epochIso(ms);
  if (fast !== undefined) return fast;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}
