// The one "read exactly n bytes" loop: a read may return fewer bytes than asked (a pipe, a network
// filesystem, a signal), so reads are looped until the span is filled or the file ends.
import { read, readSync } from 'node:fs';

/** Below this, a read is done synchronously: a thread-pool round trip would cost more than the read. */
const syncReadBytes = 64 * 1024;

const readAsync = (fd: number, buf: Uint8Array, offset: number, length: number, position: number): Promise<number> =>
  new Promise((resolve, reject) => read(fd, buf, offset, length, position, (error, n) => (error === null ? resolve(n) : reject(error))));

/**
 * Reads `length` bytes at file `position` into `buf` from `offset`; returns how many it got, fewer
 * only when the file ends first.
 */
export function readExactSync(fd: number, buf: Uint8Array, length: number, position: number, offset = 0): number {
  let done = 0;
  for (let n = -1; done < length && n !== 0; done += n) n = readSync(fd, buf, offset + done, length - done, position + done);
  return done;
}

/** `readExactSync` that leaves the thread free for large spans. */
export async function readExact(fd: number, buf: Uint8Array, length: number, position: number, offset = 0): Promise<number> {
  if (length <= syncReadBytes) return readExactSync(fd, buf, length, position, offset);
  let done = 0;
  for (let n = -1; done < length && n !== 0; done += n) n = await readAsync(fd, buf, offset + done, length - done, position + done);
  return done;
}

/** The `length` bytes at `position` as a new buffer (shorter when the file ends first). */
export function readBytesSync(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  const got = readExactSync(fd, buf, length, position);
  return got === length ? buf : buf.subarray(0, got);
}
