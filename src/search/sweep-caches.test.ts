import { appendFile, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { claudeCodeReader } from '../agents/claude-code/reader.js';
import { codexReader } from '../agents/codex/reader.js';
import { codexOldFolder, oldFolderId } from '../agents/codex/test-support/old-folder.js';
import type { AgentHomes } from '../scan/scan.js';
import { search } from './query.js';
import { ShardCache } from './shard-cache.js';
import { storeRoot } from './store.js';
import { sweep } from './sweep.js';
import { SweepCaches } from './sweep-caches.js';

const hourAgo = Math.floor(Date.now() / 1000) - 3600;
/** The caches' clock a minute ahead: what the test just wrote (ctime now) is past the racy window. */
const later = () => Date.now() + 60_000;

/** A Claude Code home with one session, every folder and the file pinned an hour back (so its cache rows are trusted). */
async function oldClaudeHome(root: string): Promise<string> {
  const claude = join(root, '.claude');
  const project = join(claude, 'projects', '-work-demo');
  await mkdir(project, { recursive: true });
  const sid = '11111111-2222-4333-8444-555555555555';
  const line = {
    type: 'user',
    sessionId: sid,
    cwd: '/work/demo',
    uuid: 'u1',
    timestamp: new Date((hourAgo - 60) * 1000).toISOString(),
    message: { role: 'user', content: 'a question about pelicans' },
  };
  await writeFile(join(project, `${sid}.jsonl`), `${JSON.stringify(line)}\n`);
  for (const p of [join(project, `${sid}.jsonl`), project, join(claude, 'projects'), claude]) await utimes(p, hourAgo, hourAgo);
  return claude;
}

async function rolloutOf(day: string, n: number): Promise<string> {
  const name = (await readdir(day)).find((f) => f.includes(oldFolderId(n)));
  if (name === undefined) throw new Error(`no rollout ${n}`);
  return join(day, name);
}

/** What a search finds, without what names the snapshot (the epoch differs between two stores). */
async function hits(root: string, q: string): Promise<unknown> {
  const body = await search({ q, windowDays: 0 }, { root, cache: new ShardCache(root) });
  return JSON.parse(JSON.stringify(body.sessions));
}

describe('the sweep discovery caches', () => {
  it('keep the folders of agents a sweep did not read (a sweep after file events reads only some)', async () => {
    const root = await tempDir();
    const state = join(root, 'state');
    const { codex } = await codexOldFolder(root);
    const claude = await oldClaudeHome(root);
    const both: AgentHomes[] = [
      { reader: codexReader, homes: [codex] },
      { reader: claudeCodeReader, homes: [claude] },
    ];
    const run = (agents: AgentHomes[], discovery: SweepCaches) => sweep({ root: storeRoot(state), agents, windowDays: 0, discovery });
    expect(await run(both, new SweepCaches(state, 't', later))).toMatchObject({ sessions: 3, extracted: 3, failed: [], problems: [] });
    expect(await run([both[0] as AgentHomes], new SweepCaches(state, 't', later))).toMatchObject({ sessions: 2, unchanged: 2 });

    const caches = new SweepCaches(state, 't', later);
    expect(await run(both, caches)).toMatchObject({ sessions: 3, unchanged: 3, gone: 0 });
    const claudeStats = (await caches.for('claude_code')).stats;
    expect(claudeStats.dirMisses).toBe(0);
    expect(claudeStats.dirHits).toBeGreaterThan(0);
  });

  it('held across sweeps, are never trusted past a change, and index what a cold build indexes', async () => {
    const root = await tempDir();
    const state = join(root, 'state');
    const { codex, day, add } = await codexOldFolder(root);
    const agents: AgentHomes[] = [{ reader: codexReader, homes: [codex] }];
    const caches = new SweepCaches(state, 't', later);
    const run = () => sweep({ root: storeRoot(state), agents, windowDays: 0, discovery: caches });
    expect(await run()).toMatchObject({ sessions: 2, extracted: 2 });
    expect(await run()).toMatchObject({ sessions: 2, unchanged: 2, extracted: 0, resumed: 0 });

    // A new session in the old folder (its mtime put back: only its ctime moved).
    await add(3);
    expect(await run()).toMatchObject({ sessions: 3, extracted: 1, unchanged: 2 });

    // A grown file.
    const one = await rolloutOf(day, 1);
    await appendFile(
      one,
      `${JSON.stringify({ timestamp: new Date().toISOString(), type: 'event_msg', payload: { type: 'user_message', message: 'grown with flamingos' } })}\n`,
    );
    expect(await run()).toMatchObject({ sessions: 3, resumed: 1, unchanged: 2 });

    // A file replaced by another of the same size (a new inode; its words differ).
    const two = await rolloutOf(day, 2);
    const before = await stat(two);
    const text = await readFile(two, 'utf8');
    await writeFile(`${two}.new`, text.replace('question 2', 'question Z'));
    await rename(`${two}.new`, two);
    expect((await stat(two)).size).toBe(before.size);
    expect(await run()).toMatchObject({ sessions: 3, extracted: 1, unchanged: 2 });

    // What the held caches built is what a cold build without them finds.
    const cold = join(root, 'cold');
    expect(await sweep({ root: storeRoot(cold), agents, windowDays: 0 })).toMatchObject({ sessions: 3, failed: [] });
    for (const q of ['flamingos', 'question', 'Z']) expect(await hits(storeRoot(state), q)).toEqual(await hits(storeRoot(cold), q));
    expect(await hits(storeRoot(state), 'flamingos')).toHaveLength(1);

    // A deleted session.
    await rm(await rolloutOf(day, 3));
    expect(await run()).toMatchObject({ sessions: 2, gone: 1 });
  });

  it('report a corrupt cache file once, rebuild it, and go on', async () => {
    const root = await tempDir();
    const state = join(root, 'state');
    const { codex } = await codexOldFolder(root);
    const agents: AgentHomes[] = [{ reader: codexReader, homes: [codex] }];
    const caches = new SweepCaches(state, 't', later);
    const run = () => sweep({ root: storeRoot(state), agents, windowDays: 0, discovery: caches });
    await run();
    await writeFile(caches.pathOf('codex'), '{"version": 1, "readerVersion": "t", "dirs": [');

    const fresh = new SweepCaches(state, 't', later);
    const again = () => sweep({ root: storeRoot(state), agents, windowDays: 0, discovery: fresh });
    const first = await again();
    expect(first).toMatchObject({ sessions: 2, unchanged: 2, failed: [] });
    expect(first.problems).toEqual([
      expect.objectContaining({ path: caches.pathOf('codex'), reason: expect.stringContaining('moved aside') }),
    ]);
    expect((await again()).problems).toEqual([]);
    expect(JSON.parse(await readFile(caches.pathOf('codex'), 'utf8'))).toMatchObject({ version: 1, readerVersion: 't' });
  });
});
