// Epoch milliseconds (the `ts` of Cline's and Roo Code's messages) as the record's ISO timestamps.
import { epochIso } from '../../text/epoch-iso.js';

/**
 * `new Date(ms).toISOString()`, or null for no time; every message is dated, and formatting
 * without a Date took ~5 ms of a cold scan of the bench home's 92 Cline tasks. Out of a Date's
 * range it throws as the Date does.
 */
export function iso(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return null;
  return epochIso(ms) ?? new Date(ms).toISOString();
}
