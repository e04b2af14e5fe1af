import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { epochIso, msIso } from './epoch-iso.js';

describe('epochIso', () => {
  it('matches toISOString for every whole millisecond from 1970 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799999 }), (ms) => {
        expect(epochIso(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20000 },
    );
  });

  it('matches at the edges: epoch, leap days, end of 9999', () => {
    for (const ms of [0, 999, 86399999, 86400000, 951782400000, 951868799999, 4107542400000, 253402300799999]) {
      expect(epochIso(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('matches for runs within one second, a second left and come back to, and its edges', () => {
    const base = 1_780_000_000_000;
    for (const ms of [base, base + 1, base + 999, base + 1000, base + 5, base, base - 1, base - 1000, 0, 999, 1000]) {
      expect(epochIso(ms)).toBe(new Date(ms).toISOString());
    }
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2999 }), { minLength: 2, maxLength: 30 }), (offsets) => {
        for (const o of offsets) expect(epochIso(base + o)).toBe(new Date(base + o).toISOString());
      }),
    );
  });

  it('leaves fractions, negatives and five-digit years to Date', () => {
    for (const ms of [1.5, -1, 253402300800000, Number.NaN, Number.POSITIVE_INFINITY]) expect(epochIso(ms)).toBeUndefined();
  });
});

describe('msIso', () => {
  it('answers as a Date does where epochIso declines, and null where a Date has no time', () => {
    for (const ms of [0, 1.5, -1, 253402300800000, 8.64e15]) expect(msIso(ms)).toBe(new Date(ms).toISOString());
    for (const ms of [8.64e15 + 1, Number.NaN, Number.POSITIVE_INFINITY, null, undefined]) expect(msIso(ms)).toBeNull();
  });
});
