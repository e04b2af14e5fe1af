// The one way a scan-side cache file is read: a missing file is an empty cache, an unreadable one
// a reported problem, and one that is not JSON (or fails its schema later) is moved aside (kept for
// a look, never read again) and reported, so the cache is rebuilt and nobody wonders why it ran cold.
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import type { FileProblem } from '../agents/types.js';
import { errorMessage, isNotFound } from '../fs/errors.js';

/** Moves the corrupt cache at `path` to `<path>.corrupt-<now>`; the problem says what `what` was and why. */
export async function moveAsideCorrupt(path: string, what: string, why: string, nowMs: number): Promise<FileProblem> {
  const aside = `${path}.corrupt-${nowMs}`;
  try {
    await rename(path, aside);
    return { path, kind: 'unparsed', reason: `${what} was ${why}; moved aside to ${aside} and rebuilt` };
  } catch (error) {
    return { path, kind: 'unparsed', reason: `${what} was ${why} and could not be moved aside (${errorMessage(error)}); rebuilt` };
  }
}

/** The cache file's text and JSON; null when there is none or it was unusable (then `problems` says why). */
export async function readCacheJson(
  path: string,
  what: string,
  nowMs: () => number,
  problems: FileProblem[],
): Promise<{ text: string; json: unknown } | null> {
  let text: string;
  try {
    // At once: a read of a few MiB through the promise API is a dozen round trips the scan waits on.
    const bytes = readFileSync(path);
    // The caches are written ASCII (asciiJson): such bytes read the same as Latin-1, which decodes
    // without UTF-8's checks (the bench home's 5.5 MB of caches: read and parse ~110 -> ~95 ms).
    text = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  } catch (error) {
    if (!isNotFound(error)) problems.push({ path, kind: 'unreadable', reason: `cannot read ${what}: ${errorMessage(error)}` });
    return null;
  }
  try {
    return { text, json: JSON.parse(text) };
  } catch (error) {
    problems.push(await moveAsideCorrupt(path, what, `not JSON (${errorMessage(error)})`, nowMs()));
    return null;
  }
}
