// A Codex home whose day folder and rollouts all look an hour old (times pinned to a whole second,
// as a coarse clock leaves them), for tests that a cache still sees a session added to an old folder.
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { Rollout, writeRollout } from './rollout-fixture.js';

export const oldFolderId = (n: number) => `019a0000-0000-7000-8000-00000000000${n}`;
const pinnedAt = Math.floor(Date.now() / 1000) - 3600;
const pin = (path: string) => utimes(path, pinnedAt, pinnedAt);

/** `<root>/.codex` with sessions 1 and 2 in one day folder; `add(n)` writes session n there and puts the folder's mtime back (only its ctime moves). */
export async function codexOldFolder(root: string): Promise<{ codex: string; day: string; add: (n: number) => Promise<void> }> {
  const codex = join(root, '.codex');
  const day = join(codex, 'sessions', '2026', '10', '01');
  const add = async (n: number): Promise<void> => {
    const id = oldFolderId(n);
    await pin(
      await writeRollout(
        codex,
        id,
        new Rollout(id)
          .meta()
          .line('event_msg', { type: 'user_message', message: `question ${n}` })
          .text(),
      ),
    );
    await pin(day);
  };
  await add(1);
  await add(2);
  return { codex, day, add };
}
