// Follow: batches of new entries as a transcript grows, read from the last complete line on each
// wake-up (a folder watch, with polling as the fallback and safety net). Truncation, replacement and a
// move to the kept copy (vendor pruned) restart from the new file, and the batch says so; a new file
// that still holds what was read continues where it was instead of repeating it.
import { watch, type FSWatcher } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { custodyErrors } from './errors.js';
import { maxLineBytes, type Entry } from './entry.js';
import { forwardLines } from './lines.js';
import type { Located } from './locate.js';
import { lineEntry, pageSession, viewerOf, type PageSession } from './pages.js';
import { identityOf, offsetHash } from './page-token.js';
import { lstatOrNull, openRead } from './safe-fs.js';

export const restartReasons = ['truncated', 'replaced', 'moved'] as const;
export type RestartReason = (typeof restartReasons)[number];

export interface FollowBatch {
  session: PageSession;
  entries: Entry[];
  /** Set when the transcript was truncated, replaced or moved: entries now come from the new file, from `resumed_at`. */
  restart: { reason: RestartReason; resumed_at: number } | null;
}

export interface FollowOptions {
  signal?: AbortSignal;
  /** Polling interval, and the longest a change can go unseen when watching fails. Default 1000 ms. */
  pollMs?: number;
  /** How long the transcript may be missing everywhere (SessionNotFound) or unopenable (its error) before following ends. Default 5000 ms. */
  missingGraceMs?: number;
  /** Use fs.watch as well as polling (default true). */
  watch?: boolean;
}

/** Where following starts: a line start in the file `loc` names (its identity checked first). */
export interface FollowStart {
  loc: Located;
  offset: number;
  /** The file identity the offset belongs to; null accepts the file as it is. */
  identity: { dev: string; ino: string } | null;
  /** The hash of the bytes the offset rests on (`offsetHash`), when known: lets a new file keep the place. */
  pin: string | null;
  /** What to call it if the file turns out not to be that one. Default `replaced`. */
  reason?: RestartReason;
}

class Waker {
  private pending: (() => void) | null = null;
  private woken = false;

  wake(): void {
    this.woken = true;
    this.pending?.();
  }

  async wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (this.woken || signal?.aborted === true) {
      this.woken = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.pending = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      this.pending = done;
    });
    this.woken = false;
  }
}

/** Yields batches until `signal` aborts; throws SessionNotFound once the session is gone everywhere. */
export async function* followTranscript(
  start: FollowStart,
  relocate: () => Promise<Located | null>,
  opts: FollowOptions = {},
): AsyncGenerator<FollowBatch> {
  const pollMs = opts.pollMs ?? 1000;
  const grace = opts.missingGraceMs ?? 5000;
  const waker = new Waker();
  const watched: { dir: string | null; watcher: FSWatcher | null } = { dir: null, watcher: null };
  const watchDir = (dir: string): void => {
    if (opts.watch === false || dir === watched.dir) return;
    watched.watcher?.close();
    watched.watcher = null;
    watched.dir = dir;
    try {
      const w = watch(dir, { persistent: false }, () => waker.wake());
      w.on('error', () => {
        w.close();
        if (watched.watcher === w) watched.watcher = null;
      });
      watched.watcher = w;
    } catch {
      // Polling carries on alone.
    }
  };

  let loc = start.loc;
  let offset = start.offset;
  let identity = start.identity;
  let pin = start.pin;
  let lineNo: number | null = offset === 0 ? 0 : null;
  let missingSince: number | null = null;
  let unreadableSince: number | null = null;
  let restart: FollowBatch['restart'] = null;

  /** Decides where to read a new file from: the same offset if it still holds what was read, else 0. */
  const adopt = async (handle: FileHandle, reason: RestartReason): Promise<void> => {
    const size = (await identityOf(handle)).size;
    const keepsPlace = pin !== null && size >= offset && (await offsetHash(handle, offset)) === pin;
    if (!keepsPlace) {
      offset = 0;
      lineNo = 0;
    }
    restart = { reason, resumed_at: offset };
  };

  try {
    watchDir(dirname(loc.main));
    while (opts.signal?.aborted !== true) {
      const st = await lstatOrNull(loc.main).catch(() => null);
      if (st === null || !st.isFile()) {
        const again = await relocate();
        if (again === null || again.main === loc.main) {
          missingSince ??= Date.now();
          if (Date.now() - missingSince > grace) throw custodyErrors.sessionNotFound(loc.sessionId, 'the vendor tree');
          await waker.wait(pollMs, opts.signal);
          continue;
        }
        loc = again;
        identity = null;
        watchDir(dirname(loc.main));
        restart = { reason: 'moved', resumed_at: 0 };
        continue;
      }
      missingSince = null;
      let opened: { handle: FileHandle } | null = null;
      try {
        opened = await openRead(loc.main);
        unreadableSince = null;
      } catch (error) {
        // A file that is there but cannot be opened (permissions, a planted link) is retried for the
        // same grace as a missing one, then reported: never retried forever in silence.
        unreadableSince ??= Date.now();
        if (Date.now() - unreadableSince > grace) throw error;
        await waker.wait(pollMs, opts.signal);
        continue;
      }
      const handle = opened.handle;
      const batch: Entry[] = [];
      try {
        const id = await identityOf(handle);
        if (identity === null || id.dev !== identity.dev || id.ino !== identity.ino) {
          if (identity !== null || restart !== null) await adopt(handle, restart?.reason ?? start.reason ?? 'replaced');
          identity = { dev: id.dev, ino: id.ino };
        } else if (id.size < offset || (pin !== null && (await offsetHash(handle, offset)) !== pin)) {
          // Shorter, or rewritten in place under what was read: either way the old offset means nothing.
          offset = 0;
          lineNo = 0;
          restart = { reason: 'truncated', resumed_at: 0 };
        }
        if (pin === null) pin = await offsetHash(handle, offset);
        if (id.size > offset) {
          let next = offset;
          for await (const line of forwardLines(handle, offset, id.size, { maxLineBytes })) {
            if (lineNo !== null) lineNo++;
            const entry = lineEntry(line, lineNo, viewerOf(loc));
            if (entry !== null) batch.push(entry);
            next = line.offset + line.bytes + 1;
          }
          if (next !== offset) {
            offset = next;
            pin = await offsetHash(handle, offset);
          }
        }
      } finally {
        await handle.close();
      }
      if (batch.length > 0 || restart !== null) {
        yield { session: pageSession(loc), entries: batch, restart };
        restart = null;
      }
      await waker.wait(pollMs, opts.signal);
    }
  } finally {
    watched.watcher?.close();
  }
}
