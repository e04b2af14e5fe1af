// Opening a session folder: create it and `turns/` owner-only, read its meta, open the append
// files. When the chosen folder cannot be opened, the whole session moves to a fresh private
// temporary folder (mkdtemp, 0700) that the caller gets back and every later write uses, or the
// open fails loudly in strict mode. Never a fixed shared path (research §1.11, §9 item 1).
import { lstatSync, mkdtempSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wrapOsError } from '../fs/errors.js';
import { acquireLockSync, type HeldLock } from '../fs/lock.js';
import { SessionLogError, reason } from './errors.js';
import { LineAppender } from './line-appender.js';
import { readMetaSync, type SessionMeta } from './meta.js';
import { files } from './paths.js';
import { makePrivateDir } from './private-fs.js';

export interface OpenedDir {
  dir: string;
  meta: SessionMeta | null;
  events: LineAppender;
  transcript: LineAppender;
  /** The session's writer lock: one writer per session, released by `close`. */
  lock: HeldLock;
}

/** The session's writer lock file (beside the meta's own short-lived lock). */
export const writerLockName = '.writer.lock';

/** Refuses a folder of the session that is a symbolic link (sidecars would land in another folder). */
function assertRealDir(path: string): void {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (error) {
    throw wrapOsError(error, path, 'inspect');
  }
  if (st.isSymbolicLink() || !st.isDirectory())
    throw new SessionLogError(
      'UnsafePath',
      `refusing ${path}: it is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; the session log never writes through links (replace it with a real folder)`,
    );
}

function lockSession(dir: string): HeldLock {
  return acquireLockSync(join(dir, writerLockName), {
    waitMs: 0,
    busy: (path, holder) =>
      new SessionLogError(
        'SessionBusy',
        `another writer (${holder === null ? 'an unknown process' : `process ${holder.pid} on ${holder.host}`}) has the session in ${dir} open; two writers would interleave its sequence numbers. Close the other one first (the lock is ${path})`,
      ),
  });
}

export interface Fallback {
  /** The folder that was asked for and could not be opened. */
  requestedDir: string;
  reason: string;
}

function openDir(dir: string): OpenedDir {
  makePrivateDir(dir);
  assertRealDir(dir);
  makePrivateDir(join(dir, files.turns));
  assertRealDir(join(dir, files.turns));
  const lock = lockSession(dir);
  let events: LineAppender | undefined;
  try {
    const meta = readMetaSync(dir);
    events = new LineAppender(join(dir, files.events));
    return { dir, meta, events, transcript: new LineAppender(join(dir, files.transcript)), lock };
  } catch (error) {
    events?.close();
    lock.release();
    throw error;
  }
}

/**
 * Opens `requested`, or on an I/O failure a private temporary folder (unless `strict`). Typed
 * errors (a corrupt meta) are never a reason to move: they are the caller's to fix.
 */
export function openSessionDir(
  requested: string,
  opts: { strict?: boolean; tmpRoot?: string } = {},
): { opened: OpenedDir; fallback: Fallback | null } {
  try {
    return { opened: openDir(requested), fallback: null };
  } catch (error) {
    if (error instanceof SessionLogError) throw error;
    const why = reason(error);
    if (opts.strict === true) {
      throw new SessionLogError(
        'OpenFailed',
        `cannot open session log folder ${requested}: ${why}; fix its permissions or free space, or open without strict to use a private temporary folder`,
        { cause: error },
      );
    }
    let temp: string;
    try {
      temp = mkdtempSync(join(opts.tmpRoot ?? tmpdir(), 'agentlog-session-'));
    } catch (tempError) {
      throw new SessionLogError(
        'OpenFailed',
        `cannot open session log folder ${requested} (${why}) nor a temporary one: ${reason(tempError)}`,
        { cause: tempError },
      );
    }
    return { opened: openDir(temp), fallback: { requestedDir: requested, reason: why } };
  }
}
