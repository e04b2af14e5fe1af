import { describe, expect, it } from 'vitest';
import { cutKeyStrings } from './cut-key-strings.js';

const key = Buffer.from('"output":"');
/** Cuts a line written inside a larger buffer, as a read chunk holds it. */
function cut(line: string, keep: number, min: number): string | undefined {
  const b = Buffer.from(`{"before":1}\n${line}\n{"output":"${'after'.repeat(50)}"}\n`);
  const start = b.indexOf(10) + 1;
  return cutKeyStrings(b, start, b.indexOf(10, start), key, () => keep, min);
}

describe('cutKeyStrings', () => {
  it('cuts a long value to its head and keeps the rest of the line', () => {
    expect(cut(JSON.stringify({ a: 1, output: 'x'.repeat(40), b: 'y' }), 5, 10)).toBe('{"a":1,"output":"xxxxx","b":"y"}');
  });

  it('leaves a short value and other keys alone, and answers undefined when nothing was cut', () => {
    expect(cut(JSON.stringify({ output: 'short', other: 'z'.repeat(40) }), 2, 10)).toBeUndefined();
    // Only within its line: the long value on the next line of the buffer is not this line's.
    expect(cut('{"a":1}', 2, 10)).toBeUndefined();
  });

  it('does not take a key spelled inside another string for a key', () => {
    const line = JSON.stringify({ note: `"output":"${'q'.repeat(40)}`, tail: 1 });
    expect(cut(line, 2, 10)).toBeUndefined();
  });

  it('never leaves a cut that splits an escape or a UTF-8 character', () => {
    for (const body of ['\n'.repeat(30), 'é'.repeat(30), '\\'.repeat(30), '"'.repeat(30), '🙂'.repeat(30)]) {
      for (let keep = 0; keep < 12; keep++) {
        const out = cut(JSON.stringify({ output: body, b: 2 }), keep, 10);
        if (out === undefined) continue;
        let parsed: { output: string; b: number } | undefined;
        try {
          parsed = JSON.parse(out) as { output: string; b: number };
        } catch {
          // A split `\uXXXX` escape is left invalid on purpose: the caller's parse rejects it.
          continue;
        }
        expect(body.startsWith(parsed.output)).toBe(true);
        expect(parsed.b).toBe(2);
      }
    }
  });
});
