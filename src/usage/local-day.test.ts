import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slotMs, undatedSlot } from './buckets.js';
import { localDays, undatedDay } from './local-day.js';

describe('localDays', () => {
  it('UTC, read without ICU, gives the days ICU gives a zone that is always UTC+0 (Africa/Abidjan)', () => {
    const utc = localDays('UTC');
    const abidjan = localDays('Africa/Abidjan');
    const slots = fc.integer({ min: 0, max: Math.floor(Date.UTC(2100, 0, 1) / slotMs) });
    fc.assert(fc.property(slots, (slot) => utc(slot) === abidjan(slot)));
    for (const name of ['utc', 'Etc/UTC', 'GMT'])
      expect(localDays(name)(Math.floor(Date.UTC(2025, 11, 31, 23, 59) / slotMs))).toBe('2025-12-31');
  });

  it('splits at the zone’s own midnight, and names undated tokens', () => {
    const tokyo = localDays('Asia/Tokyo');
    expect(tokyo(Date.UTC(2025, 11, 31, 14, 45) / slotMs)).toBe('2025-12-31');
    expect(tokyo(Date.UTC(2025, 11, 31, 15, 0) / slotMs)).toBe('2026-01-01');
    expect(tokyo(undatedSlot)).toBe(undatedDay);
    expect(localDays('UTC')(undatedSlot)).toBe(undatedDay);
  });

  it('refuses a zone that does not exist', () => {
    expect(() => localDays('Mars/Olympus')).toThrow(/unknown time zone/);
  });
});
