// What a keep copies from: a vendor file opened without following links (every folder on the way
// checked), or an export's bytes held in memory. Size and time are fixed when it is opened.
import { readlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { custodyErrors } from './errors.js';
import { relDir } from './paths.js';
import { assertRealDirs, lstatOrNull, openRead, readFull } from './safe-fs.js';

export interface ByteSource {
  /** The size when opened: a keep copies exactly this many bytes, even if a writer is appending. */
  readonly size: number;
  readonly mtimeMs: number | null;
  /** Where the bytes come from, for reports. */
  readonly label: string;
  read(buf: Buffer, length: number, position: number): Promise<number>;
  close(): Promise<void>;
}

export function handleSource(handle: FileHandle, size: number, mtimeMs: number | null, label: string): ByteSource {
  return {
    size,
    mtimeMs,
    label,
    read: (buf, length, position) => readFull(handle, buf, Math.min(length, Math.max(0, size - position)), position),
    close: () => handle.close(),
  };
}

/**
 * Where the kernel says an open file is (Linux: /proc/self/fd). True when that is exactly `path`: no
 * folder on the way was a link at the moment of the open. False when it cannot tell (then the
 * caller re-checks every folder); a different answer is a link swapped in, refused.
 */
async function openedAt(handle: FileHandle, path: string): Promise<boolean> {
  let real: string;
  try {
    real = await readlink(`/proc/self/fd/${handle.fd}`);
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
  const { handle, stat } = await openRead(path);
  try {
    if (!(await openedAt(handle, path))) {
      await assertRealDirs(home, dir);
      const now = await lstatOrNull(path);
      if (now === null || now.ino !== stat.ino || now.dev !== stat.dev) throw custodyErrors.unsafePath(path, 'it changed identity while being opened');
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handleSource(handle, stat.size, stat.mtimeMs, path);
}

export function bufferSource(data: Buffer, label: string): ByteSource {
  return {
    size: data.length,
    mtimeMs: null,
    label,
    read: async (buf, length, position) => {
      const end = Math.min(data.length, position + length);
      if (end <= position) return 0;
      return data.copy(buf, 0, position, end);
    },
    close: async () => undefined,
  };
}
