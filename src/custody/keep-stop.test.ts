// A stop signal ends a keep's copy between chunks and rolls it back: a new copy's temp is removed, an
// append is truncated back to what was kept before. (The CLI side: src/cli/commands/signal.e2e.test.ts.)
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { openVendorFile, type ByteSource } from './byte-source.js';
import { runAction } from './keep-exec.js';
import { Publisher } from './publisher.js';

const reason = new Error('stopped by SIGINT');

/** A real vendor file whose second read asks the keep to stop (as a signal arriving mid-copy would). */
async function stoppingSource(home: string, rel: string, stop: AbortController): Promise<ByteSource> {
  const src = await openVendorFile(home, rel, new Set());
  let reads = 0;
  return {
    ...src,
    size: src.size,
    read: async (buf, length, position) => {
      if (++reads === 2) stop.abort(reason);
      return src.read(buf, length, position);
    },
  };
}

/** Four MiB of numbered lines. */
function content(): Buffer {
  const lines: string[] = [];
  for (let i = 0; lines.length * 32 < 4 << 20; i++) lines.push(`{"n":${String(i).padStart(20, '0')}}`.padEnd(31, ' '));
  return Buffer.from(`${lines.join('\n')}\n`);
}

describe('a keep stopped mid-copy', () => {
  it('removes the partial copy of a new file and places nothing', async () => {
    const home = await tempDir();
    const kept = await tempDir();
    await writeFile(join(home, 's.jsonl'), content());
    const stop = new AbortController();
    const src = await stoppingSource(home, 's.jsonl', stop);
    const publisher = new Publisher(kept);
    publisher.stopOn(stop.signal);
    try {
      await expect(
        runAction({ kind: 'copy', relPath: 's.jsonl' }, src, join(kept, 's.jsonl'), { publisher, signal: stop.signal }),
      ).rejects.toBe(reason);
    } finally {
      await src.close();
    }
    await publisher.settled();
    expect(await readdir(kept)).toEqual([]);
  });

  it('truncates a partial append back to the kept bytes', async () => {
    const home = await tempDir();
    const kept = await tempDir();
    const data = content();
    const before = data.subarray(0, 1 << 20);
    await writeFile(join(home, 's.jsonl'), data);
    await writeFile(join(kept, 's.jsonl'), before);
    const stop = new AbortController();
    const src = await stoppingSource(home, 's.jsonl', stop);
    const publisher = new Publisher(kept);
    try {
      await expect(
        runAction({ kind: 'extend', relPath: 's.jsonl', from: before.length }, src, join(kept, 's.jsonl'), {
          publisher,
          signal: stop.signal,
        }),
      ).rejects.toBe(reason);
    } finally {
      await src.close();
    }
    expect((await readFile(join(kept, 's.jsonl'))).equals(before)).toBe(true);
    expect(existsSync(join(kept, '.s.jsonl.keep-tmp'))).toBe(false);
  });

  it('does not start a copy once stopped', async () => {
    const home = await tempDir();
    const kept = await tempDir();
    await writeFile(join(home, 's.jsonl'), 'x\n');
    const stop = new AbortController();
    stop.abort(reason);
    const src = await openVendorFile(home, 's.jsonl', new Set());
    try {
      await expect(
        runAction({ kind: 'copy', relPath: 's.jsonl' }, src, join(kept, 's.jsonl'), {
          publisher: new Publisher(kept),
          signal: stop.signal,
        }),
      ).rejects.toBe(reason);
    } finally {
      await src.close();
    }
    expect(await readdir(kept)).toEqual([]);
  });
});
