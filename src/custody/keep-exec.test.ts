// A small file is copied synchronously through one buffer (copySmallIntoTemp), a larger one by the
// kernel (copyIntoTemp): either way the same bytes a buffered copy would keep, cut at the size the
// keep saw, private, carrying the vendor file's time, and never placed before the publisher made it
// durable.
import { appendFile, chmod, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { openVendorFile } from './byte-source.js';
import { isSmallCopy } from './fd-io.js';
import { kernelCopyBytes, runAction } from './keep-exec.js';
import { tempPath } from './paths.js';
import { Publisher } from './publisher.js';

describe.each([
  ['synchronously', 1000],
  ['by the kernel', 20_000],
])('a small file copied %s', (how, lines) => {
  it('keeps exactly the bytes the keep saw, private, with the vendor time', async () => {
    const home = await tempDir();
    const kept = await tempDir();
    const data = Buffer.from('{"a":1}\n'.repeat(lines));
    expect(data.length).toBeLessThanOrEqual(kernelCopyBytes);
    expect(isSmallCopy(data.length)).toBe(how === 'synchronously');
    // A temp a killed keep left, readable by others: replaced, and the copy private all the same.
    await writeFile(tempPath(join(kept, 's.jsonl')), 'stale', { mode: 0o644 });
    await writeFile(join(home, 's.jsonl'), data);
    const src = await openVendorFile(home, 's.jsonl', new Set());
    // A writer appends after the keep took the size: the kept copy stops where the keep looked.
    await appendFile(join(home, 's.jsonl'), '{"late":true}\n');
    // A source its owner may not write: the copy is made private (and writable) all the same.
    await chmod(join(home, 's.jsonl'), 0o444);
    const publisher = new Publisher(kept);
    let result: Awaited<ReturnType<typeof runAction>>;
    try {
      result = await runAction({ kind: 'copy', relPath: 's.jsonl' }, src, join(kept, 's.jsonl'), { publisher, signal: undefined });
    } finally {
      await src.close();
    }
    // Written, not yet published: only its temp is there.
    expect((await readdir(kept)).filter((n) => n === 's.jsonl')).toEqual([]);
    await publisher.settled();
    await result.published;
    expect(await readFile(join(kept, 's.jsonl'))).toEqual(data);
    const st = await stat(join(kept, 's.jsonl'));
    expect(st.mode & 0o777).toBe(0o600);
    expect(Math.round(st.mtimeMs)).toBe(Math.round(src.mtimeMs ?? 0));
    expect(await readdir(kept)).toEqual(['s.jsonl']);
  });

  it('fails, and leaves nothing behind, when the file shrank after the keep looked', async () => {
    const home = await tempDir();
    const kept = await tempDir();
    await writeFile(join(home, 's.jsonl'), 'x'.repeat(lines * 8));
    const src = await openVendorFile(home, 's.jsonl', new Set());
    await writeFile(join(home, 's.jsonl'), 'x'.repeat(10));
    const publisher = new Publisher(kept);
    try {
      await expect(
        runAction({ kind: 'copy', relPath: 's.jsonl' }, src, join(kept, 's.jsonl'), { publisher, signal: undefined }),
      ).rejects.toThrow(/shrank/);
    } finally {
      await src.close();
    }
    await publisher.settled();
    expect(await readdir(kept)).toEqual([]);
  });
});
