import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { Publisher, type PublisherLimits } from './publisher.js';
import { kernelReportsErrors, syncFileSystem } from './sync-fs.js';

const limits: PublisherLimits = { files: 3, bytes: 1 << 20, barrierFrom: 2 };

/** Writes `n` temps under `dir`, then stages each for `<dir>/f<i>` at once; returns their settlements. */
async function stageMany(p: Publisher, dir: string, n: number): Promise<PromiseSettledResult<void>[]> {
  for (let i = 0; i < n; i++) await writeFile(join(dir, `.f${i}.keep-tmp`), `file ${i}\n`);
  const tickets = Array.from({ length: n }, (_, i) => p.stage(join(dir, `.f${i}.keep-tmp`), join(dir, `f${i}`), 'rename', 7));
  p.drain();
  return Promise.allSettled(tickets);
}

describe('Publisher', () => {
  it('puts every staged file in place behind a barrier when there is one: two for the whole batch', async () => {
    const dir = await tempDir();
    const calls: string[] = [];
    const p = new Publisher(dir, limits, async (root) => {
      calls.push(root);
      return true;
    });
    const settled = await stageMany(p, dir, 7);
    expect(settled.every((s) => s.status === 'fulfilled')).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6']);
    expect(await readFile(join(dir, 'f6'), 'utf8')).toBe('file 6\n');
    // What was staged in one turn is one batch: a barrier for the bytes, one for the new names.
    expect(calls).toEqual([dir, dir]);
  });

  it('publishes while more is staged, and a batch too small for a barrier fsyncs its files', async () => {
    const dir = await tempDir();
    let barriers = 0;
    const p = new Publisher(dir, limits, async () => {
      barriers++;
      return true;
    });
    const first = await stageMany(p, dir, 3);
    expect(first.every((s) => s.status === 'fulfilled')).toBe(true);
    expect(barriers).toBe(2);
    await writeFile(join(dir, '.last.keep-tmp'), 'last');
    await p.stage(join(dir, '.last.keep-tmp'), join(dir, 'last'), 'rename', 4);
    expect(barriers).toBe(2);
    expect(await readFile(join(dir, 'last'), 'utf8')).toBe('last');
  });

  it('fsyncs file by file where there is no barrier, and fails only the file that cannot be placed', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'sub'));
    const p = new Publisher(dir, limits, async () => false);
    const tmpA = join(dir, '.a.keep-tmp');
    const tmpB = join(dir, 'sub', '.b.keep-tmp');
    await writeFile(tmpA, 'a');
    await writeFile(tmpB, 'b');
    const a = p.stage(tmpA, join(dir, 'a'), 'rename', 1);
    const b = p.stage(tmpB, join(dir, 'gone', 'b'), 'rename', 1);
    p.drain();
    const [ra, rb] = await Promise.allSettled([a, b]);
    expect(ra?.status).toBe('fulfilled');
    expect(rb).toMatchObject({ status: 'rejected', reason: { code: 'IOError' } });
    expect(await readFile(join(dir, 'a'), 'utf8')).toBe('a');
    // The failed file's temp is not left behind.
    expect(existsSync(tmpB)).toBe(false);
  });

  it('links custody facts only where there are none, and removes the temp either way', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'facts'), 'first');
    const p = new Publisher(dir, limits, async () => false);
    await writeFile(join(dir, '.facts.keep-tmp'), 'second');
    await writeFile(join(dir, '.new.keep-tmp'), 'new');
    const settled = await Promise.allSettled([
      p.stage(join(dir, '.facts.keep-tmp'), join(dir, 'facts'), 'link', 6),
      p.stage(join(dir, '.new.keep-tmp'), join(dir, 'new'), 'link', 3),
      Promise.resolve(p.drain()),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(await readFile(join(dir, 'facts'), 'utf8')).toBe('first');
    expect(await readFile(join(dir, 'new'), 'utf8')).toBe('new');
    expect((await stat(join(dir, 'new'))).nlink).toBe(1);
    expect((await readdir(dir)).sort()).toEqual(['facts', 'new']);
  });

  it('rejects a file whose temp vanished before it could be made durable', async () => {
    const dir = await tempDir();
    const p = new Publisher(dir, limits, async () => false);
    await writeFile(join(dir, '.x.keep-tmp'), 'x');
    const x = p.stage(join(dir, '.x.keep-tmp'), join(dir, 'x'), 'rename', 1);
    await rm(join(dir, '.x.keep-tmp'));
    p.drain();
    await expect(x).rejects.toMatchObject({ code: 'IOError' });
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });
});

describe('Publisher stopped', () => {
  it('rolls back what is staged when its signal aborts: temps removed, each rejected with the reason, nothing placed', async () => {
    const dir = await tempDir();
    const stop = new AbortController();
    const p = new Publisher(dir, { files: 100, bytes: 1 << 30, barrierFrom: 2 }, async () => true);
    p.stopOn(stop.signal);
    await writeFile(join(dir, '.a.keep-tmp'), 'a');
    await writeFile(join(dir, '.b.keep-tmp'), 'b');
    const a = p.stage(join(dir, '.a.keep-tmp'), join(dir, 'a'), 'rename', 1);
    const reason = new Error('stopped by SIGINT');
    stop.abort(reason);
    // Staged after the stop: rolled back at once.
    const b = p.stage(join(dir, '.b.keep-tmp'), join(dir, 'b'), 'rename', 1);
    const both = Promise.allSettled([a, b]);
    await p.settled();
    expect(await both).toEqual([
      { status: 'rejected', reason },
      { status: 'rejected', reason },
    ]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('completes a batch already being made durable when the stop comes', async () => {
    const dir = await tempDir();
    const stop = new AbortController();
    const p = new Publisher(dir, { files: 100, bytes: 1 << 30, barrierFrom: 1 }, async () => {
      // The stop lands while the barrier runs.
      stop.abort(new Error('stopped'));
      return true;
    });
    p.stopOn(stop.signal);
    await writeFile(join(dir, '.a.keep-tmp'), 'a');
    const a = p.stage(join(dir, '.a.keep-tmp'), join(dir, 'a'), 'rename', 1);
    p.drain();
    await expect(a).resolves.toBeUndefined();
    expect(await readdir(dir)).toEqual(['a']);
  });
});

describe('syncFileSystem', () => {
  it('uses syncfs only where it reports writeback errors (Linux 5.8 on)', async () => {
    expect(['4.19.0', '5.7.12', 'x'].map(kernelReportsErrors)).toEqual([false, false, false]);
    expect(['5.8.0', '5.15.0-91-generic', '6.1.0'].map(kernelReportsErrors)).toEqual([true, true, true]);
    // Whatever this machine offers, the answer is a plain yes or no (no means: fsync each file).
    expect(typeof (await syncFileSystem(await tempDir()))).toBe('boolean');
  });
});
