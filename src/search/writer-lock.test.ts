import { spawn } from 'node:child_process';
import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { SearchError } from './errors.js';
import { acquireWriterLock } from './writer-lock.js';

/** A child process that holds a lock file shaped like ours until killed. */
async function liveHolder(root: string): Promise<{ pid: number; kill: () => Promise<void> }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const pid = child.pid as number;
  await writeFile(join(root, 'writer.lock'), JSON.stringify({ pid, host: hostname(), token: 'feedfacefeedface', at_ms: Date.now() }));
  return {
    pid,
    kill: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

describe('writer lock', () => {
  it('blocks a second writer until the first releases', async () => {
    const root = await tempDir();
    const first = await acquireWriterLock(root);
    await expect(acquireWriterLock(root, { waitMs: 150 })).rejects.toBeInstanceOf(SearchError);
    const waiting = acquireWriterLock(root, { waitMs: 5000 });
    setTimeout(() => void first.release(), 100);
    const second = await waiting;
    expect(await second.held()).toBe(true);
    expect(await first.held()).toBe(false);
    await second.release();
  });

  it('is never taken from a live holder on this host by age alone', async () => {
    const root = await tempDir();
    const holder = await liveHolder(root);
    try {
      const old = new Date(Date.now() - 60_000);
      await utimes(join(root, 'writer.lock'), old, old);
      const error = await acquireWriterLock(root, { waitMs: 200 }).catch((e: unknown) => e);
      expect((error as SearchError).code).toBe('IndexBusy');
      expect((error as SearchError).message).toContain(`pid ${holder.pid}`);
    } finally {
      await holder.kill();
    }
    // Dead now: taken over at once.
    const lock = await acquireWriterLock(root, { waitMs: 1000 });
    expect(JSON.parse(await readFile(join(root, 'writer.lock'), 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('takes over a lock nobody has refreshed for longer than the stale limit', async () => {
    const root = await tempDir();
    await mkdir(root, { recursive: true });
    await writeFile(
      join(root, 'writer.lock'),
      JSON.stringify({ pid: process.pid, host: 'another-host', token: 'aaaaaaaaaaaaaaaa', at_ms: 0 }),
    );
    await expect(acquireWriterLock(root, { waitMs: 100 })).rejects.toBeInstanceOf(SearchError);
    const old = new Date(Date.now() - 10 * 60_000);
    await utimes(join(root, 'writer.lock'), old, old);
    const lock = await acquireWriterLock(root, { waitMs: 100 });
    expect(await lock.held()).toBe(true);
    await lock.release();
  });

  it('refreshes its file while held', async () => {
    const root = await tempDir();
    const lock = await acquireWriterLock(root, { heartbeatMs: 20 });
    const path = join(root, 'writer.lock');
    const old = new Date(Date.now() - 60_000);
    await utimes(path, old, old);
    await new Promise((r) => setTimeout(r, 80));
    const { statSync } = await import('node:fs');
    expect(Date.now() - statSync(path).mtimeMs).toBeLessThan(5000);
    await lock.release();
  });
});
