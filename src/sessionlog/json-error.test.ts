import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset, lineColumn } from './json-error.js';

describe('jsonErrorOffset', () => {
  it('agrees with JSON.parse on what is valid', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(jsonErrorOffset(text)).toBeNull();
      }),
    );
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom('}', ']', ',', ':', '"', 'x', '\n', '\\'), (text, at, junk) => {
        const broken = text.slice(0, at % (text.length + 1)) + junk + text.slice(at % (text.length + 1));
        let valid = true;
        try {
          JSON.parse(broken);
        } catch {
          valid = false;
        }
        expect(jsonErrorOffset(broken) === null).toBe(valid);
      }),
    );
  });

  it('points at the offending character by line and column', () => {
    const text = '{\n  "a": 1,\n}';
    const at = jsonErrorOffset(text);
    expect(at).toBe(12);
    expect(lineColumn(text, at ?? 0)).toEqual({ line: 3, column: 1 });
    expect(jsonErrorOffset('{"a":1')).toBe(6);
  });
});
