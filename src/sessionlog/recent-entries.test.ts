import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { recentEntries } from './recent-entries.js';

function line(i: number): string {
  return `${JSON.stringify({ ts: '10:00:00.000', ts_ms: i, event: 'info', message: `row ${i} ${'é'.repeat(i % 7)}` })}\n`;
}

describe('recentEntries', () => {
  it('returns the last n rows oldest first, reading only the tail of a big file', async () => {
    const dir = await tempDir();
    let body = '';
    for (let i = 1; i <= 20_000; i++) body += line(i);
    writeFileSync(join(dir, 'session.jsonl'), body);
    const r = await recentEntries(dir, 3, { blockBytes: 4096 });
    expect(r.entries.map((e) => e.ts_ms)).toEqual([19_998, 19_999, 20_000]);
    expect(r.bytesRead).toBeLessThanOrEqual(4096);
    expect(Buffer.byteLength(body)).toBeGreaterThan(1_000_000);
    const many = await recentEntries(dir, 500, { blockBytes: 1000 });
    expect(many.entries.map((e) => e.ts_ms)).toEqual(Array.from({ length: 500 }, (_, i) => 19_501 + i));
  });

  it('is empty for a missing file, returns everything when there are fewer rows, and handles tiny blocks', async () => {
    const dir = await tempDir();
    expect((await recentEntries(dir, 5)).entries).toEqual([]);
    writeFileSync(join(dir, 'session.jsonl'), line(1) + line(2));
    expect((await recentEntries(dir, 10)).entries.map((e) => e.ts_ms)).toEqual([1, 2]);
    expect((await recentEntries(dir, 10, { blockBytes: 3 })).entries.map((e) => e.ts_ms)).toEqual([1, 2]);
    expect((await recentEntries(dir, 0)).entries).toEqual([]);
  });

  it('agrees with a whole-file read for any rows, block size and n', async () => {
    const dir = await tempDir();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 30 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 45 }),
        async (messages, block, n) => {
          const body = messages.map((m, i) => `${JSON.stringify({ ts: 't', ts_ms: i, event: 'info', message: m })}\n`).join('');
          writeFileSync(join(dir, 'session.jsonl'), body);
          const r = await recentEntries(dir, n, { blockBytes: block });
          expect(r.entries.map((e) => e.message)).toEqual(n === 0 ? [] : messages.slice(-n));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('tolerates a torn last line and counts bad complete lines', async () => {
    const dir = await tempDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'session.jsonl'), `${line(1)}garbage\n${line(2)}`);
    appendFileSync(join(dir, 'session.jsonl'), '{"ts":"10:00:00.000","event":"in');
    const r = await recentEntries(dir, 5);
    expect(r.entries.map((e) => e.ts_ms)).toEqual([1, 2]);
    expect(r.tornTail).toBe(true);
    expect(r.badLines).toBe(1);
    // A complete object that only lacks its newline is a row.
    writeFileSync(join(dir, 'session.jsonl'), line(1) + line(2).trimEnd());
    expect((await recentEntries(dir, 5)).entries.map((e) => e.ts_ms)).toEqual([1, 2]);
  });
});
