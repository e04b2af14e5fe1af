import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { acquireLock } from './lock.js';

function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

describe('installation lock', () => {
  it('is exclusive: a second keep waits, then fails CustodyBusy naming the lock', async () => {
    const root = await tempDir();
    const lock = await acquireLock(root);
    const owner = JSON.parse(await readFile(join(root, '.lock'), 'utf8')) as { pid: number };
    expect(owner.pid).toBe(process.pid);
    await expect(acquireLock(root, { waitMs: 150 })).rejects.toMatchObject({ code: 'CustodyBusy', path: join(root, '.lock') });
    await lock.release();
    const again = await acquireLock(root, { waitMs: 0 });
    await again.release();
  });

  it('breaks a lock whose owner is gone (a keep killed mid-way)', async () => {
    const root = await tempDir();
    await writeFile(join(root, '.lock'), JSON.stringify({ pid: deadPid(), host: hostname(), token: 'oldoldoldold', at_ms: 0 }));
    const lock = await acquireLock(root, { waitMs: 0 });
    expect(JSON.parse(await readFile(join(root, '.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('waits for a live owner on this host', async () => {
    const root = await tempDir();
    await writeFile(join(root, '.lock'), JSON.stringify({ pid: process.ppid, host: hostname(), token: 'livelivelive', at_ms: 0 }));
    await expect(acquireLock(root, { waitMs: 50 })).rejects.toMatchObject({ code: 'CustodyBusy' });
  });
});
