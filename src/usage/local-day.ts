// A bucket's quarter-hour slot as the person's local day (YYYY-MM-DD) in a named time zone.
import { AgentlogError } from '../errors.js';
import { slotMs, undatedSlot } from './buckets.js';

/** The period of tokens whose turn had no usable time. */
export const undatedDay = 'undated';

export type DayOf = (slot: number) => string;

const slotsPerDay = 86_400_000 / slotMs;

/** Names of UTC itself: their days need no ICU time zone data (whose loading costs a start-up). */
const utcNames = new Set(['UTC', 'ETC/UTC', 'GMT', 'ETC/GMT', 'UCT', 'ETC/UCT', 'ZULU', 'ETC/ZULU', 'UNIVERSAL', 'ETC/UNIVERSAL']);

/** A slot → local day function for `timeZone` (an IANA name such as Europe/Paris, or UTC). */
export function localDays(timeZone: string): DayOf {
  if (utcNames.has(timeZone.toUpperCase())) {
    // Memoised per day: a Date and its ISO text per bucket row took most of a report's folding (measured).
    const days = new Map<number, string>();
    return (slot) => {
      if (slot === undatedSlot) return undatedDay;
      const n = Math.floor(slot / slotsPerDay);
      let day = days.get(n);
      if (day === undefined) {
        day = new Date(n * slotsPerDay * slotMs).toISOString().slice(0, 10);
        days.set(n, day);
      }
      return day;
    };
  }
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  } catch (error) {
    throw new AgentlogError('UnknownTimeZone', 'usage', `unknown time zone "${timeZone}": give an IANA name such as Europe/Paris or UTC`, {
      cause: error,
    });
  }
  const memo = new Map<number, string>();
  return (slot) => {
    if (slot === undatedSlot) return undatedDay;
    let day = memo.get(slot);
    if (day === undefined) {
      day = format.format(new Date(slot * slotMs));
      memo.set(slot, day);
    }
    return day;
  };
}

/** True for a real calendar day written YYYY-MM-DD. */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}
