// A cross-process exclusive lock: a lock file created with O_EXCL holding the owner's pid, host
// and a random token. A lock whose owner process is gone is broken (under a second, short-lived
// breaker lock, so two waiters never both break it); a live owner is waited for, never robbed.
import { randomBytes } from 'node:crypto';
import { closeSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { SessionLogError, reason } from './errors.js';
import { openPrivateExclusive, writeAll } from './private-fs.js';

export interface LockOptions {
  /** Give up (LockTimeout) after this long. Default 10 s. */
  timeoutMs?: number;
  /** A lock file with no readable owner (its writer died mid-create) is stale after this. Default 5 s. */
  unreadableStaleMs?: number;
  /** An owner on another host cannot be probed; its lock is stale after this. Default 10 min. */
  foreignStaleMs?: number;
}

interface Owner {
  pid: number;
  host: string;
  token: string;
}

const host = hostname();

function errCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

function readOwner(path: string): { raw: string; owner: Owner | null } | null {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    if (errCode(error) === 'ENOENT') return null;
    throw error;
  }
  try {
    const v = JSON.parse(raw) as Partial<Owner>;
    if (typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.token === 'string')
      return { raw, owner: { pid: v.pid, host: v.host, token: v.token } };
  } catch {
    // Torn or empty: the owner died between creating and writing it, or is writing it right now.
  }
  return { raw, owner: null };
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** True unless the process is certainly gone (ESRCH); EPERM means it lives under another user. */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errCode(error) !== 'ESRCH';
  }
}

function isStale(path: string, seen: { raw: string; owner: Owner | null }, opts: LockOptions): boolean {
  if (seen.owner === null) return ageMs(path) > (opts.unreadableStaleMs ?? 5_000);
  if (seen.owner.host !== host) return ageMs(path) > (opts.foreignStaleMs ?? 600_000);
  return !pidAlive(seen.owner.pid);
}

function tryCreate(path: string, token: string): boolean {
  let fd: number;
  try {
    fd = openPrivateExclusive(path);
  } catch (error) {
    if (errCode(error) === 'EEXIST') return false;
    throw new SessionLogError('WriteFailed', `cannot create lock ${path}: ${reason(error)}`, { cause: error });
  }
  try {
    writeAll(fd, JSON.stringify({ pid: process.pid, host, token }));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Removes a stale lock, but only if it still holds what was judged stale. */
function breakStale(path: string, seenRaw: string, opts: LockOptions): void {
  const breaker = `${path}.break`;
  const token = randomBytes(8).toString('hex');
  if (!tryCreate(breaker, token)) {
    // Another waiter is breaking it; a breaker left by a crash is itself cleared after a while.
    if (ageMs(breaker) > (opts.unreadableStaleMs ?? 5_000)) unlinkQuiet(breaker);
    return;
  }
  try {
    const again = readOwner(path);
    if (again !== null && again.raw === seenRaw) unlinkQuiet(path);
  } finally {
    unlinkQuiet(breaker);
  }
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** One attempt: the token when the lock was taken, else null (held by a live owner). */
function attempt(path: string, opts: LockOptions): string | null {
  const token = randomBytes(12).toString('hex');
  for (let i = 0; i < 3; i++) {
    if (tryCreate(path, token)) return token;
    const seen = readOwner(path);
    if (seen === null) continue;
    if (!isStale(path, seen, opts)) return null;
    breakStale(path, seen.raw, opts);
  }
  return null;
}

function release(path: string, token: string): void {
  const seen = readOwner(path);
  if (seen?.owner?.token === token) unlinkQuiet(path);
}

function timeout(path: string, ms: number): SessionLogError {
  const seen = readOwner(path);
  const who = seen?.owner ? `process ${seen.owner.pid} on ${seen.owner.host}` : 'an unknown process';
  return new SessionLogError(
    'LockTimeout',
    `${path} is held by ${who} for more than ${ms} ms; if that process is stuck, stop it or delete the lock file`,
  );
}

const waitCell = new Int32Array(new SharedArrayBuffer(4));

/** Runs `fn` holding the lock at `lockPath` (blocking the thread while it waits). */
export function withLockSync<T>(lockPath: string, fn: () => T, opts: LockOptions = {}): T {
  const limit = opts.timeoutMs ?? 10_000;
  const start = Date.now();
  let pause = 1;
  let token = attempt(lockPath, opts);
  while (token === null) {
    if (Date.now() - start > limit) throw timeout(lockPath, limit);
    Atomics.wait(waitCell, 0, 0, pause + Math.random() * pause);
    pause = Math.min(pause * 2, 50);
    token = attempt(lockPath, opts);
  }
  try {
    return fn();
  } finally {
    release(lockPath, token);
  }
}

/** Runs `fn` holding the lock at `lockPath`, waiting asynchronously. */
export async function withLock<T>(lockPath: string, fn: () => Promise<T> | T, opts: LockOptions = {}): Promise<T> {
  const limit = opts.timeoutMs ?? 10_000;
  const start = Date.now();
  let pause = 1;
  let token = attempt(lockPath, opts);
  while (token === null) {
    if (Date.now() - start > limit) throw timeout(lockPath, limit);
    await sleep(pause + Math.random() * pause);
    pause = Math.min(pause * 2, 50);
    token = attempt(lockPath, opts);
  }
  try {
    return await fn();
  } finally {
    release(lockPath, token);
  }
}
