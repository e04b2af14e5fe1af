import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { forEachLine } from './read-lines.js';
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
