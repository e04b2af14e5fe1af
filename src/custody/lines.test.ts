import { open, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { isCustodyError } from './errors.js';
import { backwardLines, forwardLines, lastLineEnd, type BackwardOptions, type Line } from './lines.js';

async function fileWith(content: string | Buffer): Promise<{ path: string; handle: FileHandle }> {
  const path = join(await tempDir(), 't.jsonl');
  await writeFile(path, content);
  return { path, handle: await open(path, 'r') };
}

const opts = (extra: Partial<BackwardOptions> = {}): BackwardOptions => ({
  maxLineBytes: 1 << 20,
  scanBudgetBytes: 8 << 20,
  path: 't',
  ...extra,
});

async function tail(content: string | Buffer, want: number, extra: Partial<BackwardOptions> = {}, end?: number) {
  const { handle } = await fileWith(content);
  try {
    const size = (await handle.stat()).size;
    return await backwardLines(handle, end ?? size, want, opts(extra));
  } finally {
    await handle.close();
  }
}

const texts = (lines: readonly Line[]): (string | null)[] => lines.map((l) => l.text);

describe('backwardLines', () => {
  it('gives nothing for an empty file or one with no newline at all', async () => {
    expect(await tail('', 5)).toEqual({ lines: [], reachedStart: true, completeEnd: 0 });
    const r = await tail('{"torn":', 5);
    expect(r.lines).toEqual([]);
    expect(r.completeEnd).toBe(0);
  });

  it('returns a single line, and excludes a torn final line', async () => {
    expect(texts((await tail('a\n', 5)).lines)).toEqual(['a']);
    const r = await tail('a\nb\nc', 5);
    expect(texts(r.lines)).toEqual(['a', 'b']);
    expect(r.completeEnd).toBe(4);
  });

  it('gives the last N lines oldest first, pointing at the oldest one', async () => {
    const r = await tail('a\nb\nc\nd\ne\n', 2);
    expect(texts(r.lines)).toEqual(['d', 'e']);
    expect(r.lines[0]?.offset).toBe(6);
    expect(r.reachedStart).toBe(false);
  });

  it('returns everything with reachedStart when the limit is above the line count', async () => {
    const r = await tail('a\nb\n', 10);
    expect(texts(r.lines)).toEqual(['a', 'b']);
    expect(r.reachedStart).toBe(true);
  });

  it('reassembles lines that fill a block exactly or span several blocks', async () => {
    const exact = 'x'.repeat(15);
    expect(texts((await tail(`${exact}\n${exact}\n`, 2, { blockBytes: 16 })).lines)).toEqual([exact, exact]);
    const long = 'y'.repeat(100);
    expect(texts((await tail(`a\n${long}\nb\n`, 3, { blockBytes: 7 })).lines)).toEqual(['a', long, 'b']);
  });

  it('decodes UTF-8 split across blocks and strips CRLF', async () => {
    const text = 'héllo wörld ✓ 😀';
    const r = await tail(`${text}\r\n${text}\n`, 2, { blockBytes: 3 });
    expect(texts(r.lines)).toEqual([text, text]);
  });

  it('pages from an offset that is a line start', async () => {
    const r = await tail('a\nb\nc\nd\ne\n', 2, {}, 6);
    expect(texts(r.lines)).toEqual(['b', 'c']);
    expect(r.completeEnd).toBe(6);
  });

  it('counts only the lines `counts` accepts (blank lines are free)', async () => {
    const r = await tail('a\n\n\nb\n\nc\n', 2, { counts: (l) => l.text !== '' });
    expect(texts(r.lines).filter((t) => t !== '')).toEqual(['b', 'c']);
  });

  it('gives an over-long line without its text, and fails CorruptTranscript past the scan budget', async () => {
    const r = await tail(`a\n${'z'.repeat(50)}\nb\n`, 3, { maxLineBytes: 10, blockBytes: 8 });
    expect(r.lines.map((l) => [l.text, l.bytes])).toEqual([
      ['a', 1],
      [null, 50],
      ['b', 1],
    ]);
    await expect(tail(`a\n${'z'.repeat(50)}\nb\n`, 3, { maxLineBytes: 10, scanBudgetBytes: 40, blockBytes: 8 })).rejects.toSatisfy((e) =>
      isCustodyError(e, 'CorruptTranscript'),
    );
    await expect(tail('z'.repeat(100), 1, { scanBudgetBytes: 40, blockBytes: 8 })).rejects.toSatisfy((e) =>
      isCustodyError(e, 'CorruptTranscript'),
    );
  });

  it('tails a 10,000-line file without reading its start', async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `{"i":${i}}`);
    const { handle } = await fileWith(`${lines.join('\n')}\n`);
    const positions: number[] = [];
    const read = handle.read.bind(handle) as (...a: unknown[]) => ReturnType<FileHandle['read']>;
    (handle as unknown as { read: (...a: unknown[]) => unknown }).read = (...a: unknown[]) => {
      positions.push(a[3] as number);
      return read(...a);
    };
    const size = (await handle.stat()).size;
    const r = await backwardLines(handle, size, 50, opts());
    await handle.close();
    expect(texts(r.lines)).toEqual(lines.slice(-50));
    expect(Math.min(...positions)).toBeGreaterThan(size - 128 * 1024);
  });

  it('walks the whole file page by page, matching a forward split (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, '')),
          { maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 2, max: 20 }),
        async (lines, want, blockBytes) => {
          const { handle } = await fileWith(lines.map((l) => `${l}\n`).join(''));
          try {
            const seen: string[] = [];
            let end = (await handle.stat()).size;
            for (let guard = 0; guard < 100; guard++) {
              const r = await backwardLines(handle, end, want, opts({ blockBytes }));
              seen.unshift(...r.lines.map((l) => l.text ?? ''));
              if (r.reachedStart || r.lines.length === 0) break;
              end = (r.lines[0] as Line).offset;
            }
            expect(seen).toEqual(lines);
          } finally {
            await handle.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('forwardLines', () => {
  it('gives complete lines with offsets, leaving a torn tail, and marks over-long lines', async () => {
    const { handle } = await fileWith(`a\r\n${'q'.repeat(30)}\nbb\ntorn`);
    const got: Line[] = [];
    for await (const l of forwardLines(handle, 0, (await handle.stat()).size, { maxLineBytes: 10, chunkBytes: 4 })) got.push(l);
    await handle.close();
    expect(got).toEqual([
      { offset: 0, bytes: 2, text: 'a' },
      { offset: 3, bytes: 30, text: null },
      { offset: 34, bytes: 2, text: 'bb' },
    ]);
  });

  it('finds where the last complete line ends', async () => {
    const { handle } = await fileWith('a\nbb\ntorn');
    expect(await lastLineEnd(handle, 9, 2)).toBe(5);
    expect(await lastLineEnd(handle, 1, 2)).toBe(0);
    await handle.close();
  });
});
