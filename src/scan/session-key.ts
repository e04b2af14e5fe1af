// The cache key of a discovered session (every file's size and mtime and a hash of the main file's
// first bytes): the scan cache and the session index trust an entry only while it is unchanged.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { DiscoveredSession } from '../agents/types.js';
import { osPath } from '../fs/byte-path.js';

const prefixBytes = 4096;

async function prefixHash(path: string): Promise<string> {
  const handle = await open(osPath(path), 'r');
  try {
    const buf = Buffer.alloc(prefixBytes);
    const { bytesRead } = await handle.read(buf, 0, prefixBytes, 0);
    return createHash('sha1').update(buf.subarray(0, bytesRead)).digest('base64url').slice(0, 16);
  } finally {
    await handle.close();
  }
}

/** The cache key of a discovered session: every file's identity plus the main file's prefix hash. */
export async function sessionKey(session: DiscoveredSession): Promise<string> {
  const parts = session.files.map((f) => `${f.path}\u0000${f.size}\u0000${f.mtimeMs}`);
  const main = session.files[0];
  let prefix = '';
  if (main !== undefined) {
    try {
      prefix = await prefixHash(main.path);
    } catch {
      prefix = 'unreadable';
    }
  }
  return createHash('sha1').update(parts.join('\u0001')).update(prefix).digest('base64url');
}
