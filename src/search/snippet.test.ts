import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeSnippet, snippetBytes } from './snippet.js';

describe('makeSnippet', () => {
  it('leads the anchor by 120 bytes and keeps ranges absolute', () => {
    const text = 'x'.repeat(500);
    const s = makeSnippet(text, 300, [[300, 305]]);
    expect(s.offset).toBe(180);
    expect(Buffer.byteLength(s.snippet)).toBe(280);
    expect(s.ranges).toEqual([[300, 305]]);
  });

  it('slides back near the end of the text so the whole budget is used', () => {
    const s = makeSnippet('y'.repeat(300), 290, [[290, 295]]);
    expect(s.offset).toBe(20);
    expect(Buffer.byteLength(s.snippet)).toBe(280);
  });

  it('clips and merges ranges to the snippet', () => {
    const s = makeSnippet('z'.repeat(1000), 0, [
      [0, 4],
      [2, 6],
      [270, 300],
      [900, 910],
    ]);
    expect(s.ranges).toEqual([
      [0, 6],
      [270, 280],
    ]);
  });

  it('property: never longer than 280 bytes, cut on code points, ranges inside', () => {
    const unit = fc.constantFrom('a', 'é', '中', '😀', ' ');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 400 }), fc.nat(), (text, a) => {
        const buf = Buffer.from(text, 'utf8');
        const anchor = buf.length === 0 ? 0 : a % buf.length;
        const s = makeSnippet(text, anchor, [[anchor, Math.min(buf.length, anchor + 5)]]);
        const bytes = Buffer.byteLength(s.snippet);
        expect(bytes).toBeLessThanOrEqual(snippetBytes);
        expect(buf.subarray(s.offset, s.offset + bytes).toString('utf8')).toBe(s.snippet);
        expect(s.snippet.includes('\ufffd')).toBe(false);
        for (const [x, y] of s.ranges) {
          expect(x).toBeGreaterThanOrEqual(s.offset);
          expect(y).toBeLessThanOrEqual(s.offset + bytes);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
