import { spawnSync } from 'node:child_process';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { pidAlive, withLock, withLockSync } from './lock-file.js';

/** A pid that certainly belonged to a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('lock files', () => {
  it('serialise holders and leave nothing behind', async () => {
    const dir = await tempDir();
    const lock = join(dir, 'x.lock');
    const order: string[] = [];
    await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        withLock(lock, async () => {
          order.push(`${name}+`);
          await new Promise((r) => setTimeout(r, 10));
          order.push(`${name}-`);
        }),
      ),
    );
    for (let i = 0; i < order.length; i += 2) expect(order[i + 1]).toBe(order[i]?.replace('+', '-'));
    expect(existsSync(lock)).toBe(false);
    expect(withLockSync(lock, () => 42)).toBe(42);
    expect(existsSync(lock)).toBe(false);
  });

  it('take over a lock whose owner process is gone', async () => {
    const dir = await tempDir();
    const lock = join(dir, 'x.lock');
    const pid = deadPid();
    expect(pidAlive(pid)).toBe(false);
    writeFileSync(lock, JSON.stringify({ pid, host: hostname(), token: 'old' }));
    expect(withLockSync(lock, () => 'mine', { timeoutMs: 2_000 })).toBe('mine');
    expect(existsSync(lock)).toBe(false);
  });

  it('take over an unreadable lock only once it is old, and wait for a live owner until the timeout', async () => {
    const dir = await tempDir();
    const lock = join(dir, 'x.lock');
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    expect(await withLock(lock, () => 'ok', { timeoutMs: 2_000 })).toBe('ok');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), token: 'live' }));
    await expect(withLock(lock, () => 'never', { timeoutMs: 100 })).rejects.toMatchObject({
      code: 'LockTimeout',
      message: expect.stringContaining(`process ${process.pid}`),
    });
    expect(existsSync(lock)).toBe(true);
  });
});
