import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fold, foldNeedle } from './fold.js';
import { NgramFilter } from './ngram-filter.js';

const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'É', 'e\u0301', '😀', ' ', '中', 'x', 'Y'), maxLength: 80 });

describe('NgramFilter', () => {
  it('property: never says no to a needle that occurs in one of its texts', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 8 }), fc.nat(), fc.nat(), fc.nat(), (texts, pick, from, len) => {
        const folded = texts.map((t) => fold(t).text);
        const filter = NgramFilter.parse(NgramFilter.build(folded).serialise()) as NgramFilter;
        const hay = folded[pick % folded.length] as string;
        if (hay.length === 0) return;
        const s = from % hay.length;
        const needle = hay.slice(s, s + 1 + (len % 12));
        expect(filter.mayContain(needle)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('says no to most needles that occur nowhere', () => {
    const f = NgramFilter.build(['the middleware re-issues the 302 when the cookie is missing'.repeat(3)]);
    expect(f.mayContain(foldNeedle('middleware'))).toBe(true);
    const absent = ['zebra', 'quartz', 'xylophone', 'kumquat', 'fjord', 'wyvern', 'jukebox', 'vodka'];
    expect(absent.filter((n) => f.mayContain(n)).length).toBeLessThanOrEqual(1);
  });

  it('passes needles too short to filter on', () => {
    expect(NgramFilter.build(['abc']).mayContain('z')).toBe(true);
  });

  it('rejects malformed filter files rather than trusting them', () => {
    expect(NgramFilter.parse(Buffer.from('nope'))).toBeNull();
    const good = NgramFilter.build(['hello']).serialise();
    expect(NgramFilter.parse(good.subarray(0, good.length - 1))).toBeNull();
  });
});
