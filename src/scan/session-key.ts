// The cache key of a discovered session (every file's size and mtime and a hash of the main file's
// first bytes): the scan cache and the session index trust an entry only while it is unchanged.
import { nodeCrypto } from '../fs/crypto.js';
import { closeSync, openSync, readSync } from 'node:fs';
import { sep } from 'node:path';
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
    return nodeCrypto().createHash('sha1').update(buf.subarray(0, bytesRead)).digest('base64url').slice(0, 16);
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
  const main = session.files[0];
  let prefix = '';
  if (main !== undefined) {
    try {
      prefix = await fs.derive(main, 'prefix-hash', asHash, async () => prefixHash(main.path));
    } catch {
      prefix = 'unreadable';
    }
  }
  return identityHash(session.home, session.files, prefix);
}

/** Sizes and mtimes for `identityHash`, reused: filled and hashed with no await between. */
let numbers = new Float64Array(256);

/**
 * The hash of the files' paths, sizes and mtimes and the prefix hash: the home and the count, each
 * path ended by a NUL (no path holds one) and marked `h` when written after the home (whose long
 * text each of a session's files repeats) or `a` when whole, then every size and mtime as 8 bytes,
 * then the prefix. Numbers as bytes
 * and the paths as one string: a `path\0size\0mtime` string per file cost an unchanged scan of
 * a large home (~30k files) a tenth of its time, in number-to-text conversions and their garbage.
 */
function identityHash(home: string, files: DiscoveredSession['files'], prefix: string): string {
  const n = files.length;
  const under = home.endsWith(sep) ? home : home + sep;
  if (numbers.length < 2 * n) numbers = new Float64Array(2 * n);
  let paths = '';
  for (let i = 0; i < n; i++) {
    const f = files[i];
    if (f === undefined) continue;
    paths += f.path.startsWith(under) ? `h${f.path.slice(under.length)}\u0000` : `a${f.path}\u0000`;
    numbers[2 * i] = f.size;
    numbers[2 * i + 1] = f.mtimeMs;
  }
  return nodeCrypto()
    .createHash('sha1')
    .update(`${under}\u0000${n}\u0001`)
    .update(paths)
    .update(new Uint8Array(numbers.buffer, 0, 16 * n))
    .update(prefix)
    .digest('base64url');
}
