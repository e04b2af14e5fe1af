// When a row happened: `ts_ms` when the row has it; for rows from before 2026-07, the meta's
// `created_at` date plus the row's local time of day, a day later each time the clock runs
// backwards (midnight wrap), shifted by the meta's own local-vs-UTC offset (research §3.1).
import { dayMs } from '../../fs/clock.js';
import { msIso } from '../../text/epoch-iso.js';
import type { LogRow } from './log-row.js';
import type { SessionMeta } from './meta.js';

function naiveUtc(text: string): { dayStart: number; ms: number } | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})/.exec(text);
  if (m === null) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const dayStart = Date.UTC(y, mo - 1, d);
  if (!Number.isFinite(dayStart)) return undefined;
  return { dayStart, ms: dayStart + ((h * 60 + mi) * 60 + s) * 1000 };
}

function timeOfDayMs(ts: string | undefined): number | undefined {
  const m = ts === undefined ? null : /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/.exec(ts);
  if (m === null) return undefined;
  const [h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (h > 23 || mi > 59 || s > 59) return undefined;
  const frac = m[4] === undefined ? 0 : Number(m[4].padEnd(3, '0'));
  return ((h * 60 + mi) * 60 + s) * 1000 + frac;
}

/**
 * `new Date(ms).toISOString()`, or null for no time. Every turn and usage row is dated, tens of
 * thousands in a scan: whole milliseconds from 1970 to 9999 are formatted without a Date.
 */
export function isoOf(ms: number | undefined): string | null {
  if (ms === undefined || !Number.isFinite(ms)) return null;
  return msIso(ms);
}

/** Dates rows in file order; call `ms` once per row, in order, for the wrap inference to hold. */
export class RowClock {
  private readonly dayStart: number | undefined;
  private readonly offset: number;
  private readonly metaMs: number | undefined;
  private previous: number | undefined;
  private days = 0;

  constructor(meta: SessionMeta) {
    const naive = meta.createdAt === undefined ? undefined : naiveUtc(meta.createdAt);
    this.dayStart = naive?.dayStart;
    this.offset = naive !== undefined && meta.createdAtMs !== undefined ? meta.createdAtMs - naive.ms : 0;
    this.metaMs = meta.createdAtMs ?? (naive === undefined ? undefined : naive.ms + this.offset);
  }

  /** The meta's own time (the legacy task's date when nothing better exists). */
  get metaTime(): number | undefined {
    return this.metaMs;
  }

  /** Epoch ms of a row, or undefined when neither the row nor the meta dates it. */
  ms(row: LogRow): number | undefined {
    if (row.ts_ms !== undefined) return row.ts_ms;
    if (this.dayStart === undefined) return undefined;
    const tod = timeOfDayMs(row.ts);
    if (tod === undefined) return this.metaMs;
    if (this.previous !== undefined && tod < this.previous) this.days++;
    this.previous = tod;
    return this.dayStart + this.days * dayMs + tod + this.offset;
  }
}
