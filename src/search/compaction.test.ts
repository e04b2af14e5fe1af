import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxSegments, mergeFrom } from './compaction.js';

describe('mergeFrom', () => {
  it('merges the tail like a binary counter', () => {
    expect(mergeFrom([10])).toBe(0);
    expect(mergeFrom([10, 1])).toBe(1);
    expect(mergeFrom([1, 1])).toBe(0);
    expect(mergeFrom([8, 4, 2, 1, 1])).toBe(0);
    expect(mergeFrom([100, 4, 2, 1, 1])).toBe(1);
  });

  it('property: equal appends keep O(log n) segments and rewrite O(n log n) bytes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 5000 }), (appends, first) => {
        let sizes = [first];
        let rewritten = 0;
        for (let i = 0; i < appends; i++) {
          sizes.push(1);
          const from = mergeFrom(sizes);
          if (from < sizes.length - 1) {
            const merged = sizes.slice(from).reduce((a, b) => a + b, 0);
            rewritten += merged;
            sizes = [...sizes.slice(0, from), merged];
          }
          expect(sizes.length).toBeLessThanOrEqual(maxSegments);
        }
        const total = first + appends;
        expect(rewritten).toBeLessThanOrEqual(total * (Math.log2(total) + 2));
      }),
      { numRuns: 50 },
    );
  });
});
