// What a keep copies from: a vendor file opened without following links (every folder on the way
// checked), or an export's bytes held in memory. Size and time are fixed when it is opened.
import { closeSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { custodyErrors } from './errors.js';
import { openReadFd, readAt } from './fd-io.js';
import { relDir } from './paths.js';
import { assertRealDirs, lstatOrNull } from './safe-fs.js';
import { pathFromOs } from '../fs/byte-path.js';

export interface ByteSource {
  /** The size when opened: a keep copies exactly this many bytes, even if a writer is appending. */
  readonly size: number;
  readonly mtimeMs: number | null;
  /** The opened file's device and inode (null for bytes in memory): what the keep manifest records. */
  readonly identity: { dev: number; ino: number } | null;
  /** Where the bytes come from, for reports. */
  readonly label: string;
  /** The open descriptor of a vendor file (the kernel can copy from it); null for bytes in memory. */
  readonly fd: number | null;
  read(buf: Buffer, length: number, position: number): Promise<number>;
  close(): Promise<void>;
}

/** A vendor file open on a raw descriptor (fd-io.ts): small reads cost no thread-pool round trip. */
function fdSource(fd: number, stat: { size: number; mtimeMs: number; dev: number; ino: number }, label: string): ByteSource {
  const size = stat.size;
  return {
    size,
    mtimeMs: stat.mtimeMs,
    identity: { dev: stat.dev, ino: stat.ino },
    label,
    fd,
    read: (buf, length, position) => readAt(fd, buf, Math.min(length, Math.max(0, size - position)), position),
    close: async () => closeSync(fd),
  };
}

/**
 * Where the kernel says an open file is (Linux: /proc/self/fd). True when that is exactly `path`: no
 * folder on the way was a link at the moment of the open. False when it cannot tell (then the
 * caller re-checks every folder); a different answer is a link swapped in, refused.
 */
function openedAt(fd: number, path: string): boolean {
  let real: string;
  try {
    real = pathFromOs(readlinkSync(`/proc/self/fd/${fd}`, { encoding: 'buffer' }));
  } catch {
    return false;
  }
  if (real !== path) throw custodyErrors.unsafePath(path, `it was opened as ${real}, through a link`);
  return true;
}

/**
 * Opens `home/relPath` for a keep. Every folder below the home is lstat-checked before the open, the
 * leaf is opened with O_NOFOLLOW, and after the open the file must be where it was asked for (so a
 * folder swapped for a link in between is noticed).
 */
export async function openVendorFile(home: string, relPath: string, verified: Set<string>): Promise<ByteSource> {
  const dir = relDir(relPath);
  const path = join(home, relPath);
  await assertRealDirs(home, dir, verified);
  const { fd, stat } = openReadFd(path);
  try {
    if (!openedAt(fd, path)) {
      await assertRealDirs(home, dir);
      const now = await lstatOrNull(path);
      if (now === null || now.ino !== stat.ino || now.dev !== stat.dev)
        throw custodyErrors.unsafePath(path, 'it changed identity while being opened');
    }
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fdSource(fd, stat, path);
}

export function bufferSource(data: Buffer, label: string): ByteSource {
  return {
    size: data.length,
    mtimeMs: null,
    identity: null,
    label,
    fd: null,
    read: async (buf, length, position) => {
      const end = Math.min(data.length, position + length);
      if (end <= position) return 0;
      return data.copy(buf, 0, position, end);
    },
    close: async () => undefined,
  };
}
