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

  it('reads the days from Date when the zone is the process’s own, as Intl gives them, DST and odd offsets too', () => {
    const before = process.env.TZ;
    try {
      // Half- and quarter-hour offsets, 30-minute DST (Lord Howe), DST at midnight (Santiago, Beirut), Ramadan breaks (Casablanca).
      const zones = [
        'Europe/Paris',
        'America/St_Johns',
        'Asia/Kathmandu',
        'Australia/Lord_Howe',
        'Pacific/Chatham',
        'America/Santiago',
        'Asia/Beirut',
        'Africa/Casablanca',
        'America/Los_Angeles',
      ];
      const slots = fc.integer({ min: 0, max: Math.floor(Date.UTC(2100, 0, 1) / slotMs) });
      // Every slot of 2024 and 2025 near midnight somewhere: a day's edge moves with each transition.
      const edges = fc.integer({ min: Math.floor(Date.UTC(2024, 0, 1) / slotMs), max: Math.floor(Date.UTC(2026, 0, 1) / slotMs) });
      for (const zone of zones) {
        process.env.TZ = zone;
        const fromDate = localDays(zone, true);
        const fromIntl = localDays(zone);
        fc.assert(
          fc.property(fc.oneof(slots, edges), (slot) => fromDate(slot) === fromIntl(slot)),
          { numRuns: 2000 },
        );
        expect(fromDate(undatedSlot)).toBe(undatedDay);
      }
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it('takes Intl where the process’s Date keeps UTC+0: a TZ Date does not know is still refused', () => {
    const before = process.env.TZ;
    try {
      process.env.TZ = 'Mars/Olympus';
      expect(() => localDays('Mars/Olympus', true)).toThrow(/unknown time zone/);
      process.env.TZ = 'Africa/Abidjan';
      expect(localDays('Africa/Abidjan', true)(Math.floor(Date.UTC(2025, 11, 31, 23, 59) / slotMs))).toBe('2025-12-31');
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it('refuses a zone that does not exist', () => {
    expect(() => localDays('Mars/Olympus')).toThrow(/unknown time zone/);
  });
});
