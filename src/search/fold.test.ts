import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstOccurrence, fold, foldNeedle, occurrences, originalRange, utf8Offsets, viewOf } from './fold.js';
import { highlights } from './highlight.js';

/** Characters that stress folding: case, both normal forms, expansions, marks, astral, Greek sigma. */
const tricky = [
  'a',
  'B',
  'e',
  'É',
  'é',
  'e\u0301',
  '\u0301',
  'İ',
  'i',
  'Σ',
  'σ',
  'ς',
  'ß',
  'ﬁ',
  'K',
  '\u212a',
  '\u212b',
  'Å',
  '😀',
  '中',
  ' ',
  '\n',
  '\u0000',
  'Ω',
  'ǅ',
];
const trickyText = fc.array(fc.constantFrom(...tricky), { maxLength: 40 }).map((a) => a.join(''));
const anyText = fc.oneof(trickyText, fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 60 }));

/** Byte ranges of every highlight of `needle` in `text`, as the search reports them. */
function byteRanges(text: string, needle: string): [number, number][] {
  return highlights(viewOf(fold(text)), text, [foldNeedle(needle)]).ranges;
}

describe('fold', () => {
  it('lowercases and decomposes, keeping ASCII unmapped', () => {
    expect(fold('Hello World')).toEqual({ text: 'hello world', map: null });
    expect(fold('Café').text).toBe('cafe\u0301');
    expect(fold('CAFÉ').text).toBe(fold('cafe\u0301').text);
    // Em dashes and emoji fold without a map: indices correspond one to one.
    expect(fold('a — b 😀').map).toBeNull();
  });

  it('folds Σ the same wherever it stands (no final-sigma context)', () => {
    expect(fold('ΟΔΟΣ').text).toBe(fold('οδοσ').text);
    expect(foldNeedle('Σ')).toBe('σ');
  });

  it('matches either normal form of an accented word, in either direction', () => {
    for (const [hay, needle] of [
      ['un Café noir', 'café'],
      ['un Cafe\u0301 noir', 'CAFÉ'],
      ['un café noir', 'cafe\u0301'],
    ] as const) {
      const f = fold(hay);
      const at = firstOccurrence(viewOf(f), foldNeedle(needle));
      expect(at).toBeGreaterThan(-1);
      const [s, e] = originalRange(viewOf(f), hay, at, at + foldNeedle(needle).length);
      expect(fold(hay.slice(s, e)).text).toBe(foldNeedle(needle));
    }
  });

  it('does not let an unaccented needle match an accented letter', () => {
    expect(firstOccurrence(viewOf(fold('un café noir')), 'cafe')).toBe(-1);
    expect(firstOccurrence(viewOf(fold('un cafe\u0301 noir')), 'cafe')).toBe(-1);
    expect(firstOccurrence(viewOf(fold('un cafe noir')), 'cafe')).toBe(3);
  });

  it('reports every occurrence, not only the first', () => {
    const f = fold('ab AB aB');
    expect(occurrences(viewOf(f), 'ab', 10)).toEqual([0, 3, 6]);
  });

  it('converts UTF-16 indices to UTF-8 byte offsets', () => {
    expect(utf8Offsets('é!😀x', [0, 1, 2, 4, 5])).toEqual([0, 2, 3, 7, 8]);
  });

  it('property: every reported range, sliced from the original, folds to the needle', () => {
    fc.assert(
      fc.property(anyText, anyText, fc.nat(), fc.nat(), (before, after, a, b) => {
        const middle = tricky
          .slice(a % tricky.length)
          .concat(tricky.slice(0, a % tricky.length))
          .slice(0, 1 + (b % 4))
          .join('');
        const text = before + middle + after;
        const needle = middle;
        const folded = foldNeedle(needle);
        if (folded.trim() === '') return;
        const buf = Buffer.from(text, 'utf8');
        for (const [s, e] of byteRanges(text, needle)) {
          expect(s).toBeLessThan(e);
          expect(e).toBeLessThanOrEqual(buf.length);
          expect(fold(buf.toString('utf8', s, e)).text).toBe(folded);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('property: random needles never yield a range that folds to something else', () => {
    fc.assert(
      fc.property(anyText, trickyText, (text, needle) => {
        const folded = foldNeedle(needle);
        if (folded.trim() === '') return;
        const buf = Buffer.from(text, 'utf8');
        for (const [s, e] of byteRanges(text, needle)) expect(fold(buf.toString('utf8', s, e)).text).toBe(folded);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: a needle found in a text folded whole is found at a char boundary of the original', () => {
    fc.assert(
      fc.property(trickyText, trickyText, trickyText, (a, n, b) => {
        const folded = foldNeedle(n);
        if (folded.trim() === '' || /^\p{M}/u.test(folded) || /^\p{M}/u.test(fold(b).text)) return;
        // A needle that ends where the text continues with a combining mark is not a match (by design).
        const hits = byteRanges(a + n + b, n);
        if (/\p{M}$/u.test(folded) || !/^\p{M}/u.test(fold(b).text)) expect(hits.length).toBeGreaterThan(0);
      }),
      { numRuns: 1000 },
    );
  });
});
