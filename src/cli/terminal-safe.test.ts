import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeControls, styleMarks } from './terminal-safe.js';

const unsafe =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufdd0-\ufdef]|(?<![\ud800-\udbff])[\udc80-\udcff]/;

describe('escapeControls', () => {
  it('shows every control character as a visible escape', () => {
    expect(escapeControls('a\u001b[31mb\u0007c\u009bd\u007fe', false)).toBe('a\\x1b[31mb\\x07c\\x9bd\\x7fe');
    expect(escapeControls('\u202ex\u2066y\u2069\u200e\u200f\u061c', false)).toBe('\\u202ex\\u2066y\\u2069\\u200e\\u200f\\u061c');
    expect(escapeControls('tab\tline\nCRLF\r\nCR\r', false)).toBe('tab\tline\nCRLF\r\nCR\\x0d');
  });

  it('shows a byte of a name that is not UTF-8 (carried as U+DC80–U+DCFF) as that byte, never a real character', () => {
    expect(escapeControls('/p/-work-\udcff\udcfe\udc80x/s.jsonl', false)).toBe('/p/-work-\\xff\\xfe\\x80x/s.jsonl');
    // U+1F080 is the pair D83C DC80: a character, printed as is.
    expect(escapeControls('\u{1f080}', false)).toBe('\u{1f080}');
  });

  it('turns style marks into SGR only when asked', () => {
    const text = `${styleMarks.bold}b${styleMarks.normal}${styleMarks.accent}c${styleMarks.defaultColour}`;
    expect(escapeControls(text, true)).toBe('\u001b[1mb\u001b[22m\u001b[36mc\u001b[39m');
    expect(escapeControls(text, false)).toBe('\\ufdd0b\\ufdd2\\ufdd3c\\ufdd4');
  });

  it('leaves no control character in any text, and changes text that has none not at all', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = escapeControls(s, false);
        expect(unsafe.test(out.replace(/\r\n/g, '\n'))).toBe(false);
        if (!unsafe.test(s)) expect(out).toBe(s);
      }),
    );
  });
});
