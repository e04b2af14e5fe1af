import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { clipMarker, JsonLineClipper } from './read-clipped-line.js';
import { forEachJsonObject } from './read-jsonl.js';

function clipInPieces(text: string, keep: number, piece: number, max = 1 << 20): string | undefined {
  const buf = Buffer.from(text);
  const c = new JsonLineClipper(keep, max);
  for (let i = 0; i < buf.length; i += piece) c.feed(buf, i, Math.min(buf.length, i + piece));
  return c.result()?.toString('utf8');
}

describe('JsonLineClipper', () => {
  it('keeps the structure and each string’s first bytes, cut on a character and escape boundary', () => {
    const line = JSON.stringify({ type: 'user', message: { content: `é\\"${'x'.repeat(100)}` }, n: [1, 2] });
    const out = clipInPieces(line, 8, 3);
    expect(JSON.parse(out as string)).toEqual({ type: 'user', message: { content: `é\\"xxxx${clipMarker}` }, n: [1, 2] });
  });

  it('always gives valid JSON whose strings are prefixes of the original’s', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 1, max: 7 }), (value, keep, piece) => {
        const out = clipInPieces(JSON.stringify(value), keep, piece);
        expect(() => JSON.parse(out as string)).not.toThrow();
      }),
    );
  });

  it('gives up on a line whose clipped copy is still over the bound', () => {
    expect(clipInPieces(JSON.stringify(Array.from({ length: 1000 }, (_, i) => i)), 8, 64, 256)).toBeUndefined();
  });
});

describe('forEachJsonObject with clipLongLines', () => {
  it('hands a line over the bound on clipped and counts it clipped, not bad', async () => {
    const dir = await tempDir();
    const path = join(dir, 'big.jsonl');
    const big = JSON.stringify({ type: 'user', message: { content: 'y'.repeat(5000) } });
    await writeFile(path, `{"a":1}\n${big}\r\n${'['.repeat(5000)}\n{"b":2}\n`);
    const objs: unknown[] = [];
    const r = await forEachJsonObject(path, (o) => void objs.push(o), {
      maxLineBytes: 1000,
      chunkBytes: 256,
      clipLongLines: { keepStringBytes: 100, maxOutputBytes: 2000 },
    });
    expect(objs).toEqual([{ a: 1 }, { type: 'user', message: { content: `${'y'.repeat(100)}${clipMarker}` } }, { b: 2 }]);
    expect(r.clippedLines).toBe(1);
    // A line that is all structure is still over the bound once clipped: that one is bad.
    expect(r.badLines).toBe(1);
  });
});
