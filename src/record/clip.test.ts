import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clip, cutChars, outputClip } from './clip.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('clip', () => {
  it('keeps text up to the whole limit untouched', () => {
    const text = 'x'.repeat(outputClip.whole);
    expect(clip(text, outputClip)).toBe(text);
  });

  it('keeps the first and last half around an omitted line', () => {
    const text = `${'a'.repeat(3000)}${'b'.repeat(3000)}`;
    const out = clip(text, outputClip);
    expect(out.startsWith('a'.repeat(2048))).toBe(true);
    expect(out.endsWith('b'.repeat(2048))).toBe(true);
    expect(out).toContain('\n… 1904 bytes omitted …\n');
  });

  it('never cuts inside a code point, and the parts add up (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 3000 }), fc.integer({ min: 4, max: 64 }), (text, half) => {
        const rule = { whole: half * 2, half };
        const out = clip(text, rule);
        if (bytes(text) <= rule.whole) return out === text;
        const m = /\n… (\d+) bytes omitted …\n/.exec(out);
        if (m === null) return false;
        const [head, tail] = [out.slice(0, m.index), out.slice(m.index + m[0].length)];
        // Round trip through UTF-8 proves no lone surrogate was produced.
        const clean = Buffer.from(head + tail, 'utf8').toString('utf8') === head + tail;
        return (
          clean &&
          bytes(head) <= half &&
          bytes(tail) <= half &&
          bytes(head) + bytes(tail) + Number(m[1]) === bytes(text) &&
          text.startsWith(head) &&
          text.endsWith(tail)
        );
      }),
    );
  });
});

describe('cutChars', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(cutChars('😀😀😀', 2)).toBe('😀😀');
    expect(cutChars('abc', 5)).toBe('abc');
  });
});
