// The working directory a Claude Code transcript names: every line carries `cwd`, so the first
// lines say it without a parse.
import { constants } from 'node:fs';
import { osPath } from '../../fs/byte-path.js';
import { readExact } from '../../fs/read-exact.js';
import { open } from 'node:fs/promises';
import { parseObjectLine, str } from '../../json/narrow.js';
import type { DiscoveredSession } from '../types.js';

/** How far into the main file to look: a first line of that size is a pasted document, not a header. */
const peekBytes = 64 * 1024;

/** The first non-empty `cwd` in the main file's first 64 KiB; null when none (or unreadable). */
export async function claudeSessionCwd(session: DiscoveredSession): Promise<string | null> {
  let handle;
  try {
    handle = await open(osPath(session.files[0]?.path ?? session.path), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(peekBytes);
    const bytesRead = await readExact(handle.fd, buf, buf.length, 0);
    for (const line of buf.toString('utf8', 0, bytesRead).split('\n')) {
      const cwd = str(parseObjectLine(line), 'cwd');
      if (cwd !== undefined && cwd !== '') return cwd;
    }
    return null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}
