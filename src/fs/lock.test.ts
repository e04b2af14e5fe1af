import { spawn } from 'node:child_process';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../../test/support/temp.js';
import { AgentlogError } from '../errors.js';
import { acquireLock, acquireLockSync, isStale, parseHolder, pidAlive, withLock, withLockSync } from './lock.js';

/** A child process that stays alive until killed: a live holder on this host. */
function liveProcess(): { pid: number; kill: () => Promise<void> } {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  return {
    pid: child.pid as number,
    kill: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

async function deadPid(): Promise<number> {
  const p = liveProcess();
  await p.kill();
  return p.pid;
}

const body = (pid: number, host = hostname()) => JSON.stringify({ pid, host, token: 'feedfacefeedface', at_ms: 0 });

describe('the staleness rule', () => {
  const holder = (host: string) => ({ pid: 4242, host, token: 'aaaaaaaaaaaa', at_ms: 0 });
  const here = { host: 'here', foreignStaleMs: 1000, graceMs: 100 };
  it('same host: stale exactly when the pid is gone, whatever the age', () => {
    expect(isStale({ holder: holder('here'), mtimeMs: 0 }, 10 ** 9, { ...here, alive: () => true })).toBe(false);
    expect(isStale({ holder: holder('here'), mtimeMs: 10 ** 9 }, 10 ** 9, { ...here, alive: () => false })).toBe(true);
  });
  it('another host: stale exactly when not refreshed for foreignStaleMs, whatever the pid', () => {
    expect(isStale({ holder: holder('there'), mtimeMs: 0 }, 1000, { ...here, alive: () => false })).toBe(false);
    expect(isStale({ holder: holder('there'), mtimeMs: 0 }, 1001, { ...here, alive: () => true })).toBe(true);
  });
  it('an invalid body: stale after the grace', () => {
    expect(isStale({ holder: null, mtimeMs: 0 }, 100, here)).toBe(false);
    expect(isStale({ holder: null, mtimeMs: 0 }, 101, here)).toBe(true);
  });
  it('validates the body', () => {
    expect(parseHolder(body(12))).toMatchObject({ pid: 12 });
    expect(parseHolder('{"pid":"12","host":"h","token":"aaaaaaaa","at_ms":0}')).toBeNull();
    expect(parseHolder('{"pid":12')).toBeNull();
    expect(parseHolder('')).toBeNull();
    const good = { pid: 12, host: 'h', token: 'aaaaaaaa', at_ms: 0 };
    expect(parseHolder(JSON.stringify({ ...good, extra: 1 }))).toEqual(good);
    for (const bad of [
      null,
      [],
      { ...good, pid: 0 },
      { ...good, pid: -3 },
      { ...good, pid: 1.5 },
      { ...good, host: '' },
      { ...good, host: 5 },
      { ...good, token: 'short' },
      { ...good, at_ms: '0' },
      { pid: 12, host: 'h', token: 'aaaaaaaa' },
    ])
      expect(parseHolder(JSON.stringify(bad)), JSON.stringify(bad)).toBeNull();
  });
  it('pidAlive agrees with the process table', async () => {
    expect(pidAlive(process.pid)).toBe(true);
    expect(pidAlive(await deadPid())).toBe(false);
    expect(pidAlive(0)).toBe(false);
  });
});

describe('the lock', () => {
  it('excludes a second holder, with a conflict error, until released', async () => {
    const path = join(await tempDir(), 'x.lock');
    const first = await acquireLock(path);
    const error = await acquireLock(path, { waitMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentlogError);
    expect(error).toMatchObject({ code: 'LockBusy', kind: 'conflict' });
    expect(() => acquireLockSync(path, { waitMs: 20 })).toThrow(/held by process/);
    const waiting = acquireLock(path, { waitMs: 5_000 });
    first.release();
    const second = await waiting;
    expect(second.held()).toBe(true);
    expect(first.held()).toBe(false);
    second.release();
    expect(await readdir(join(path, '..'))).toEqual([]);
  });

  it('lets each layer name its busy error', async () => {
    const path = join(await tempDir(), 'x.lock');
    const first = acquireLockSync(path);
    const busy = (p: string) => new AgentlogError('CustomBusy', 'conflict', `busy ${p}`);
    expect(() => acquireLockSync(path, { waitMs: 0, busy })).toThrow(`busy ${path}`);
    first.release();
  });

  it('waits for a live holder on this host however old its lock, and breaks a dead one at once', async () => {
    const path = join(await tempDir(), 'x.lock');
    const live = liveProcess();
    await writeFile(path, body(live.pid));
    await utimes(path, new Date(0), new Date(0));
    await expect(acquireLock(path, { waitMs: 100 })).rejects.toMatchObject({ code: 'LockBusy' });
    await live.kill();
    const lock = await acquireLock(path, { waitMs: 1_000 });
    expect(lock.recovered).toBe(true);
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ pid: process.pid, token: lock.token });
    lock.release();
  });

  it('breaks another host lock only once it stopped being refreshed, by the injected clock', async () => {
    const path = join(await tempDir(), 'x.lock');
    await writeFile(path, body(process.pid, 'elsewhere.example'));
    const mtime = Date.now();
    await utimes(path, mtime / 1000, mtime / 1000);
    const early = { now: () => mtime + 60_000 };
    expect(() => acquireLockSync(path, { waitMs: 0, clock: early })).toThrow(/elsewhere\.example/);
    const late = { now: () => mtime + 301_000 };
    expect(acquireLockSync(path, { waitMs: 0, clock: late }).recovered).toBe(true);
  });

  it('breaks a corrupt lock file after the grace', async () => {
    const path = join(await tempDir(), 'x.lock');
    await writeFile(path, 'not a lock');
    expect(() => acquireLockSync(path, { waitMs: 0 })).toThrow();
    await utimes(path, new Date(0), new Date(0));
    const lock = acquireLockSync(path, { waitMs: 0 });
    expect(lock.recovered).toBe(true);
    lock.release();
  });

  it('stops waiting when its signal aborts', async () => {
    const path = join(await tempDir(), 'x.lock');
    const first = acquireLockSync(path);
    const ac = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac.abort(), 50);
    await expect(acquireLock(path, { waitMs: 10_000, signal: ac.signal })).rejects.toMatchObject({ code: 'Interrupted' });
    expect(Date.now() - t0).toBeLessThan(1_000);
    first.release();
  });

  it('keeps two processes out of each other: no increment lost', async () => {
    const dir = await tempDir();
    const path = join(dir, 'count.lock');
    const counter = join(dir, 'count');
    await writeFile(counter, '0');
    const url = pathToFileURL(join(repoRoot, 'dist', 'fs', 'lock.js')).href;
    const script = `
      const { withLockSync } = await import(${JSON.stringify(url)});
      const fs = await import('node:fs');
      for (let i = 0; i < 100; i++) withLockSync(${JSON.stringify(path)}, () => {
        const n = Number(fs.readFileSync(${JSON.stringify(counter)}, 'utf8'));
        fs.writeFileSync(${JSON.stringify(counter)}, String(n + 1));
      });`;
    const run = () =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
        child.on('exit', (code) => resolve(code));
      });
    expect(await Promise.all([run(), run()])).toEqual([0, 0]);
    expect(await readFile(counter, 'utf8')).toBe('200');
    expect(await withLock(path, () => 'free')).toBe('free');
    expect(withLockSync(path, () => 'free')).toBe('free');
  });
});
