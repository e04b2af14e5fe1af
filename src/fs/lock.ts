// The one cross-process exclusive lock: a file created with O_EXCL holding a JSON body (pid, host,
// token, time). The one staleness rule:
//   - same host: the lock is stale when its pid is certainly gone (kill(pid, 0) says ESRCH);
//     a live pid, even a slow one, is waited for and never robbed;
//   - another host: its pid cannot be probed, so the lock is stale when its file has not been
//     refreshed for `foreignStaleMs` (holders touch it every `heartbeatMs`);
//   - a file that is not a valid lock body (being written this instant, torn by a crash, edited by
//     hand) is stale once older than `graceMs`.
// A stale lock is moved aside (rename: of two breakers only one gets it) and deleted only if it is
// still the one judged stale; a fresh lock moved by mistake is put back.
import { nodeCrypto } from './crypto.js';
import { closeSync, constants, fstatSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, utimesSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentlogError } from '../errors.js';
import { isObject } from '../json/narrow.js';
import { writeAllSync } from './atomic-write.js';
import { type Clock, systemClock } from './clock.js';
import { FsError, wrapOsError } from './errors.js';
import { errorCode } from './errors.js';

/** Who holds a lock, as its file says. */
export interface LockHolder {
  pid: number;
  host: string;
  token: string;
  at_ms: number;
}

/**
 * A parsed lock body, or null unless every field is there and valid. Checked by hand, not with a zod
 * schema: the lock is taken on paths (reading a session) that otherwise never load zod.
 */
function asHolder(raw: unknown): LockHolder | null {
  if (!isObject(raw)) return null;
  const { pid, host, token, at_ms } = raw;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  if (typeof host !== 'string' || host.length < 1 || typeof token !== 'string' || token.length < 8) return null;
  if (typeof at_ms !== 'number' || !Number.isFinite(at_ms)) return null;
  return { pid, host, token, at_ms };
}

export interface LockOptions {
  /** Give up after waiting this long for a live holder. Default 10 s. */
  waitMs?: number;
  clock?: Clock;
  /** A holder on another host is stale once its file is older than this. Default 5 minutes. */
  foreignStaleMs?: number;
  /** A file that is not a valid lock body is stale once older than this. Default 5 s. */
  graceMs?: number;
  /** How often a held lock's file is touched, so other hosts see it alive. Default 15 s (async), none (sync). */
  heartbeatMs?: number;
  /** Stops waiting (async) with an `Interrupted` error. */
  signal?: AbortSignal;
  /** Called once when the lock is busy and waiting starts. */
  onWait?: (holder: LockHolder | null) => void;
  /** The error to throw when the wait runs out (each layer names its own busy error). Default `LockBusy`. */
  busy?: (path: string, holder: LockHolder | null) => AgentlogError;
}

export interface HeldLock {
  readonly path: string;
  readonly token: string;
  /** True when a stale lock was broken to get this one: the dead holder's temp files may lie about. */
  readonly recovered: boolean;
  /** Whether the lock file is still ours. */
  held(): boolean;
  /** Removes the lock file if it is still ours. Idempotent. */
  release(): void;
}

const thisHost = hostname();

/** True unless the process is certainly gone: EPERM means it lives under another user. */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) !== 'ESRCH';
  }
}

interface Seen {
  raw: string;
  holder: LockHolder | null;
  mtimeMs: number;
}

/** The staleness rule (see the module comment), pure but for the pid probe it is given. */
export function isStale(
  seen: { holder: LockHolder | null; mtimeMs: number },
  nowMs: number,
  opts: { foreignStaleMs?: number; graceMs?: number; host?: string; alive?: (pid: number) => boolean } = {},
): boolean {
  const age = nowMs - seen.mtimeMs;
  if (seen.holder === null) return age > (opts.graceMs ?? 5_000);
  if (seen.holder.host !== (opts.host ?? thisHost)) return age > (opts.foreignStaleMs ?? 300_000);
  return !(opts.alive ?? pidAlive)(seen.holder.pid);
}

/** Parses a lock file's text; null when it is not a valid lock body. */
export function parseHolder(raw: string): LockHolder | null {
  try {
    return asHolder(JSON.parse(raw));
  } catch {
    return null;
  }
}

function readSeen(path: string): Seen | null {
  try {
    // Never through a link planted at the lock's name.
    const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const raw = readFileSync(fd, 'utf8');
      return { raw, holder: parseHolder(raw), mtimeMs: fstatSync(fd).mtimeMs };
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw wrapOsError(error, path, 'read the lock');
  }
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/**
 * Creates the lock file holding `body` unless one is there. Written in place (O_EXCL), not through a
 * temp file: a holder killed mid-way leaves no litter, only an empty or torn lock, which the grace
 * rule breaks once it is old. Not fsynced: after a crash a lost lock is stale all the same.
 */
function tryCreate(path: string, body: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw wrapOsError(error, path, 'create the lock');
  }
  try {
    writeAllSync(fd, JSON.stringify(body));
  } finally {
    closeSync(fd);
  }
  return true;
}

function breakStale(path: string, judged: Seen): void {
  const aside = `${path}.stale-${nodeCrypto().randomBytes(6).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw wrapOsError(error, path, 'break the stale lock');
  }
  const moved = readSeen(aside);
  if (moved !== null && moved.raw !== judged.raw) {
    // Someone broke it and took a fresh lock in between: theirs goes back.
    try {
      linkSync(aside, path);
    } catch {
      // A third lock is there already; the moved one's holder finds its lock gone (held() is false).
    }
  }
  unlinkQuiet(aside);
}

interface Attempt {
  body: LockHolder;
  recovered: boolean;
  last: Seen | null;
}

/** One try: true when the lock was taken; breaks a stale lock on the way. */
function attempt(path: string, state: Attempt, opts: LockOptions, clock: Clock): boolean {
  for (let i = 0; i < 3; i++) {
    if (tryCreate(path, state.body)) return true;
    const seen = readSeen(path);
    state.last = seen;
    if (seen === null) continue;
    if (!isStale(seen, clock.now(), opts)) return false;
    breakStale(path, seen);
    state.recovered = true;
  }
  return false;
}

function busyError(path: string, holder: LockHolder | null, opts: LockOptions): AgentlogError {
  if (opts.busy !== undefined) return opts.busy(path, holder);
  const who = holder === null ? 'an unknown process' : `process ${holder.pid} on ${holder.host}`;
  return new FsError('LockBusy', `${path} is held by ${who}; wait for it to finish, or stop it and try again`, path);
}

function heldLock(path: string, state: Attempt, heartbeatMs: number | null): HeldLock {
  const token = state.body.token;
  const timer =
    heartbeatMs === null
      ? null
      : setInterval(() => {
          try {
            const now = new Date();
            utimesSync(path, now, now);
          } catch {
            // Gone or not ours any more: held() tells the holder.
          }
        }, heartbeatMs);
  timer?.unref();
  let released = false;
  const held = (): boolean => {
    try {
      return readSeen(path)?.holder?.token === token;
    } catch {
      return false;
    }
  };
  return {
    path,
    token,
    recovered: state.recovered,
    held,
    release() {
      if (released) return;
      released = true;
      if (timer !== null) clearInterval(timer);
      if (held()) unlinkQuiet(path);
    },
  };
}

function start(clock: Clock): Attempt {
  return {
    body: { pid: process.pid, host: thisHost, token: nodeCrypto().randomBytes(12).toString('hex'), at_ms: clock.now() },
    recovered: false,
    last: null,
  };
}

function interrupted(path: string): FsError {
  return new FsError('Interrupted', `stopped while waiting for the lock ${path}`, path);
}

/** Takes the lock at `path`, waiting (without blocking the thread) for a live holder up to `waitMs`. */
export async function acquireLock(path: string, opts: LockOptions = {}): Promise<HeldLock> {
  const clock = opts.clock ?? systemClock;
  const deadline = clock.now() + (opts.waitMs ?? 10_000);
  const state = start(clock);
  let pause = 5;
  let waited = false;
  while (!attempt(path, state, opts, clock)) {
    if (opts.signal?.aborted === true) throw interrupted(path);
    if (clock.now() >= deadline) throw busyError(path, state.last?.holder ?? null, opts);
    if (!waited) {
      waited = true;
      opts.onWait?.(state.last?.holder ?? null);
    }
    await sleep(pause + Math.random() * pause, undefined, opts.signal !== undefined ? { signal: opts.signal } : {}).catch(() => undefined);
    pause = Math.min(pause * 2, 200);
  }
  return heldLock(path, state, opts.heartbeatMs ?? 15_000);
}

const waitCell = new Int32Array(new SharedArrayBuffer(4));

/** Takes the lock at `path`, blocking the thread while it waits (short critical sections only). */
export function acquireLockSync(path: string, opts: LockOptions = {}): HeldLock {
  const clock = opts.clock ?? systemClock;
  const deadline = clock.now() + (opts.waitMs ?? 10_000);
  const state = start(clock);
  let pause = 1;
  while (!attempt(path, state, opts, clock)) {
    if (clock.now() >= deadline) throw busyError(path, state.last?.holder ?? null, opts);
    Atomics.wait(waitCell, 0, 0, pause + Math.random() * pause);
    pause = Math.min(pause * 2, 50);
  }
  return heldLock(path, state, opts.heartbeatMs ?? null);
}

/** Runs `fn` holding the lock at `path`. */
export async function withLock<T>(path: string, fn: () => Promise<T> | T, opts: LockOptions = {}): Promise<T> {
  const lock = await acquireLock(path, opts);
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

/** Runs `fn` holding the lock at `path`, synchronously. */
export function withLockSync<T>(path: string, fn: () => T, opts: LockOptions = {}): T {
  const lock = acquireLockSync(path, opts);
  try {
    return fn();
  } finally {
    lock.release();
  }
}
