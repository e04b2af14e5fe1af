// Gemini CLI names a project by the SHA-256 of its root path (`projectHash`), never by the path.
// The root is recovered from the log itself: a directory that tool arguments name (or one of its
// ancestors) whose hash is the session's projectHash.
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { sha256Hex } from '../../fs/hash.js';

/** The first candidate (or ancestor of one) hashing to `projectHash`, else undefined. */
export function findProjectRoot(projectHash: string | undefined, candidates: readonly string[]): string | undefined {
  if (projectHash === undefined || !/^[0-9a-f]{64}$/i.test(projectHash)) return undefined;
  const want = projectHash.toLowerCase();
  const tried = new Set<string>();
  for (const candidate of candidates) {
    if (!isAbsolute(candidate)) continue;
    let dir = normalize(candidate).replace(/(.)\/+$/, '$1');
    for (;;) {
      if (tried.has(dir)) break;
      tried.add(dir);
      if (sha256Hex(dir) === want) return dir;
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  return undefined;
}

/** A shell directory as an absolute path: relative ones are relative to the project root. */
export function absoluteDir(dir: string, root: string | undefined): string | undefined {
  if (isAbsolute(dir)) return normalize(dir).replace(/(.)\/+$/, '$1');
  return root === undefined ? undefined : join(root, dir);
}
