import { appendFile, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { codexReader } from '../agents/codex/reader.js';
import { codexOldFolder, oldFolderId } from '../agents/codex/test-support/old-folder.js';
import { dayMs } from '../fs/clock.js';
import type { AgentHomes } from '../scan/scan.js';
import { entryKey } from './manifest.js';
import { appendTombstone, readManifest, storePaths, storeRoot, writeManifest } from './store.js';
import { sweep, type SweepReport } from './sweep.js';
import { SweepCaches } from './sweep-caches.js';
import { memoPath } from './sweep-memo.js';

/** A Codex home of two sessions whose files are an hour old, and a sweep over it on a clock a minute ahead. */
async function setup(windowDays?: number) {
  const root = await tempDir();
  const state = join(root, 'state');
  const store = storeRoot(state);
  const old = await codexOldFolder(root);
  const agents: AgentHomes[] = [{ reader: codexReader, homes: [old.codex] }];
  let offset = 60_000;
  const now = () => Date.now() + offset;
  const caches = new SweepCaches(state, 't', now);
  const run = (collectGarbage = false) =>
    sweep({ root: store, agents, now, discovery: caches, collectGarbage, ...(windowDays === undefined ? {} : { windowDays }) });
  const rollout = async (n: number) => {
    const name = (await readdir(old.day)).find((f) => f.includes(oldFolderId(n)));
    if (name === undefined) throw new Error(`no rollout ${n}`);
    return join(old.day, name);
  };
  return { ...old, store, run, rollout, advance: (ms: number) => (offset += ms) };
}

/** Runs until a sweep is answered from the memo (the second unchanged sweep), and returns it. */
async function settled(run: () => Promise<SweepReport>): Promise<SweepReport> {
  const first = await run();
  expect(first).toMatchObject({ extracted: 0, resumed: 0, failed: [] });
  const second = await run();
  expect(second.memo).toBe(true);
  return second;
}

const userLine = (text: string) =>
  `${JSON.stringify({ timestamp: new Date().toISOString(), type: 'event_msg', payload: { type: 'user_message', message: text } })}\n`;

describe('the unchanged-sweep memo', () => {
  it('answers a sweep after an unchanged sweep with the same report, without the manifest', async () => {
    const { run } = await setup(0);
    expect(await run()).toMatchObject({ sessions: 2, extracted: 2, memo: false });
    const full = await run();
    expect(full).toMatchObject({ sessions: 2, unchanged: 2, memo: false, manifest_writes: 0 });
    const memo = await run();
    const { duration_ms: _a, memo: _m, ...a } = full;
    const { duration_ms: _b, memo: memoUsed, ...b } = memo;
    expect(memoUsed).toBe(true);
    expect(b).toEqual(a);
  });

  it('is never trusted past a change to a file, a folder, the tombstones, the generations or the manifest', async () => {
    const { run, rollout, add, store } = await setup(0);
    await run();

    await settled(run);
    await appendFile(await rollout(1), userLine('grown with flamingos'));
    expect(await run()).toMatchObject({ memo: false, resumed: 1, unchanged: 1 });

    await settled(run);
    const two = await rollout(2);
    const text = await readFile(two, 'utf8');
    await writeFile(`${two}.new`, text.replace('question 2', 'question Z'));
    await rename(`${two}.new`, two);
    expect(await run()).toMatchObject({ memo: false, extracted: 1, unchanged: 1 });

    await settled(run);
    await add(3);
    expect(await run()).toMatchObject({ memo: false, sessions: 3, extracted: 1, unchanged: 2 });

    await settled(run);
    await rm(await rollout(3));
    expect(await run()).toMatchObject({ memo: false, sessions: 2, gone: 1 });

    await settled(run);
    const read = await readManifest(store);
    if (read.state !== 'ok') throw new Error('no manifest');
    const seg = read.manifest.sessions[entryKey('codex', oldFolderId(1))]?.segments[0]?.file ?? '';
    await rm(join(storePaths(store).generations, seg));
    expect(await run()).toMatchObject({ memo: false, extracted: 1, unchanged: 1 });

    await settled(run);
    const again = await readManifest(store);
    if (again.state !== 'ok') throw new Error('no manifest');
    await writeManifest(store, again.manifest, Date.now());
    expect(await run()).toMatchObject({ memo: false, unchanged: 2, extracted: 0 });

    await settled(run);
    await appendTombstone(store, entryKey('codex', oldFolderId(2)), Date.now());
    expect(await run()).toMatchObject({ memo: false, tombstoned: 1 });
  });

  it('is not trusted once the window reaches a session', async () => {
    const { run, advance } = await setup(14);
    await run();
    expect((await settled(run)).outside_window).toBe(0);
    advance(15 * dayMs);
    expect(await run()).toMatchObject({ memo: false, outside_window: 2, expired: 2 });
  });

  it('is not written while a file is within the racy window of the sweep', async () => {
    const { run, rollout, advance } = await setup(0);
    await run();
    await settled(run);
    advance(-60_000);
    await appendFile(await rollout(1), userLine('just now'));
    expect(await run()).toMatchObject({ memo: false, resumed: 1 });
    expect(await run()).toMatchObject({ memo: false, unchanged: 2 });
    expect(await run()).toMatchObject({ memo: false, unchanged: 2 });
  });

  it('lets a garbage-collecting sweep run in full once an orphan is due or a temp file waits', async () => {
    const { run, store, advance } = await setup(0);
    await run();
    await writeFile(join(storePaths(store).generations, `${'0'.repeat(64)}.seg`), 'orphan');
    await settled(() => run(true));
    advance(11 * 60_000);
    expect(await run(false)).toMatchObject({ memo: true, garbage_removed: 0 });
    expect(await run(true)).toMatchObject({ memo: false, garbage_removed: 1 });
    expect((await settled(() => run(true))).garbage_removed).toBe(0);
    await writeFile(join(store, 'manifest.json.x.tmp'), '');
    expect(await run(false)).toMatchObject({ memo: true });
    expect(await run(true)).toMatchObject({ memo: false });
  });

  it('reports a corrupt memo, sweeps in full and writes a good one', async () => {
    const { run, store } = await setup(0);
    await run();
    await settled(run);
    await writeFile(memoPath(store), '{"version":1,"inputs":');
    const r = await run();
    expect(r).toMatchObject({ memo: false, unchanged: 2 });
    expect(r.problems).toEqual([expect.objectContaining({ path: memoPath(store), reason: expect.stringContaining('not one') })]);
    expect(await run()).toMatchObject({ memo: true, problems: [] });
  });
});
