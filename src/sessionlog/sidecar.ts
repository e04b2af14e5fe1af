// Turn sidecar files: appending content as a byte span (offset + length, excluding the "\n"
// separator between entries), overwriting a whole sidecar, and reading a span back safely.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { writeAllSync as writeAll } from '../fs/atomic-write.js';
import { readExactSync } from '../fs/read-exact.js';
import { openPrivateAppend, openPrivateTruncate } from './private-fs.js';

/** Where one piece of content landed: `file` is relative to the session folder. */
export interface Span {
  file: string;
  offset: number;
  bytes: number;
}

/**
 * Appends `content` to `dir/rel`: a non-empty file first gets a "\n" separator, and the span
 * points exactly at the content bytes (research/intendant.md §1.2).
 */
export function appendSpan(dir: string, rel: string, content: string): Span {
  const fd = openPrivateAppend(join(dir, rel));
  try {
    const size = fstatSync(fd).size;
    const body = Buffer.from(content, 'utf8');
    writeAll(fd, size > 0 ? Buffer.concat([Buffer.from('\n'), body]) : body);
    return { file: rel, offset: size > 0 ? size + 1 : size, bytes: body.length };
  } finally {
    closeSync(fd);
  }
}

/** Replaces `dir/rel` with `content` (sidecars that hold one document per turn). */
export function writeSidecar(dir: string, rel: string, content: string): void {
  const fd = openPrivateTruncate(join(dir, rel));
  try {
    writeAll(fd, content);
  } finally {
    closeSync(fd);
  }
}

/** True when `rel` names something inside the session folder (relative, no `..`). */
export function isContainedPath(rel: string): boolean {
  if (rel === '' || isAbsolute(rel) || rel.includes('\0')) return false;
  return !rel.split(/[\\/]/).some((part) => part === '..');
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8; a read clipped by the cap drops a trailing partial character. Invalid: undefined. */
function decode(buf: Buffer, clipped: boolean): string | undefined {
  let end = buf.length;
  if (clipped) {
    // Back up over continuation bytes to the start of the last character, then keep it only if whole.
    let start = end - 1;
    while (start > 0 && end - start < 4 && ((buf[start] as number) & 0xc0) === 0x80) start--;
    const lead = buf[start] as number;
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (end - start < need) end = start;
  }
  try {
    return decoder.decode(buf.subarray(0, end));
  } catch {
    return undefined;
  }
}

export interface SpanText {
  text: string;
  /** The span was longer than the cap: `text` is its head. */
  clipped: boolean;
}

/**
 * Reads a span back, at most `maxBytes` of it. Undefined when the path escapes the folder, the
 * file is missing or shorter than the span, or the bytes are not UTF-8.
 */
export function readSpan(dir: string, rel: string, offset: number, bytes: number, maxBytes = 256 * 1024): SpanText | undefined {
  if (!isContainedPath(rel) || offset < 0 || bytes < 0) return undefined;
  const want = Math.min(bytes, maxBytes);
  let fd: number;
  try {
    fd = openSync(join(dir, rel), 'r');
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(want);
    if (readExactSync(fd, buf, want, offset) < want) return undefined;
    const text = decode(buf, want < bytes);
    return text === undefined ? undefined : { text, clipped: want < bytes };
  } finally {
    closeSync(fd);
  }
}

/** The whole sidecar when its size is exactly `expectedBytes` (legacy rows without a span). */
export function readWholeIfSize(dir: string, rel: string, expectedBytes: number, maxBytes = 256 * 1024): SpanText | undefined {
  if (!isContainedPath(rel)) return undefined;
  let size: number;
  try {
    const fd = openSync(join(dir, rel), 'r');
    try {
      size = fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (size !== expectedBytes) return undefined;
  return readSpan(dir, rel, 0, size, maxBytes);
}
