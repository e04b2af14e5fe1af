// The store's writer lock: one indexing process at a time. Created atomically (link of a complete
// file), refreshed by its holder, and taken over only from a holder that is dead (same host) or has
// stopped refreshing for minutes (weak spot 17: never stolen from a live, slow holder by age alone).
import { randomBytes } from 'node:crypto';
import { link, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { errorCode } from '../fs/stat.js';
import { SearchError } from './errors.js';

export interface LockBody {
  pid: number;
  host: string;
  token: string;
  at_ms: number;
}

export interface WriterLock {
  readonly token: string;
  /** Whether the lock file is still ours (checked before each manifest write). */
  held(): Promise<boolean>;
  release(): Promise<void>;
}

export interface LockOptions {
  /** How long to wait for a live holder before giving up with `IndexBusy`. Default 10 minutes. */
  waitMs?: number;
  /** Called once when the lock is busy and we start waiting. */
  onWait?: (holder: LockBody | null) => void;
  /** A holder refreshes the file this often. */
  heartbeatMs?: number;
  /** A lock not refreshed for this long is abandoned even if its pid exists (pid reuse, hung host). */
  staleMs?: number;
}

const lockName = 'writer.lock';

function parseBody(text: string): LockBody | null {
  try {
    const v = JSON.parse(text) as Partial<LockBody> | null;
    if (typeof v?.pid === 'number' && typeof v.host === 'string' && typeof v.token === 'string' && typeof v.at_ms === 'number') {
      return { pid: v.pid, host: v.host, token: v.token, at_ms: v.at_ms };
    }
  } catch {
    // unreadable body: judged by age alone
  }
  return null;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

async function readHolder(path: string): Promise<{ body: LockBody | null; mtimeMs: number } | null> {
  try {
    const [text, s] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    return { body: parseBody(text), mtimeMs: s.mtimeMs };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

function abandoned(holder: { body: LockBody | null; mtimeMs: number }, staleMs: number, now: number): boolean {
  if (now - holder.mtimeMs > staleMs) return true;
  const b = holder.body;
  // A lock we cannot read was never completed by a live writer (links publish whole files); give a
  // moment's grace for clocks, then take it.
  if (b === null) return now - holder.mtimeMs > 10_000;
  return b.host === hostname() && b.pid !== process.pid && !pidAlive(b.pid);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Takes the writer lock of the store at `root`, waiting for a live holder up to `waitMs`. */
export async function acquireWriterLock(root: string, opts: LockOptions = {}): Promise<WriterLock> {
  const path = join(root, lockName);
  const waitMs = opts.waitMs ?? 10 * 60_000;
  const staleMs = opts.staleMs ?? 5 * 60_000;
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const body: LockBody = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex'), at_ms: Date.now() };
  const started = Date.now();
  let waited = false;
  let delay = 20;
  for (;;) {
    const temp = join(root, `writer.lock.${body.token}.tmp`);
    await writeFile(temp, JSON.stringify(body), { mode: 0o600 });
    try {
      await link(temp, path);
      await unlink(temp).catch(() => undefined);
      return holding(path, body, heartbeatMs);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    const holder = await readHolder(path);
    if (holder === null) continue;
    if (abandoned(holder, staleMs, Date.now())) {
      await takeOver(path, holder.body, body.token);
      continue;
    }
    if (Date.now() - started >= waitMs) {
      const who = holder.body !== null ? `pid ${holder.body.pid} on ${holder.body.host}` : 'another process';
      throw new SearchError('IndexBusy', `the search index is being written by ${who}; wait for it to finish (or stop it) and try again`);
    }
    if (!waited) {
      waited = true;
      opts.onWait?.(holder.body);
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 500);
  }
}

/**
 * Moves an abandoned lock aside. Only one contender's rename succeeds; if what it moved turns out
 * to be a fresh lock (someone took over in between), it is put back.
 */
async function takeOver(path: string, judged: LockBody | null, token: string): Promise<void> {
  const aside = `${path}.stale-${token}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  const moved = await readHolder(aside);
  const same = moved !== null && (moved.body === null ? judged === null : moved.body.token === judged?.token);
  if (!same) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

function holding(path: string, body: LockBody, heartbeatMs: number): WriterLock {
  const timer = setInterval(() => {
    const now = new Date();
    utimes(path, now, now).catch(() => undefined);
  }, heartbeatMs);
  timer.unref();
  let released = false;
  const held = async (): Promise<boolean> => {
    const h = await readHolder(path).catch(() => null);
    return h?.body?.token === body.token;
  };
  return {
    token: body.token,
    held,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      if (await held()) await unlink(path).catch(() => undefined);
    },
  };
}
