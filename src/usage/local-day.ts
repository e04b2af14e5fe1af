// A bucket's quarter-hour slot as the person's local day (YYYY-MM-DD) in a named time zone.
import { AgentlogError } from '../errors.js';
import { slotMs, undatedSlot } from './buckets.js';

/** The period of tokens whose turn had no usable time. */
export const undatedDay = 'undated';

export type DayOf = (slot: number) => string;

const slotsPerDay = 86_400_000 / slotMs;

/** Names of UTC itself: their days need no ICU time zone data (whose loading costs a start-up). */
const utcNames = new Set(['UTC', 'ETC/UTC', 'GMT', 'ETC/GMT', 'UCT', 'ETC/UCT', 'ZULU', 'ETC/ZULU', 'UNIVERSAL', 'ETC/UNIVERSAL']);

/**
 * A slot → local day function for `timeZone` (an IANA name such as Europe/Paris, or UTC). `host`:
 * the caller knows `timeZone` is the zone this process's Date keeps local time in (the TZ it was
 * started with); then Date's own fields give the days, by the same ICU zone rules as Intl but
 * without loading Intl's locale data, which cost a report ~15 ms of CPU (measured: 0.2 ms instead).
 */
export function localDays(timeZone: string, host = false): DayOf {
  // A UTC day is a whole number of slots: one memo entry a day, not a slot.
  if (utcNames.has(timeZone.toUpperCase()))
    return memoDays(
      (n) => new Date(n * slotsPerDay * slotMs).toISOString().slice(0, 10),
      (slot) => Math.floor(slot / slotsPerDay),
    );
  if (host && keepsOwnZone()) return hostDays(timeZone);
  return intlDays(zoneFormat(timeZone));
}

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  } catch (error) {
    throw new AgentlogError('UnknownTimeZone', 'usage', `unknown time zone "${timeZone}": give an IANA name such as Europe/Paris or UTC`, {
      cause: error,
    });
  }
}

/**
 * `day` worked out once per `key` of a slot (the slot itself unless told): a Date and its text per
 * bucket row took most of a report's folding (measured). The undated slot is its own period.
 */
function memoDays(day: (key: number) => string, key: (slot: number) => number = (slot) => slot): DayOf {
  const memo = new Map<number, string>();
  return (slot) => {
    if (slot === undatedSlot) return undatedDay;
    const k = key(slot);
    let d = memo.get(k);
    if (d === undefined) {
      d = day(k);
      memo.set(k, d);
    }
    return d;
  };
}

const intlDays = (format: Intl.DateTimeFormat): DayOf => memoDays((slot) => format.format(new Date(slot * slotMs)));

/**
 * Whether Date keeps local time off UTC in January or July. A TZ that ICU does not know leaves Date
 * at UTC+0 all year, as a real UTC+0 zone does: both take Intl, which refuses the first.
 */
function keepsOwnZone(): boolean {
  return new Date(Date.UTC(2026, 0, 1)).getTimezoneOffset() !== 0 || new Date(Date.UTC(2026, 6, 1)).getTimezoneOffset() !== 0;
}

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/** Days from Date's local fields, written as Intl's en-CA writes them (a year outside 4 digits goes to Intl). */
function hostDays(timeZone: string): DayOf {
  let format: Intl.DateTimeFormat | undefined;
  return memoDays((slot) => {
    const d = new Date(slot * slotMs);
    const year = d.getFullYear();
    if (year >= 1000 && year <= 9999) return `${year}-${twoDigits(d.getMonth() + 1)}-${twoDigits(d.getDate())}`;
    format ??= zoneFormat(timeZone);
    return format.format(d);
  });
}

/** True for a real calendar day written YYYY-MM-DD. */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}
