// Reads a session folder's own files (sidecars, meta, agent input) without ever leaving it: a
// reference that is absolute, climbs with `..`, resolves through a symlink or names something other
// than a regular file is refused, and the refusal is a value the caller reports, never a throw.
// Every call is synchronous: a session reads one small sidecar per turn, and each read through the
// thread pool (open, stat, read, close) cost far more than the bytes (parsing runs in worker threads).
import { readBytesSync } from '../../fs/read-exact.js';
import { closeSync, constants, fstatSync, lstatSync, openSync, realpathSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, sep } from 'node:path';
import { inFolder, RefPaths } from './ref-paths.js';
import { clip, omittedLine, type ClipRule } from '../../record/clip.js';
import { clipsWantWholeText } from '../../record/spill-scope.js';
import { errorCode, errorMessage } from '../../fs/errors.js';

/** A span larger than this is read head and tail only even under sync (its middle is never kept). */
const wholeSpanMaxBytes = 64 * 1024 * 1024;

export const readFailures = ['missing', 'refused', 'short', 'oversized', 'unreadable'] as const;
export type ReadFailure = (typeof readFailures)[number];

export type ReadResult = { ok: true; text: string } | { ok: false; failure: ReadFailure; reason: string };

/** A drive letter (`C:`) opens an absolute Windows path. */
const drivePrefix = /^[A-Za-z]:/;
const separators = /[\\/]+/;

/** Why a session-relative reference may not be followed at all, or undefined when it may. */
export function refusalOf(ref: string): string | undefined {
  if (ref === '') return 'empty file reference';
  if (ref.includes('\0')) return 'file reference holds a NUL byte';
  // (Patterns are module constants: a literal here is a fresh RegExp per call, thousands per session.)
  if (isAbsolute(ref) || ref.startsWith('\\') || drivePrefix.test(ref)) return `absolute file reference ${ref}`;
  if (ref.includes('..') && ref.split(separators).includes('..')) return `file reference climbs out with "..": ${ref}`;
  return undefined;
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

function oversized(ref: string, size: number, maxBytes: number): { ok: false; failure: ReadFailure; reason: string } {
  return { ok: false, failure: 'oversized', reason: `${ref} is ${size} bytes, over the ${maxBytes}-byte bound` };
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

const uid = process.getuid?.();

/**
 * Whether the mode bits alone let this process open the file for reading: root reads any regular
 * file; its owner needs the owner bit; anyone else the group and other bits both (so membership
 * need not be known). An ACL or security module that denies more is seen only by an open.
 */
export function readableByMode(st: Pick<Stats, 'uid' | 'mode'>, processUid: number | undefined): boolean {
  if (processUid === undefined) return false;
  if (processUid === 0) return true;
  if (st.uid === processUid) return (st.mode & 0o400) !== 0;
  return (st.mode & 0o044) === 0o044;
}

/** A resolved path, or the error that stopped it (kept, so a folder is resolved once). */
type Real = { path: string } | { error: unknown };

function realOf(path: string): Real {
  try {
    return { path: realpathSync.native(path) };
  } catch (error) {
    return { error };
  }
}

/** The session folder's files, opened only after their references were checked. */
export class SessionDir {
  private root: Real | undefined;
  private readonly folders = new Map<string, Real | { leaves: true }>();
  private readonly refs: RefPaths;

  constructor(readonly dir: string) {
    this.refs = new RefPaths(dir);
  }

  private rootReal(): Real {
    this.root ??= realOf(this.dir);
    return this.root;
  }

  /**
   * A folder right inside the session folder that is one (not a link): the root's real path and its
   * name, from one lstat, where a realpath walks and stats every component of the whole path again.
   */
  private childReal(dir: string): Real | undefined {
    if (dirname(dir) !== this.dir) return undefined;
    const root = this.rootReal();
    if ('error' in root || lstatOrUndefined(dir)?.isDirectory() !== true) return undefined;
    return { path: inFolder(root.path, basename(dir)) };
  }

  /**
   * The real folder a reference's folder part resolves to, inside the session folder; else the
   * error that stopped it, or `leaves` for one that resolves outside. Kept per folder: a session's
   * thousands of sidecar references share the one `turns/` folder.
   */
  private folder(parentDir: string): Real | { leaves: true } {
    let verdict = this.folders.get(parentDir);
    if (verdict === undefined) {
      const root = this.rootReal();
      const parent = 'error' in root || parentDir === this.dir ? root : (this.childReal(parentDir) ?? realOf(parentDir));
      if ('error' in root || 'error' in parent) verdict = 'error' in root ? root : parent;
      // A symlinked folder on the way (turns -> /elsewhere) resolves outside the root.
      else if (parent.path !== root.path && !parent.path.startsWith(root.path + sep)) verdict = { leaves: true };
      else verdict = parent;
      this.folders.set(parentDir, verdict);
    }
    return verdict;
  }

  /** The real path a session-relative reference names, or why it may not or cannot be followed. */
  private resolveRef(ref: string): { path: string } | { failure: ReadFailure; reason: string } {
    const refused = refusalOf(ref);
    if (refused !== undefined) return { failure: 'refused', reason: refused };
    const where = this.refs.split(ref);
    const folder = this.folder(where.parent);
    if ('leaves' in folder) return { failure: 'refused', reason: `file reference leaves the session folder through a symlink: ${ref}` };
    if ('error' in folder) {
      const code = errorCode(folder.error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return { failure: 'missing', reason: `missing file ${ref}` };
      return { failure: 'unreadable', reason: `cannot read ${ref}: ${errorMessage(folder.error)}` };
    }
    return { path: inFolder(folder.path, where.name) };
  }

  /** Opens a session-relative file for reading, or says why it may not or cannot be. */
  private openRef(ref: string): { fd: number; size: number } | { failure: ReadFailure; reason: string } {
    const resolved = this.resolveRef(ref);
    if ('failure' in resolved) return resolved;
    let fd: number;
    try {
      // O_NOFOLLOW refuses a symlink as the last component; O_NONBLOCK keeps a planted FIFO from hanging us.
      fd = openSync(resolved.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ELOOP' || code === 'EMLINK') return { failure: 'refused', reason: `file reference is a symlink: ${ref}` };
      if (code === 'ENOENT' || code === 'ENOTDIR') return { failure: 'missing', reason: `missing file ${ref}` };
      return { failure: 'unreadable', reason: `cannot read ${ref}: ${errorMessage(error)}` };
    }
    try {
      const st = fstatSync(fd);
      if (st.isFile()) return { fd, size: st.size };
    } catch (error) {
      closeSync(fd);
      return { failure: 'unreadable', reason: `cannot read ${ref}: ${errorMessage(error)}` };
    }
    closeSync(fd);
    return { failure: 'refused', reason: `file reference is not a regular file: ${ref}` };
  }

  /**
   * What `readWhole` would refuse, without reading: the open and size checks only (for a file
   * whose bytes the caller does not need but whose trouble it must still report).
   */
  checkWhole(ref: string, maxBytes: number): { ok: true } | { ok: false; failure: ReadFailure; reason: string } {
    // One lstat answers for a regular file its mode lets us read (a session's agent-input sidecars,
    // thousands at summary detail): no open, fstat and close. Anything else takes the open, so
    // every refusal and failure reads exactly as a read's would.
    const resolved = this.resolveRef(ref);
    if (!('failure' in resolved)) {
      const st = lstatOrUndefined(resolved.path);
      if (st?.isFile() === true && readableByMode(st, uid)) return st.size > maxBytes ? oversized(ref, st.size, maxBytes) : { ok: true };
    }
    const opened = this.openRef(ref);
    if ('failure' in opened) return { ok: false, ...opened };
    closeSync(opened.fd);
    return opened.size > maxBytes ? oversized(ref, opened.size, maxBytes) : { ok: true };
  }

  /** The size of a session-relative file, or the failure that stops it being read. */
  size(ref: string): { ok: true; size: number } | { ok: false; failure: ReadFailure; reason: string } {
    const opened = this.openRef(ref);
    if ('failure' in opened) return { ok: false, ...opened };
    closeSync(opened.fd);
    return { ok: true, size: opened.size };
  }

  /**
   * The `length` bytes at `offset`, decoded as UTF-8 and clipped by `rule` exactly as `clip()` would
   * clip the whole span, but reading only the head and tail of a long span.
   */
  readSpan(ref: string, offset: number, length: number, rule: ClipRule): ReadResult {
    const opened = this.openRef(ref);
    if ('failure' in opened) return { ok: false, ...opened };
    const { fd, size } = opened;
    try {
      if (offset + length > size)
        return { ok: false, failure: 'short', reason: `span ${offset}+${length} runs past the end of ${ref} (${size} bytes)` };
      if (length <= rule.whole) return { ok: true, text: readBytesSync(fd, offset, length).toString('utf8') };
      // Under sync the whole span is read so the clip's hook (redaction) sees what the cut removes.
      if (clipsWantWholeText() && length <= wholeSpanMaxBytes)
        return { ok: true, text: clip(readBytesSync(fd, offset, length).toString('utf8'), rule) };
      // One byte past the head and three before the tail are enough to find code point boundaries.
      const head = readBytesSync(fd, offset, rule.half + 1);
      const tailFrom = length - rule.half - 3;
      const tail = readBytesSync(fd, offset + tailFrom, rule.half + 3);
      let headEnd = rule.half;
      while (headEnd > 0 && isContinuation(head[headEnd])) headEnd--;
      let tailStart = length - rule.half;
      while (tailStart < length && isContinuation(tail[tailStart - tailFrom])) tailStart++;
      const text = head.toString('utf8', 0, headEnd) + omittedLine(tailStart - headEnd) + tail.toString('utf8', tailStart - tailFrom);
      return { ok: true, text };
    } catch (error) {
      return { ok: false, failure: 'unreadable', reason: `cannot read ${ref}: ${errorMessage(error)}` };
    } finally {
      closeSync(fd);
    }
  }

  /** A whole small file (meta, agent input), refused as oversized beyond `maxBytes`. */
  readWhole(ref: string, maxBytes: number): ReadResult {
    const opened = this.openRef(ref);
    if ('failure' in opened) return { ok: false, ...opened };
    const { fd, size } = opened;
    try {
      if (size > maxBytes) return oversized(ref, size, maxBytes);
      return { ok: true, text: readBytesSync(fd, 0, size).toString('utf8') };
    } catch (error) {
      return { ok: false, failure: 'unreadable', reason: `cannot read ${ref}: ${errorMessage(error)}` };
    } finally {
      closeSync(fd);
    }
  }
}
