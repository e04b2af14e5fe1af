// The login token: 32 random bytes, base64url, in <AGENTLOG_HOME>/serve.token (0600), created on
// first start and kept across restarts so a bookmarked login link keeps working.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';

export const tokenFileName = 'serve.token';
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

export function tokenPath(stateRoot: string): string {
  return join(stateRoot, tokenFileName);
}

/** The token in the file, creating the file (exclusively, 0600) when it is missing or unusable. */
export async function loadOrCreateToken(stateRoot: string): Promise<string> {
  const path = tokenPath(stateRoot);
  await mkdir(stateRoot, { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const text = (await readFile(path, 'utf8')).trim();
      if (tokenPattern.test(text)) {
        await chmod(path, 0o600);
        return text;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const token = randomBytes(32).toString('base64url');
    // Only if absent at first: two servers starting at once never both write; the loser reads the
    // winner's token. A later attempt replaces an unusable file whole.
    if (await writeFileAtomic(path, `${token}\n`, { mode: 0o600, onlyIfAbsent: attempt === 0 })) return token;
  }
  throw new Error(`could not create ${path}`);
}

/** Constant-time comparison, so the token cannot be guessed byte by byte from response times. */
export function tokenMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
