import { appendFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { captureCursor, checkCursor, unchangedPerDiscovery, type FileCursor } from './file-cursor.js';

const line = (n: number): string => `{"n":${n},"pad":"${'x'.repeat(60)}"}\n`;
const lines = (from: number, to: number): string => Array.from({ length: to - from }, (_, i) => line(from + i)).join('');

async function captured(path: string, offset: number, mode: 'append' | 'whole' = 'append', capturedMs = Date.now()): Promise<FileCursor> {
  const c = await captureCursor(path, offset, mode, capturedMs);
  if (c === null) throw new Error('no cursor');
  return c;
}

/** Pretends the cursor was captured long after the file's last write (quiescent: the fast path applies). */
const later = (c: FileCursor): FileCursor => ({ ...c, captured_ms: c.captured_ms + 10_000 });

describe('file cursors', () => {
  it('an honest append reads as appended, and a torn tail is left for later', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.jsonl');
    await writeFile(path, lines(0, 100));
    const c = await captured(path, (await import('node:fs')).statSync(path).size);
    expect(await checkCursor(later(c))).toBe('unchanged');
    await appendFile(path, '{"torn":');
    expect(await checkCursor(c)).toBe('appended');
    await appendFile(path, '1}\n');
    expect(await checkCursor(c)).toBe('appended');
  });

  it('a torn tail that has not grown is nothing new', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.jsonl');
    const body = `${lines(0, 3)}{"torn":`;
    await writeFile(path, body);
    const c = await captureCursor(path, Buffer.byteLength(lines(0, 3)), 'append', Date.now(), Buffer.byteLength(body));
    expect(c !== null && (await checkCursor(c))).toBe('unchanged');
    // Without knowing what the extractor saw, the torn bytes count as new.
    expect(await checkCursor(await captured(path, Buffer.byteLength(lines(0, 3))))).toBe('appended');
  });

  it('truncation and replacement read as rewritten', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.jsonl');
    await writeFile(path, lines(0, 100));
    const c = await captured(path, Buffer.byteLength(lines(0, 100)));
    await writeFile(path, lines(0, 50));
    expect(await checkCursor(c)).toBe('rewritten');
    await writeFile(path, lines(0, 100));
    const c2 = await captured(path, Buffer.byteLength(lines(0, 100)));
    const other = join(dir, 'b.jsonl');
    await writeFile(other, lines(0, 100) + lines(100, 110));
    await rename(other, path);
    expect(await checkCursor(later(c2))).toBe('rewritten');
  });

  it('a same-length rewrite is caught by the moved mtime', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.jsonl');
    await writeFile(path, lines(0, 100));
    const c = await captured(path, Buffer.byteLength(lines(0, 100)));
    await writeFile(path, lines(0, 100).replace('"n":5,', '"n":7,'));
    await utimes(path, new Date(), new Date(Date.now() + 5000));
    expect(await checkCursor(c)).toBe('rewritten');
  });

  it('inside the racy window a same-granule rewrite is caught by the hashes', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.jsonl');
    await writeFile(path, lines(0, 10));
    const c = await captured(path, Buffer.byteLength(lines(0, 10)));
    const { mtime } = (await import('node:fs')).statSync(path);
    await writeFile(path, lines(0, 10).replace('"n":1,', '"n":9,'));
    await utimes(path, mtime, mtime);
    // Same length, same mtime: only the hash can tell, and it is checked because the mtime is fresh.
    expect(await checkCursor({ ...c, captured_ms: mtime.getTime() })).toBe('rewritten');
    // Quiescent and identical in every stat field: unchanged without reading.
    expect(await checkCursor(later(await captured(path, c.offset)))).toBe('unchanged');
  });

  it('a rewrite past the prefix that grows the file reads as rewritten (tail window)', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.jsonl');
    await writeFile(path, lines(0, 200));
    const c = await captured(path, Buffer.byteLength(lines(0, 200)));
    await writeFile(path, lines(0, 199) + line(999) + lines(200, 210));
    expect(await checkCursor(c)).toBe('rewritten');
  });

  it('a small file whose head changes as it grows reads as rewritten', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.jsonl');
    await writeFile(path, lines(0, 3));
    const c = await captured(path, Buffer.byteLength(lines(0, 3)));
    await writeFile(path, line(9) + lines(1, 3) + lines(3, 5));
    expect(await checkCursor(c)).toBe('rewritten');
  });

  it('a missing file is gone', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.jsonl');
    await writeFile(path, lines(0, 3));
    const c = await captured(path, 10);
    await rm(path);
    expect(await checkCursor(c)).toBe('gone');
  });

  it("trusts discovery's stat only where it matches the cursor exactly and the mtime was quiescent", async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.jsonl');
    await writeFile(path, lines(0, 3));
    const c = await captured(path, Buffer.byteLength(lines(0, 3)));
    const s = (await import('node:fs')).statSync(path);
    const seen = { size: s.size, mtimeMs: Math.trunc(s.mtimeMs) };
    expect(unchangedPerDiscovery(later(c), seen)).toBe(true);
    // Captured in the same clock granule as the write: a second write could hide, so stat and hash.
    expect(unchangedPerDiscovery(c, seen)).toBe(false);
    expect(unchangedPerDiscovery(later(c), { ...seen, size: s.size + 1 })).toBe(false);
    expect(unchangedPerDiscovery(later(c), { ...seen, mtimeMs: seen.mtimeMs + 1 })).toBe(false);
    // No file identity on this platform: the inode check cannot be skipped as it never ran.
    expect(unchangedPerDiscovery({ ...later(c), ino: 0 }, seen)).toBe(false);
  });

  it('a whole document that changes in any way is rewritten, never appended', async () => {
    const dir = await tempDir();
    const path = join(dir, 'state.json');
    await writeFile(path, '{"a":1}');
    const c = await captured(path, 7, 'whole');
    await writeFile(path, '{"a":1,"b":2}');
    expect(await checkCursor(c)).toBe('rewritten');
  });
});
