// Homes of one keep run share a publisher: a home's copies wait in the shared batches while the next
// home is copied, and nothing is reported kept (nor the lock let go) before its batch is durable.
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { stageHome, type KeepHomeOptions } from './keep.js';
import { Publisher } from './publisher.js';
import { jsonlReader, line, writeSession } from './test-support/homes.js';

const reader = jsonlReader();

/** Two homes with `n` sessions each, and a state root. */
async function twoHomes(n: number): Promise<{ state: string; homes: string[] }> {
  const root = await tempDir();
  const state = join(root, 'state');
  await mkdir(state);
  const homes = [join(root, 'a'), join(root, 'b')];
  for (const home of homes) for (let i = 0; i < n; i++) await writeSession(home, `s${i}`, [line(i), line(i + 1)]);
  return { state, homes };
}

const options = (state: string, home: string): KeepHomeOptions => ({
  stateRoot: state,
  reader,
  home,
  version: 't',
  // Far after every file's mtime: the manifest vouches for what it kept (nothing is racy).
  now: () => Date.now() + 60_000,
});

describe('homes sharing one publisher', () => {
  it('publishes every home with one pair of barriers once drained, and reports nothing kept before', async () => {
    const { state, homes } = await twoHomes(3);
    const barriers: string[] = [];
    const lockedDuringBarrier: boolean[] = [];
    const publisher = new Publisher(state, { files: 1000, bytes: 1 << 30, barrierFrom: 2 }, async (root) => {
      barriers.push(root);
      // Each home's lock is still held while its copies are being made durable.
      for (const key of await readdir(join(state, 'kept'))) lockedDuringBarrier.push(existsSync(join(state, 'kept', key, '.lock')));
      return true;
    });
    const staged = [];
    for (const home of homes) staged.push(await stageHome(options(state, home), publisher));
    let reported = 0;
    for (const s of staged) void s.done.then(() => reported++);
    await new Promise((r) => setTimeout(r, 50));
    // Written and staged, not yet durable: nothing in place, nothing reported.
    expect(barriers).toEqual([]);
    expect(reported).toBe(0);
    publisher.drain();
    const reports = await Promise.all(staged.map((s) => s.done));
    // The six copies of both homes: one batch, a barrier for the bytes and one for the names; then
    // their custody facts (written once their transcripts are kept): one more batch.
    expect(barriers).toEqual([state, state, state, state]);
    expect(lockedDuringBarrier).toEqual(Array(8).fill(true));
    for (const r of reports) {
      expect(r.sessions.flatMap((s) => s.copied).sort()).toEqual(['sessions/s0.jsonl', 'sessions/s1.jsonl', 'sessions/s2.jsonl']);
      expect(r.sessions.flatMap((s) => s.failed)).toEqual([]);
      expect(existsSync(join(r.installation.root, 'sessions', 's2.jsonl'))).toBe(true);
      // The lock is let go once the home is done.
      expect(existsSync(join(r.installation.root, '.lock'))).toBe(false);
    }
  });

  it('falls back to an fsync per file when the barrier fails, and reports a file it could not make durable as failed', async () => {
    const { state, homes } = await twoHomes(2);
    let lost = '';
    const publisher = new Publisher(state, { files: 1000, bytes: 1 << 30, barrierFrom: 2 }, async () => {
      // The barrier fails, and one staged temp is gone before its own fsync.
      const kept = join(state, 'kept');
      for (const key of (await readdir(kept)).sort()) {
        const dir = join(kept, key, 'sessions');
        const temp = (await readdir(dir)).find((n) => n.startsWith('.s1.jsonl'));
        if (lost === '' && temp !== undefined) {
          lost = key;
          await rm(join(dir, temp));
        }
      }
      return false;
    });
    const staged = [];
    for (const home of homes) staged.push(await stageHome(options(state, home), publisher));
    publisher.drain();
    const reports = await Promise.all(staged.map((s) => s.done));
    expect(lost).not.toBe('');
    for (const r of reports) {
      const failed = r.sessions.flatMap((s) => s.failed.map((f) => f.path));
      const copied = r.sessions.flatMap((s) => s.copied).sort();
      if (r.installation.key === lost) {
        expect(failed).toEqual(['sessions/s1.jsonl']);
        expect(copied).toEqual(['sessions/s0.jsonl']);
        expect(existsSync(join(r.installation.root, 'sessions', 's1.jsonl'))).toBe(false);
      } else {
        expect(failed).toEqual([]);
        expect(copied).toEqual(['sessions/s0.jsonl', 'sessions/s1.jsonl']);
      }
    }
  });
});
