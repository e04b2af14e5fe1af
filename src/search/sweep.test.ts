import { appendFile, cp, mkdir, readdir, readFile, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../../test/support/temp.js';
import type { AgentReader } from '../agents/types.js';
import { claudeCodeReader } from '../agents/claude-code/reader.js';
import { entryKey } from './manifest.js';
import { search } from './query.js';
import { ShardCache } from './shard-cache.js';
import { appendTombstone, readManifest, storePaths, storeRoot, writeManifest } from './store.js';
import { sweep } from './sweep.js';
import {
  appendSaid,
  claudeAgents,
  claudeHome,
  clock,
  days,
  jsonl,
  line,
  minutes,
  sessionPath,
  testNow,
  testStore,
  writeSession,
} from './test-support/claude-home.js';

const sid = (n: number): string => `${String(n).padStart(8, '0')}-2222-4333-8444-555555555555`;

async function manifestOf(root: string) {
  const r = await readManifest(root);
  if (r.state !== 'ok') throw new Error(`manifest ${r.state}`);
  return r.manifest;
}

async function find(root: string, q: string, extra: Parameters<typeof search>[0] extends infer T ? Partial<T> : never = {}) {
  return search({ q, ...extra }, { root, cache: new ShardCache(root), now: clock });
}

/** The compiled pool worker (the global setup keeps dist current); the sources cannot run in a worker. */
const pool = { workerFile: join(repoRoot, 'dist', 'scan', 'parse-worker.js'), minBytes: 0, workers: 1 };

/** What a store holds per session: its records and the texts a search finds. */
async function holdings(root: string) {
  const m = await manifestOf(root);
  return Object.fromEntries(
    Object.entries(m.sessions)
      .map(([k, e]) => [k, { records: e.records, cursors: e.cursors.map((c) => [c.path, c.offset]), carry: e.carry }] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

describe('sweep', () => {
  it('reads on the worker pool what it reads alone: the same entries, hits and resumes', async () => {
    const home = await tempDir();
    const paths: string[] = [];
    for (let i = 1; i <= 12; i++)
      paths.push(
        await writeSession(
          home,
          sid(i),
          Array.from({ length: i * 4 }, (_, k) => ({
            role: k % 2 === 0 ? ('user' as const) : ('assistant' as const),
            text: `session ${i} line ${k} ${k === 1 ? 'pelican' : 'filler'}`,
            ago: minutes(100 - k),
          })),
          `-p${i % 3}`,
        ),
      );
    // A reader the pool's workers do not have: its sessions are read on this thread, after the pool's.
    const slowHome = await tempDir();
    await writeSession(slowHome, sid(99), [{ role: 'user', text: 'slow pelican', ago: minutes(9) }]);
    const slow: AgentReader = { ...claudeCodeReader, messages: { ...claudeCodeReader.messages } };
    const agents = [...claudeAgents(home), { reader: slow, homes: [claudeHome(slowHome)] }];
    const alone = testStore(home);
    const pooled = storeRoot(join(home, '.pooled'));
    expect(await sweep({ root: alone, agents, now: clock })).toMatchObject({ extracted: 13, failed: [] });
    expect(await sweep({ root: pooled, agents, now: clock, pool })).toMatchObject({ extracted: 13, failed: [] });
    expect(await holdings(pooled)).toEqual(await holdings(alone));
    const hits = async (root: string) => (await find(root, 'pelican')).sessions.map((x) => x.session_id).sort();
    expect(await hits(pooled)).toEqual(await hits(alone));
    expect(await hits(pooled)).toHaveLength(13);
    for (const [i, path] of paths.slice(-4).entries())
      await appendSaid(path, sid(i + 9), [{ role: 'user', text: 'and a cormorant', ago: minutes(1) }]);
    await appendSaid(sessionPath(slowHome, sid(99)), sid(99), [{ role: 'user', text: 'and a cormorant', ago: minutes(1) }]);
    expect(await sweep({ root: alone, agents, now: clock })).toMatchObject({ resumed: 5, unchanged: 8 });
    expect(await sweep({ root: pooled, agents, now: clock, pool })).toMatchObject({ resumed: 5, unchanged: 8, failed: [] });
    expect(await holdings(pooled)).toEqual(await holdings(alone));
    expect((await find(pooled, 'cormorant')).sessions).toHaveLength(5);
  });

  it('indexes every session once, then skips unchanged ones without reading', async () => {
    const home = await tempDir();
    await writeSession(home, sid(1), [{ role: 'user', text: 'alpha question', ago: minutes(5) }]);
    await writeSession(home, sid(2), [{ role: 'assistant', text: 'beta answer', ago: minutes(4) }], '-other');
    const root = testStore(home);
    const first = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(first).toMatchObject({ sessions: 2, extracted: 2, unchanged: 0, failed: [] });
    const second = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(second).toMatchObject({ sessions: 2, extracted: 0, resumed: 0, unchanged: 2, bytes_read: 0, manifest_writes: 0 });
    expect((await find(root, 'beta')).sessions.map((s) => s.session_id)).toEqual([sid(2)]);
  });

  it('reads only the appended bytes, and the new message is found after one sweep', async () => {
    const home = await tempDir();
    const path = await writeSession(
      home,
      sid(1),
      Array.from({ length: 200 }, (_, i) => ({
        role: 'assistant' as const,
        text: `filler line ${i} ${'x'.repeat(200)}`,
        ago: minutes(300 - i),
      })),
    );
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    expect((await find(root, 'zanzibar')).sessions).toEqual([]);
    const added = await appendSaid(path, sid(1), [{ role: 'user', text: 'now about Zanzibar', ago: minutes(1) }]);
    const r = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(r).toMatchObject({ resumed: 1, extracted: 0 });
    expect(r.bytes_read).toBe(added);
    const body = await find(root, 'zanzibar');
    expect(body.sessions[0]?.hits[0]?.snippet).toBe('now about Zanzibar');
    const entry = (await manifestOf(root)).sessions[entryKey('claude_code', sid(1))];
    expect(entry?.segments.length).toBe(2);
    expect(entry?.records).toBe(201);
  });

  it('leaves a torn last line for the next sweep', async () => {
    const home = await tempDir();
    const path = await writeSession(home, sid(1), [{ role: 'user', text: 'complete line', ago: minutes(3) }]);
    const torn = JSON.stringify(line(sid(1), { role: 'assistant', text: 'half written answer', ago: minutes(2) }));
    await appendFile(path, torn.slice(0, 40));
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    expect((await find(root, 'half written')).sessions).toEqual([]);
    await appendFile(path, `${torn.slice(40)}\n`);
    const r = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(r.resumed).toBe(1);
    expect((await find(root, 'half written')).sessions).toHaveLength(1);
  });

  it('keeps what a rewrite dropped as superseded, and what it kept once', async () => {
    const home = await tempDir();
    const said = [
      { role: 'user' as const, text: 'keep this question', ago: minutes(9) },
      { role: 'assistant' as const, text: 'doomed answer about kiwis', ago: minutes(8) },
    ];
    const lines = said.map((m) => line(sid(1), m));
    const path = sessionPath(home, sid(1));
    await mkdir(join(claudeHome(home), 'projects', '-work-demo'), { recursive: true });
    await writeFile(path, jsonl(lines));
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    // Rewritten in place: the first line kept, the second replaced.
    await writeFile(path, jsonl([lines[0], line(sid(1), { role: 'assistant', text: 'better answer about apples', ago: minutes(7) })]));
    const r = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(r.extracted).toBe(1);
    const kiwis = await find(root, 'kiwis');
    expect(kiwis.sessions[0]?.hits[0]?.superseded).toBe(true);
    expect((await find(root, 'kiwis', { includeSuperseded: false })).sessions).toEqual([]);
    const keep = await find(root, 'keep this');
    expect(keep.sessions[0]?.total_hits).toBe(1);
    expect(keep.sessions[0]?.hits[0]?.superseded).toBe(false);
    expect((await find(root, 'apples')).sessions[0]?.hits[0]?.superseded).toBe(false);
  });

  it('flags a session whose files are gone and keeps serving it until the window expires it', async () => {
    const home = await tempDir();
    const path = await writeSession(home, sid(1), [{ role: 'user', text: 'ephemeral words', ago: days(1) }]);
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    await rm(path);
    const r = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(r.gone).toBe(1);
    const body = await find(root, 'ephemeral');
    expect(body.sessions[0]?.source_gone).toBe(true);
    // 20 days later both the message and the file's last write are out of the window.
    const later = await sweep({ root, agents: claudeAgents(home), now: () => testNow + days(20) });
    expect(later.expired).toBe(1);
    expect(Object.keys((await manifestOf(root)).sessions)).toEqual([]);
  });

  it('prefers the vendor copy, and reads the kept copy once the vendor pruned the session', async () => {
    const home = await tempDir();
    const path = await writeSession(home, sid(1), [{ role: 'user', text: 'custody matters', ago: minutes(5) }]);
    const kept = join(home, '.agentlog', 'kept', 'inst1');
    await cp(claudeHome(home), kept, { recursive: true });
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home, [kept]), now: clock });
    const key = entryKey('claude_code', sid(1));
    expect((await manifestOf(root)).sessions[key]?.home).toBe(claudeHome(home));
    await rm(path);
    const r = await sweep({ root, agents: claudeAgents(home, [kept]), now: clock });
    expect(r).toMatchObject({ extracted: 1, gone: 0 });
    const entry = (await manifestOf(root)).sessions[key];
    expect(entry?.home).toBe(kept);
    expect(entry?.generation).toBe(0);
    const body = await find(root, 'custody');
    expect(body.sessions[0]?.hits).toHaveLength(1);
    expect(body.sessions[0]?.hits[0]?.superseded).toBe(false);
  });

  it('never re-indexes a tombstoned session', async () => {
    const home = await tempDir();
    await writeSession(home, sid(1), [{ role: 'user', text: 'deleted on purpose', ago: minutes(5) }]);
    const root = testStore(home);
    await mkdir(root, { recursive: true });
    await appendTombstone(root, entryKey('claude_code', sid(1)), testNow);
    const r = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(r.tombstoned).toBe(1);
    expect((await find(root, 'deleted')).sessions).toEqual([]);
  });

  it('skips sessions whose files left the window, and keeps history with --window-days 0', async () => {
    const home = await tempDir();
    const path = await writeSession(home, sid(1), [{ role: 'user', text: 'ancient history', ago: days(40) }]);
    const old = new Date(testNow - days(40));
    await utimes(path, old, old);
    const root = testStore(home);
    const r = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(r.outside_window).toBe(1);
    const all = await sweep({ root, agents: claudeAgents(home), now: clock, windowDays: 0 });
    expect(all.extracted).toBe(1);
    expect((await find(root, 'ancient')).sessions).toHaveLength(1);
    // The window is the store's: a later sweep without one keeps all history.
    expect((await sweep({ root, agents: claudeAgents(home), now: clock })).expired).toBe(0);
  });

  it('remembers a session with nothing to index instead of re-reading it every sweep', async () => {
    const home = await tempDir();
    const path = sessionPath(home, sid(1));
    await mkdir(join(claudeHome(home), 'projects', '-work-demo'), { recursive: true });
    await writeFile(
      path,
      `${JSON.stringify({ type: 'system', subtype: 'init', uuid: 's1', timestamp: new Date(testNow).toISOString() })}\n`,
    );
    const root = testStore(home);
    expect(await sweep({ root, agents: claudeAgents(home), now: clock })).toMatchObject({ extracted: 1, empty: 1 });
    expect(await sweep({ root, agents: claudeAgents(home), now: clock })).toMatchObject({ extracted: 0, unchanged: 1, bytes_read: 0 });
  });

  it('survives bytes that are not UTF-8', async () => {
    const home = await tempDir();
    const path = await writeSession(home, sid(1), [{ role: 'user', text: 'before the garbage', ago: minutes(5) }]);
    await appendFile(path, Buffer.from([0xff, 0xfe, 0x7b, 0x22, 0xc3, 0x28, 0x0a]));
    await appendSaid(path, sid(1), [{ role: 'assistant', text: 'after the garbage', ago: minutes(4) }]);
    const root = testStore(home);
    const r = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(r.failed).toEqual([]);
    expect((await find(root, 'garbage')).sessions[0]?.total_hits).toBe(2);
    // A message line with a stray byte inside its text is still read (the byte becomes U+FFFD).
    const good = JSON.stringify(line(sid(1), { role: 'user', text: 'mojibake XX here', ago: minutes(3) }));
    const [head, tail] = good.split('XX') as [string, string];
    await appendFile(path, Buffer.concat([Buffer.from(head), Buffer.from([0xff, 0xc3]), Buffer.from(`${tail}\n`)]));
    expect((await sweep({ root, agents: claudeAgents(home), now: clock })).failed).toEqual([]);
    expect((await find(root, 'mojibake')).sessions[0]?.hits[0]?.snippet).toBe('mojibake \ufffd\ufffd here');
  });

  it('sees a manifest another writer replaced between two sweeps of one process', async () => {
    const home = await tempDir();
    await writeSession(home, sid(1), [{ role: 'user', text: 'first words', ago: minutes(5) }]);
    await writeSession(home, sid(2), [{ role: 'user', text: 'second words', ago: minutes(5) }], '-x');
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(await sweep({ root, agents: claudeAgents(home), now: clock })).toMatchObject({ unchanged: 2, extracted: 0 });
    // Another process drops an entry: this process must not go on from the manifest it remembers.
    const m = await manifestOf(root);
    delete m.sessions[entryKey('claude_code', sid(2))];
    await writeManifest(root, m, testNow);
    const r = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(r).toMatchObject({ unchanged: 1, extracted: 1 });
    expect((await manifestOf(root)).revision).toBe(m.revision + 2);
  });

  it('quarantines a corrupt manifest and rebuilds, keeping tombstones and counting revisions on', async () => {
    const home = await tempDir();
    await writeSession(home, sid(1), [{ role: 'user', text: 'still findable', ago: minutes(5) }]);
    await writeSession(home, sid(2), [{ role: 'user', text: 'deleted for good', ago: minutes(5) }], '-x');
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    const before = await manifestOf(root);
    await appendTombstone(root, entryKey('claude_code', sid(2)), testNow);
    const body = await readFile(storePaths(root).manifest, 'utf8');
    await writeFile(storePaths(root).manifest, body.slice(0, body.length - 20));
    // A query does not touch a corrupt manifest; it answers "building".
    expect((await find(root, 'findable')).state).toBe('building');
    const r = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(r.quarantined_manifest).not.toBeNull();
    expect(await readdir(storePaths(root).quarantine)).toHaveLength(1);
    const after = await manifestOf(root);
    expect(after.epoch).not.toBe(before.epoch);
    expect(after.revision).toBeGreaterThan(before.revision);
    expect((await find(root, 'findable')).sessions).toHaveLength(1);
    expect((await find(root, 'deleted')).sessions).toEqual([]);
  });

  it('quarantines a corrupt generation file and re-extracts its session on the next sweep', async () => {
    const home = await tempDir();
    await writeSession(home, sid(1), [{ role: 'user', text: 'bit rot survivor', ago: minutes(5) }]);
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    const file = (await manifestOf(root)).sessions[entryKey('claude_code', sid(1))]?.segments[0]?.file as string;
    const gpath = join(storePaths(root).generations, file);
    const body = await readFile(gpath);
    const at = body.lastIndexOf('survivor');
    body[at + 6] = 0x30;
    await writeFile(gpath, body);
    expect((await find(root, 'survivor')).sessions).toEqual([]);
    expect((await readdir(storePaths(root).quarantine)).some((n) => n.startsWith(file))).toBe(true);
    const r = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(r.extracted).toBe(1);
    expect((await find(root, 'survivor')).sessions).toHaveLength(1);
  });

  it('rebuilds a session whose extractor version changed', async () => {
    const home = await tempDir();
    await writeSession(home, sid(1), [{ role: 'user', text: 'versioned', ago: minutes(5) }]);
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    const agents = claudeAgents(home);
    const reader = agents[0]?.reader;
    if (reader?.messages === undefined) throw new Error('no extractor');
    const bumped = { ...reader, messages: { version: reader.messages.version + 1, extract: reader.messages.extract } };
    const r = await sweep({ root, agents: [{ reader: bumped, homes: agents[0]?.homes ?? [] }], now: clock });
    expect(r.extracted).toBe(1);
  });

  it('garbage-collects unreferenced generation files only past the grace period', async () => {
    const home = await tempDir();
    const path = await writeSession(home, sid(1), [{ role: 'user', text: 'one', ago: minutes(5) }]);
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    await truncate(path, 0);
    await appendSaid(path, sid(1), [{ role: 'user', text: 'two', ago: minutes(4) }]);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    const files = await readdir(storePaths(root).generations);
    expect(files.filter((f) => f.endsWith('.seg')).length).toBe(2);
    expect((await sweep({ root, agents: claudeAgents(home), now: clock, collectGarbage: true })).garbage_removed).toBe(0);
    const r = await sweep({ root, agents: claudeAgents(home), now: () => Date.now() + 11 * 60_000, collectGarbage: true, windowDays: 0 });
    // The replaced segment.
    expect(r.garbage_removed).toBe(1);
    expect((await find(root, 'two')).sessions).toHaveLength(1);
  });
});
