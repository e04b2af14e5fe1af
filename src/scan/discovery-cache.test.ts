import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { codexReader } from '../agents/codex/reader.js';
import { Rollout, writeRollout } from '../agents/codex/test-support/rollout-fixture.js';
import { statFileSync } from '../fs/stat.js';
import { DiscoveryCache, discoveryCachePath, racyMs } from './discovery-cache.js';
import { scan } from './scan.js';

/** A clock a minute ahead: every file written by the test is already past the racy window. */
const later = { now: () => Date.now() + 60_000 };
const names = (cache: DiscoveryCache, dir: string) =>
  cache
    .list(dir)
    .map((e) => `${e.kind}:${e.name}`)
    .sort();

/** Sets a path's times to a whole second long past, as a coarse-grained filesystem would leave them after a change. */
const pinnedAt = Math.floor(Date.now() / 1000) - 3600;
async function pin(path: string): Promise<void> {
  await utimes(path, pinnedAt, pinnedAt);
}

describe('the discovery cache', () => {
  it('lists an unchanged folder from memory and re-lists one that gained or lost an entry', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.jsonl'), 'a\n');
    await mkdir(join(dir, 'sub'));
    await pin(dir);
    const path = join(await tempDir(), 'cache.json');
    const first = await DiscoveryCache.open(path, 't', later.now);
    expect(names(first, dir)).toEqual(['dir:sub', 'file:a.jsonl']);
    await first.save();

    const warm = await DiscoveryCache.open(path, 't', later.now);
    expect(names(warm, dir)).toEqual(['dir:sub', 'file:a.jsonl']);
    expect(warm.stats).toMatchObject({ dirHits: 1, dirMisses: 0 });
    await warm.save();

    // A new session in an old folder, the folder's mtime put back (a coarse clock): its ctime moved.
    await writeFile(join(dir, 'b.jsonl'), 'b\n');
    await pin(dir);
    const added = await DiscoveryCache.open(path, 't', later.now);
    expect(names(added, dir)).toEqual(['dir:sub', 'file:a.jsonl', 'file:b.jsonl']);
    await added.save();

    await rm(join(dir, 'a.jsonl'));
    const removed = await DiscoveryCache.open(path, 't', later.now);
    expect(names(removed, dir)).toEqual(['dir:sub', 'file:b.jsonl']);
  });

  it('never trusts a folder changed within the racy window of when it was listed', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.jsonl'), 'a\n');
    const path = join(await tempDir(), 'cache.json');
    const at = (await stat(dir)).mtimeMs;
    // Listed within the same tick as its last change: the next run must list it again.
    const first = await DiscoveryCache.open(path, 't', () => at + racyMs / 2);
    first.list(dir);
    await first.save();
    const again = await DiscoveryCache.open(path, 't', () => at + racyMs * 10);
    again.list(dir);
    expect(again.stats).toMatchObject({ dirHits: 0, dirMisses: 1 });
    await again.save();
    // Listed long after: now it is trusted.
    const third = await DiscoveryCache.open(path, 't', () => at + racyMs * 10);
    third.list(dir);
    expect(third.stats).toMatchObject({ dirHits: 1, dirMisses: 0 });
  });

  it('derives a fact again for a grown file and for a replaced one of the same size and time', async () => {
    const dir = await tempDir();
    const file = join(dir, 'a.jsonl');
    await writeFile(file, 'one\n');
    const path = join(await tempDir(), 'cache.json');
    const firstLine = async () => (await readFile(file, 'utf8')).split('\n')[0] ?? '';
    const asString = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const derive = async () => {
      const cache = await DiscoveryCache.open(path, 't', later.now);
      const value = await cache.derive(file, 'first', asString, firstLine);
      await cache.save();
      return { value, stats: cache.stats };
    };
    expect(await derive()).toMatchObject({ value: 'one', stats: { factMisses: 1 } });
    expect(await derive()).toMatchObject({ value: 'one', stats: { factHits: 1, factMisses: 0 } });

    await writeFile(file, 'one\ntwo\n', { flag: 'w' });
    await writeFile(file, 'ONE\ntwo\n');
    expect(await derive()).toMatchObject({ value: 'ONE', stats: { factMisses: 1 } });

    // Same size, same mtime, a new inode (written aside and renamed over).
    await pin(file);
    const before = await stat(file);
    expect(await derive()).toMatchObject({ value: 'ONE' });
    const aside = join(dir, 'a.tmp');
    await writeFile(aside, 'uno\ntwo\n');
    await pin(aside);
    await rename(aside, file);
    expect((await stat(file)).size).toBe(before.size);
    expect(await derive()).toMatchObject({ value: 'uno', stats: { factMisses: 1 } });

    // A remembered value the reader no longer recognises is derived again.
    const cache = await DiscoveryCache.open(path, 't', later.now);
    expect(await cache.derive(file, 'first', () => undefined, firstLine)).toBe('uno');
    expect(cache.stats.factMisses).toBe(1);
  });

  it("derives from a file discovery stat'ed with the stat it was made from, and again once it changed", async () => {
    const dir = await tempDir();
    const file = join(dir, 'a.jsonl');
    await writeFile(file, 'one\n');
    await pin(file);
    const path = join(await tempDir(), 'cache.json');
    const firstLine = async () => (await readFile(file, 'utf8').catch(() => 'gone')).split('\n')[0] ?? '';
    const asString = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const run = async (between: () => Promise<void> = async () => {}) => {
      const seen = statFileSync(file);
      if (seen === null) throw new Error('no file');
      await between();
      const cache = await DiscoveryCache.open(path, 't', later.now);
      const value = await cache.derive(seen, 'first', asString, firstLine);
      await cache.save();
      return { value, stats: cache.stats };
    };
    expect(await run()).toMatchObject({ value: 'one', stats: { factMisses: 1 } });
    // Gone after discovery stat'ed it: the fact is checked against that stat, not a second one, so
    // the answer is the file discovery saw (a second stat would have found nothing).
    expect(await run(() => rm(file))).toMatchObject({ value: 'one', stats: { factHits: 1, factMisses: 0 } });
    // Back with the same size and time but a new inode: derived again.
    await writeFile(file, 'uno\n');
    await pin(file);
    expect(await run()).toMatchObject({ value: 'uno', stats: { factHits: 0, factMisses: 1 } });
  });

  it('derives a fact again when a file it also read changed, appeared or went, an empty one counting as absent', async () => {
    const dir = await tempDir();
    const file = join(dir, 'a.db');
    const wal = `${file}-wal`;
    const journal = `${file}-journal`;
    await writeFile(file, 'main');
    await pin(file);
    const path = join(await tempDir(), 'cache.json');
    const both = async () => `${await readFile(file, 'utf8')}+${await readFile(wal, 'utf8').catch(() => '')}`;
    const asString = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const derive = async (now = later.now) => {
      const cache = await DiscoveryCache.open(path, 't', now);
      const value = await cache.derive(file, 'both', asString, both, [wal, journal]);
      await cache.save();
      return { value, stats: cache.stats };
    };
    const hit = { factHits: 1, factMisses: 0 };
    const miss = { factHits: 0, factMisses: 1 };
    expect(await derive()).toMatchObject({ value: 'main+', stats: miss });
    expect(await derive()).toMatchObject({ value: 'main+', stats: hit });
    // An empty log (SQLite's read-only open leaves one) adds nothing.
    await writeFile(wal, '');
    expect(await derive()).toMatchObject({ value: 'main+', stats: hit });

    await writeFile(wal, 'one');
    await pin(wal);
    expect(await derive()).toMatchObject({ value: 'main+one', stats: miss });
    expect(await derive()).toMatchObject({ value: 'main+one', stats: hit });
    // The same size and mtime, the file itself untouched: the log's ctime moved.
    await writeFile(wal, 'two');
    await pin(wal);
    expect(await derive()).toMatchObject({ value: 'main+two', stats: miss });

    await writeFile(journal, 'hot');
    expect(await derive()).toMatchObject({ stats: miss });
    expect(await derive()).toMatchObject({ stats: hit });
    await rm(journal);
    expect(await derive()).toMatchObject({ stats: miss });
    await rm(wal);
    expect(await derive()).toMatchObject({ value: 'main+', stats: miss });

    // Changed within the racy window of when it was read: read again however unchanged it looks.
    await writeFile(wal, 'three');
    const at = (await stat(wal)).ctimeMs;
    expect(await derive(() => at + racyMs / 2)).toMatchObject({ value: 'main+three', stats: miss });
    expect(await derive()).toMatchObject({ value: 'main+three', stats: miss });
    expect(await derive()).toMatchObject({ value: 'main+three', stats: hit });

    // A folder where the log would be: derived every time, never remembered.
    await rm(wal);
    await mkdir(wal);
    expect(await derive()).toMatchObject({ value: 'main+', stats: { factHits: 0, factMisses: 0 } });
  });

  it('moves a corrupt cache file aside, says so and rebuilds it', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.jsonl'), 'a\n');
    const stateDir = await tempDir();
    const path = join(stateDir, 'cache.json');
    await writeFile(path, '{"version":1,"readerVersion":"t","dirs":{"/x":[1,2,"three"]},"facts":{}}');
    const cache = await DiscoveryCache.open(path, 't', later.now);
    expect(cache.problems).toEqual([{ path, kind: 'unparsed', reason: expect.stringContaining('moved aside') }]);
    expect(names(cache, dir)).toEqual(['file:a.jsonl']);
    await cache.save();
    expect((await readdir(stateDir)).some((f) => f.startsWith('cache.json.corrupt-'))).toBe(true);
    const again = await DiscoveryCache.open(path, 't', later.now);
    expect(again.problems).toEqual([]);
    expect(names(again, dir)).toEqual(['file:a.jsonl']);
    expect(again.stats.dirHits).toBe(1);
  });

  it('moves aside a cache with a row of the right length holding a non-number', async () => {
    for (const body of ['"dirs":{"/x":[1,2,"3",4,"fa"]},"facts":{}', '"dirs":{},"facts":{"k":[1,2,3,4,null,"v"]}']) {
      const path = join(await tempDir(), 'cache.json');
      await writeFile(path, `{"version":1,"readerVersion":"t",${body}}`);
      const cache = await DiscoveryCache.open(path, 't', later.now);
      expect(cache.problems).toEqual([{ path, kind: 'unparsed', reason: expect.stringContaining('not a row') }]);
    }
  });

  it('moves aside a cache whose tables are not tables', async () => {
    for (const body of ['"dirs":[],"facts":{}', '"dirs":{},"facts":"none"', '"dirs":{}']) {
      const path = join(await tempDir(), 'cache.json');
      await writeFile(path, `{"version":1,"readerVersion":"t",${body}}`);
      const cache = await DiscoveryCache.open(path, 't', later.now);
      expect(cache.problems).toEqual([{ path, kind: 'unparsed', reason: expect.stringMatching(/not a table; moved aside/) }]);
    }
  });

  it('rebuilds silently for another reader version', async () => {
    const dir = await tempDir();
    const path = join(await tempDir(), 'cache.json');
    const first = await DiscoveryCache.open(path, 'v1', later.now);
    first.list(dir);
    await first.save();
    const other = await DiscoveryCache.open(path, 'v2', later.now);
    other.list(dir);
    expect(other.problems).toEqual([]);
    expect(other.stats.dirHits).toBe(0);
  });
});

describe('scan with the discovery cache', () => {
  const id = (n: number) => `019a0000-0000-7000-8000-00000000000${n}`;
  const rollout = (sessionId: string, prompt: string) =>
    new Rollout(sessionId).meta().line('event_msg', { type: 'user_message', message: prompt }).text();

  async function setUp() {
    const root = await tempDir();
    const codex = join(root, '.codex');
    const state = join(root, 'state');
    const a = await writeRollout(codex, id(1), rollout(id(1), 'first question'));
    await writeRollout(codex, id(2), rollout(id(2), 'second question'));
    const run = async (stateRoot: string | null = state) => {
      const r = await scan({
        agents: [{ reader: codexReader, homes: [codex] }],
        stateRoot,
        userHome: null,
        readerVersion: 't',
        clock: later,
      });
      const { cwds: _c, usage: _u, ...rest } = r;
      return rest;
    };
    return { codex, state, a, run };
  }
  const ids = (r: { sessions: { session_id: string }[] }) => r.sessions.map((s) => s.session_id).sort();

  it('answers what a scan without any cache answers, cold and warm', async () => {
    const { state, run } = await setUp();
    const none = await run(null);
    expect(await run()).toEqual(none);
    expect(await run()).toEqual(none);
    expect((await readdir(join(state, 'cache', 'scan'))).sort()).toContain('discovery-scan.json');
  });

  it('sees a new session in an old folder, a deleted one, a grown one and a replaced one', async () => {
    const { codex, a, run } = await setUp();
    const day = join(codex, 'sessions', '2026', '10', '01');
    await pin(day);
    await pin(a);
    await run();

    await writeRollout(codex, id(3), rollout(id(3), 'third question'));
    await pin(day);
    expect(ids(await run())).toEqual([id(1), id(2), id(3)]);

    await rm(join(day, (await readdir(day)).find((n) => n.includes(id(2))) ?? ''));
    expect(ids(await run())).toEqual([id(1), id(3)]);

    await writeFile(
      a,
      `${await readFile(a, 'utf8')}\n${JSON.stringify({ timestamp: '2026-10-01T09:05:00.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'more' } })}\n`,
    );
    const grown = await run();
    expect(grown.sessions.find((s) => s.session_id === id(1))?.turns).toBeGreaterThan(1);
    expect(grown).toEqual(await run(null));

    // The same bytes but another thread id (same length), same mtime, a new inode.
    await pin(a);
    await run();
    const aside = `${a}.tmp`;
    await writeFile(aside, (await readFile(a, 'utf8')).replaceAll(id(1), id(9)));
    await pin(aside);
    await rename(aside, a);
    await pin(day);
    const replaced = await run();
    expect(ids(replaced)).toEqual([id(3), id(9)]);
    expect(replaced).toEqual(await run(null));
  });

  it('reports a corrupt discovery cache and answers as without it', async () => {
    const { state, run } = await setUp();
    const clean = await run();
    await writeFile(discoveryCachePath(state, 'scan'), '{"version":1,');
    const r = await run();
    expect(r.state_problems).toEqual([
      { path: discoveryCachePath(state, 'scan'), kind: 'unparsed', reason: expect.stringContaining('moved aside') },
    ]);
    expect({ ...r, state_problems: [] }).toEqual(clean);
  });
});
