import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { forEachLine, forEachRawLine } from './read-lines.js';
import { forEachJsonObject } from './read-jsonl.js';

describe('forEachLine', () => {
  it('gives each line with its byte offsets across chunk boundaries', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.jsonl');
    const lines = ['héllo', 'x'.repeat(100), '', 'last'];
    await writeFile(path, `${lines.join('\n')}\r\ntorn`);
    const seen: { text: string; offset: number; complete: boolean }[] = [];
    const r = await forEachLine(path, (text, info) => void seen.push({ text, offset: info.offset, complete: info.complete }), {
      chunkBytes: 7,
    });
    expect(seen.map((s) => s.text)).toEqual([...lines, 'torn']);
    expect(seen[1]?.offset).toBe(Buffer.byteLength('héllo\n'));
    expect(seen.at(-1)?.complete).toBe(false);
    expect(r.completeEnd).toBe(r.size - 4);
  });

  it('skips and counts lines over the byte bound', async () => {
    const dir = await tempDir();
    const path = join(dir, 'b.jsonl');
    await writeFile(path, `ok\n${'y'.repeat(50)}\nok2\n`);
    const seen: string[] = [];
    const r = await forEachLine(path, (t) => void seen.push(t), { maxLineBytes: 10, chunkBytes: 8 });
    expect(seen).toEqual(['ok', 'ok2']);
    expect(r.oversizedLines).toBe(1);
  });
});

describe('forEachJsonObject', () => {
  it('counts bad lines and notes a torn tail without failing', async () => {
    const dir = await tempDir();
    const path = join(dir, 'c.jsonl');
    await writeFile(path, '{"a":1}\nnot json\n[1,2]\n\n{"b":2}\n{"c":');
    const objs: unknown[] = [];
    const r = await forEachJsonObject(path, (o) => void objs.push(o));
    expect(objs).toEqual([{ a: 1 }, { b: 2 }]);
    expect(r.badLines).toBe(2);
    expect(r.tornTail).toBe(true);
  });
});

describe('forEachRawLine buffer reuse', () => {
  it('reads a file after a larger one, and a file inside another read, with no stale bytes', async () => {
    const dir = await tempDir();
    const big = join(dir, 'big.jsonl');
    const small = join(dir, 'small.jsonl');
    await writeFile(big, `${'b'.repeat(3 << 20)}\n${'c'.repeat(100)}\n`);
    await writeFile(small, 'one\ntwo');
    const lengths: number[] = [];
    forEachRawLine(big, (_b, start, end) => void lengths.push(end - start));
    expect(lengths).toEqual([3 << 20, 100]);
    const outer: string[] = [];
    const inner: string[] = [];
    forEachRawLine(small, (buf, start, end) => {
      forEachRawLine(big, (b, s) => void inner.push(b.toString('latin1', s, s + 1)));
      outer.push(buf.toString('utf8', start, end));
    });
    expect(outer).toEqual(['one', 'two']);
    expect(inner).toEqual(['b', 'c', 'b', 'c']);
  });
});
