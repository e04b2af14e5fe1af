import { writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { JsonLineClipper } from './read-clipped-line.js';
import { forEachLine, forEachRawLine, type LineInfo, type ReadLinesOptions, type ReadLinesResult } from './read-lines.js';
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

interface Seen {
  bytes: string;
  info: LineInfo;
}

/** What `forEachRawLine` must hand on, worked out on the whole file in memory with no chunks. */
function splitWhole(file: Buffer, opts: ReadLinesOptions, stopAfter: number): { seen: Seen[]; result: ReadLinesResult } {
  const max = opts.maxLineBytes ?? Number.POSITIVE_INFINITY;
  const seen: Seen[] = [];
  const result: ReadLinesResult = {
    size: file.length,
    completeEnd: opts.start ?? 0,
    lines: 0,
    oversizedLines: 0,
    clippedLines: 0,
    stoppedEarly: false,
  };
  let at = opts.start ?? 0;
  while (at < file.length) {
    const nl = file.indexOf(10, at);
    const complete = nl !== -1;
    const to = complete ? nl : file.length;
    const end = complete ? nl + 1 : file.length;
    result.lines++;
    if (complete) result.completeEnd = end;
    let handed: Seen | undefined;
    if (to - at <= max) handed = { bytes: file.toString('latin1', at, to), info: { offset: at, end, complete, line: result.lines } };
    else if (opts.clipLongLines !== undefined) {
      const clipper = new JsonLineClipper(opts.clipLongLines.keepStringBytes, opts.clipLongLines.maxOutputBytes);
      clipper.feed(file, at, to);
      const clipped = clipper.result();
      if (clipped !== undefined) {
        result.clippedLines++;
        handed = { bytes: clipped.toString('latin1'), info: { offset: at, end, complete, line: result.lines, clipped: true } };
      }
    }
    if (handed === undefined) result.oversizedLines++;
    else {
      seen.push(handed);
      if (seen.length === stopAfter) {
        result.stoppedEarly = true;
        break;
      }
    }
    at = end;
  }
  return { seen, result };
}

describe('forEachRawLine against the whole-file split', () => {
  it('hands on the same lines, offsets, clipped copies and counts for any chunk size, bound and start', async () => {
    const dir = await tempDir();
    const path = join(dir, 'p.jsonl');
    const piece = fc.constantFrom('a', 'é', '"', '\\', '{', '\n', '\r\n', '\r', '"xyzxyzxyz"');
    await fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }),
        fc.integer({ min: 1, max: 24 }),
        fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
        fc.option(fc.record({ keepStringBytes: fc.integer({ min: 0, max: 6 }), maxOutputBytes: fc.integer({ min: 1, max: 30 }) }), {
          nil: undefined,
        }),
        fc.nat({ max: 30 }),
        fc.nat({ max: 8 }),
        (pieces, chunkBytes, maxLineBytes, clipLongLines, startLine, stopAfter) => {
          const file = Buffer.from(pieces.join(''));
          writeFileSync(path, file);
          // The start must be a line start: the start of the `startLine`-th line, or the end.
          let start = 0;
          for (let i = 0; i < startLine && start < file.length; i++) {
            const nl = file.indexOf(10, start);
            start = nl === -1 ? file.length : nl + 1;
          }
          const opts: ReadLinesOptions = { chunkBytes, start };
          if (maxLineBytes !== undefined) opts.maxLineBytes = maxLineBytes;
          if (clipLongLines !== undefined) opts.clipLongLines = clipLongLines;
          const seen: Seen[] = [];
          const result = forEachRawLine(
            path,
            (buf, from, to, info) => {
              seen.push({ bytes: buf.toString('latin1', from, to), info });
              return seen.length !== stopAfter;
            },
            opts,
          );
          expect({ seen, result }).toEqual(splitWhole(file, opts, stopAfter));
        },
      ),
      { numRuns: 400 },
    );
  });
});
