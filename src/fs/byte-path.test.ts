import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesOfPath, nameFromBytes, osPath } from './byte-path.js';

/** Bytes biased towards the edges of UTF-8: stray continuations, surrogate and overlong leads, 0xFF. */
const edgyBytes = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(0x80, 0x90, 0xa0, 0xb2, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff),
    ),
    { maxLength: 64 },
  )
  .map((xs) => Uint8Array.from(xs));

describe('byte paths', () => {
  it('turns any bytes into a string and back into exactly those bytes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), edgyBytes), (bytes) => {
        expect(bytesOfPath(nameFromBytes(bytes)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves every valid UTF-8 name as its text, and hands such a path to the OS unchanged', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }).filter((s) => Buffer.from(s, 'utf8').toString('utf8') === s),
        (s) => {
          expect(nameFromBytes(Buffer.from(s, 'utf8'))).toBe(s);
          expect(bytesOfPath(s).equals(Buffer.from(s, 'utf8'))).toBe(true);
          const p = osPath(s);
          expect(typeof p === 'string' ? p === s : p.equals(Buffer.from(s, 'utf8'))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('never confuses a stray byte with the character U+DC80 or an astral character', () => {
    // The UTF-8 form U+DC80 would have is invalid UTF-8: escaped byte by byte, not read as U+DC80.
    expect(nameFromBytes(Uint8Array.of(0xed, 0xb2, 0x80))).toBe('\udced\udcb2\udc80');
    expect(nameFromBytes(Uint8Array.of(0x80))).toBe('\udc80');
    expect(nameFromBytes(Buffer.from('\ufeffa'))).toBe('\ufeffa');
    // U+1F080 is the pair D83C DC80: a real character, not an escape.
    const astral = '\u{1f080}';
    expect(nameFromBytes(Buffer.from(astral))).toBe(astral);
    expect(bytesOfPath(`${astral}\udcff`).equals(Buffer.concat([Buffer.from(astral), Buffer.of(0xff)]))).toBe(true);
    // Overlong and out-of-range forms are escaped, never decoded.
    expect(nameFromBytes(Uint8Array.of(0xc0, 0xaf))).toBe('\udcc0\udcaf');
    expect(nameFromBytes(Uint8Array.of(0xf4, 0x90, 0x80, 0x80))).toBe('\udcf4\udc90\udc80\udc80');
  });

  it('opens a file in a folder whose name is not UTF-8 by the string a listing gave', () => {
    const root = mkdtempSync(join(tmpdir(), 'agentlog-bytes-'));
    try {
      const dir = Buffer.concat([Buffer.from(`${root}/a`), Buffer.of(0xff, 0xfe), Buffer.from('b')]);
      mkdirSync(dir);
      writeFileSync(Buffer.concat([dir, Buffer.from('/f.txt')]), 'held');
      const [name] = readdirSync(root, { encoding: 'buffer' });
      const path = join(root, nameFromBytes(name as Buffer), 'f.txt');
      expect(path).toBe(`${root}/a\udcff\udcfeb/f.txt`);
      expect(readFileSync(osPath(path), 'utf8')).toBe('held');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
