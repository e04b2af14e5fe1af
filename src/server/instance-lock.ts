// One `serve` per AGENTLOG_HOME: the process holds the codebase's cross-process lock for its whole
// life (a dead holder's lock is broken by the next start) and says where it serves in serve.json,
// so a second start can name the process that already serves.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AgentlogError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { withLock } from '../fs/lock.js';

const infoSchema = z.object({ pid: z.number(), url: z.string(), started_at: z.string() });
export type ServeInfo = z.infer<typeof infoSchema>;

export const serveLockName = 'serve.lock';
const infoName = 'serve.json';

async function readInfo(stateRoot: string): Promise<ServeInfo | null> {
  try {
    return infoSchema.parse(JSON.parse(await readFile(join(stateRoot, infoName), 'utf8')));
  } catch {
    return null;
  }
}

/** Records where this process serves (read by a second start's message). */
export async function announce(stateRoot: string, info: ServeInfo): Promise<void> {
  await writeFileAtomic(join(stateRoot, infoName), `${JSON.stringify(info)}\n`, { mode: 0o600 });
}

/**
 * Runs `fn` as the one server of `stateRoot`, or throws `AlreadyServing` naming the process that is.
 * The lock goes when `fn` settles (and with the process if it dies: the next start breaks it).
 */
export async function asOnlyServer<T>(stateRoot: string, fn: () => Promise<T>): Promise<T> {
  let entered = false;
  try {
    return await withLock(
      join(stateRoot, serveLockName),
      async () => {
        entered = true;
        try {
          return await fn();
        } finally {
          await rm(join(stateRoot, infoName), { force: true });
        }
      },
      { waitMs: 300 },
    );
  } catch (error) {
    if (entered) throw error;
    const info = await readInfo(stateRoot);
    const who =
      info !== null ? `process ${info.pid} already serves ${info.url.replace(/\?token=.*$/, '')}` : 'another agentlog serve holds it';
    throw new AgentlogError(
      'AlreadyServing',
      'conflict',
      `${stateRoot} is already served: ${who}; stop it first (or use another AGENTLOG_HOME)`,
      {
        cause: error,
      },
    );
  }
}
