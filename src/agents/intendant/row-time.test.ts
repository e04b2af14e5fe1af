import { describe, expect, it } from 'vitest';
import { fourDigitYears } from '../../text/epoch-iso.js';
import { isoOf } from './row-time.js';

const viaDate = (ms: number): string | null => {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
};

describe('isoOf', () => {
  it('formats as a Date does, across days, years and the ends of the range', () => {
    const times = [
      0,
      999,
      86_399_999,
      86_400_000,
      Date.UTC(2026, 11, 1, 5, 21, 46, 963),
      Date.UTC(2026, 11, 1, 23, 59, 59, 999),
      Date.UTC(2026, 11, 2, 0, 0, 0, 0),
      // Back to an earlier day: the remembered day must not leak into it.
      Date.UTC(2026, 10, 30, 12, 0, 0, 5),
      Date.UTC(2024, 1, 29, 7, 8, 9, 10),
      Date.UTC(2000, 0, 1),
      fourDigitYears - 1,
      fourDigitYears,
      -1,
      -86_400_001,
      1.5,
      8.64e15,
      // Several in one second (its text is remembered), then a fraction and a negative that share it.
      Date.UTC(2026, 11, 1, 5, 21, 46, 0),
      Date.UTC(2026, 11, 1, 5, 21, 46, 7),
      Date.UTC(2026, 11, 1, 5, 21, 46, 42),
      1_000,
      1_000.5,
      0,
      -0.5,
      -1_000,
    ];
    // A walk through many days, in and out of order.
    for (let i = 0; i < 2000; i++) times.push(1_700_000_000_000 + ((i * 7919 * 3_600_017) % 400_000_000_000));
    for (const ms of times) expect(isoOf(ms), String(ms)).toBe(viaDate(ms));
  });

  it('is null for no time', () => {
    expect(isoOf(undefined)).toBeNull();
    expect(isoOf(Number.NaN)).toBeNull();
    expect(isoOf(Number.POSITIVE_INFINITY)).toBeNull();
    expect(isoOf(8.64e15 + 1)).toBeNull();
  });
});
