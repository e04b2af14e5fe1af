// Reads a session folder's own files (sidecars, meta, agent input) without ever leaving it: a
// reference that is absolute, climbs with `..`, resolves through a symlink or names something other
// than a regular file is refused, and the refusal is a value the caller reports, never a throw.
import { constants } from 'node:fs';
import { open, realpath, type FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';
import { omittedLine, type ClipRule } from '../../record/clip.js';
import { errorCode, errorMessage } from '../../fs/stat.js';

export const readFailures = ['missing', 'refused', 'short', 'oversized', 'unreadable'] as const;
export type ReadFailure = (typeof readFailures)[number];

export type ReadResult = { ok: true; text: string } | { ok: false; failure: ReadFailure; reason: string };

/** Why a session-relative reference may not be followed at all, or undefined when it may. */
export function refusalOf(ref: string): string | undefined {
  if (ref === '') return 'empty file reference';
  if (ref.includes('\0')) return 'file reference holds a NUL byte';
  if (isAbsolute(ref) || ref.startsWith('\\') || /^[A-Za-z]:/.test(ref)) return `absolute file reference ${ref}`;
  if (ref.split(/[\\/]+/).includes('..')) return `file reference climbs out with "..": ${ref}`;
  return undefined;
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buf, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? buf : buf.subarray(0, done);
}

/** The session folder's files, opened only after their references were checked. */
export class SessionDir {
  private root: Promise<string> | undefined;
  private readonly realDirs = new Map<string, Promise<string>>();

  constructor(readonly dir: string) {}

  private rootReal(): Promise<string> {
    this.root ??= realpath(this.dir);
    return this.root;
  }

  private real(dir: string): Promise<string> {
    let p = this.realDirs.get(dir);
    if (p === undefined) {
      p = realpath(dir);
      this.realDirs.set(dir, p);
    }
    return p;
  }

  /** Opens a session-relative file for reading, or says why it may not or cannot be. */
  private async openRef(ref: string): Promise<{ handle: FileHandle; size: number } | { failure: ReadFailure; reason: string }> {
    const refused = refusalOf(ref);
    if (refused !== undefined) return { failure: 'refused', reason: refused };
    const full = join(this.dir, ref);
    let parent: string;
    let root: string;
    try {
      root = await this.rootReal();
      parent = await this.real(dirname(full));
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return { failure: 'missing', reason: `missing file ${ref}` };
      return { failure: 'unreadable', reason: `cannot read ${ref}: ${errorMessage(error)}` };
    }
    // A symlinked folder on the way (turns -> /elsewhere) resolves outside the root.
    if (parent !== root && !parent.startsWith(root + sep)) return { failure: 'refused', reason: `file reference leaves the session folder through a symlink: ${ref}` };
    let handle: FileHandle;
    try {
      // O_NOFOLLOW refuses a symlink as the last component; O_NONBLOCK keeps a planted FIFO from hanging us.
      handle = await open(join(parent, basename(full)), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ELOOP' || code === 'EMLINK') return { failure: 'refused', reason: `file reference is a symlink: ${ref}` };
      if (code === 'ENOENT' || code === 'ENOTDIR') return { failure: 'missing', reason: `missing file ${ref}` };
      return { failure: 'unreadable', reason: `cannot read ${ref}: ${errorMessage(error)}` };
    }
    try {
      const st = await handle.stat();
      if (st.isFile()) return { handle, size: st.size };
    } catch (error) {
      await handle.close();
      return { failure: 'unreadable', reason: `cannot read ${ref}: ${errorMessage(error)}` };
    }
    await handle.close();
    return { failure: 'refused', reason: `file reference is not a regular file: ${ref}` };
  }

  /** The size of a session-relative file, or the failure that stops it being read. */
  async size(ref: string): Promise<{ ok: true; size: number } | { ok: false; failure: ReadFailure; reason: string }> {
    const opened = await this.openRef(ref);
    if ('failure' in opened) return { ok: false, ...opened };
    await opened.handle.close();
    return { ok: true, size: opened.size };
  }

  /**
   * The `length` bytes at `offset`, decoded as UTF-8 and clipped by `rule` exactly as `clip()` would
   * clip the whole span, but reading only the head and tail of a long span.
   */
  async readSpan(ref: string, offset: number, length: number, rule: ClipRule): Promise<ReadResult> {
    const opened = await this.openRef(ref);
    if ('failure' in opened) return { ok: false, ...opened };
    const { handle, size } = opened;
    try {
      if (offset + length > size) return { ok: false, failure: 'short', reason: `span ${offset}+${length} runs past the end of ${ref} (${size} bytes)` };
      if (length <= rule.whole) return { ok: true, text: (await readAt(handle, offset, length)).toString('utf8') };
      // One byte past the head and three before the tail are enough to find code point boundaries.
      const head = await readAt(handle, offset, rule.half + 1);
      const tailFrom = length - rule.half - 3;
      const tail = await readAt(handle, offset + tailFrom, rule.half + 3);
      let headEnd = rule.half;
      while (headEnd > 0 && isContinuation(head[headEnd])) headEnd--;
      let tailStart = length - rule.half;
      while (tailStart < length && isContinuation(tail[tailStart - tailFrom])) tailStart++;
      const text = head.toString('utf8', 0, headEnd) + omittedLine(tailStart - headEnd) + tail.toString('utf8', tailStart - tailFrom);
      return { ok: true, text };
    } catch (error) {
      return { ok: false, failure: 'unreadable', reason: `cannot read ${ref}: ${errorMessage(error)}` };
    } finally {
      await handle.close();
    }
  }

  /** A whole small file (meta, agent input), refused as oversized beyond `maxBytes`. */
  async readWhole(ref: string, maxBytes: number): Promise<ReadResult> {
    const opened = await this.openRef(ref);
    if ('failure' in opened) return { ok: false, ...opened };
    const { handle, size } = opened;
    try {
      if (size > maxBytes) return { ok: false, failure: 'oversized', reason: `${ref} is ${size} bytes, over the ${maxBytes}-byte bound` };
      return { ok: true, text: (await readAt(handle, 0, size)).toString('utf8') };
    } catch (error) {
      return { ok: false, failure: 'unreadable', reason: `cannot read ${ref}: ${errorMessage(error)}` };
    } finally {
      await handle.close();
    }
  }
}
