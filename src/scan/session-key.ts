// The cache key of a discovered session (every file's size and mtime and a hash of the main file's
// first bytes): the scan cache and the session index trust an entry only while it is unchanged.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import type { DiscoveredSession } from '../agents/types.js';
import { osPath } from '../fs/byte-path.js';
import { type DiscoveryFs, uncachedFs } from '../fs/dir-listing.js';

const prefixBytes = 4096;

/**
 * Synchronous: a scan keys every session one after another, and an asynchronous open, read and
 * close per session left the thread idle for a quarter of an unchanged scan (measured).
 */
function prefixHash(path: string): string {
  const fd = openSync(osPath(path), 'r');
  try {
    const buf = Buffer.alloc(prefixBytes);
    const bytesRead = readSync(fd, buf, 0, prefixBytes, 0);
    return createHash('sha1').update(buf.subarray(0, bytesRead)).digest('base64url').slice(0, 16);
  } finally {
    closeSync(fd);
  }
}

const asHash = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * The cache key of a discovered session: every file's identity plus the main file's prefix hash.
 * `fs` remembers the hash while the main file is provably the same one (size, mtime, ctime and
 * inode: a file replaced by another of the same size and mtime is a new inode, or a new ctime),
 * so an unchanged home is keyed with a stat per session instead of a read (see DiscoveryFs.derive).
 */
export async function sessionKey(session: DiscoveredSession, fs: DiscoveryFs = uncachedFs): Promise<string> {
  const parts = session.files.map((f) => `${f.path}\u0000${f.size}\u0000${f.mtimeMs}`);
  const main = session.files[0];
  let prefix = '';
  if (main !== undefined) {
    try {
      prefix = await fs.derive(main.path, 'prefix-hash', asHash, async () => prefixHash(main.path));
    } catch {
      prefix = 'unreadable';
    }
  }
  return createHash('sha1').update(parts.join('\u0001')).update(prefix).digest('base64url');
}
