import { rm, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { SearchError } from './errors.js';
import { parseQuery, search, type SearchRequest } from './query.js';
import { ShardCache } from './shard-cache.js';
import { storePaths } from './store.js';
import { sweep } from './sweep.js';
import { appendSaid, claudeAgents, clock, days, line, minutes, testStore, writeSession } from './test-support/claude-home.js';

const sid = (n: number): string => `${String(n).padStart(8, '0')}-2222-4333-8444-555555555555`;

async function indexed(
  setup: (home: string) => Promise<void>,
): Promise<{ home: string; root: string; run: (req: SearchRequest, budgets?: object) => ReturnType<typeof search> }> {
  const home = await tempDir();
  await setup(home);
  const root = testStore(home);
  await sweep({ root, agents: claudeAgents(home), now: clock });
  const cache = new ShardCache(root);
  // A generous clock unless a test sets one: a loaded test machine must not cut these pages short.
  return { home, root, run: (req, budgets = {}) => search(req, { root, cache, now: clock, budgets: { timeMs: 10_000, ...budgets } }) };
}

async function rejects(p: Promise<unknown>, code: string, status: number): Promise<void> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SearchError);
  expect((error as SearchError).code).toBe(code);
  expect((error as SearchError).status).toBe(status);
}

describe('search', () => {
  it('needs every term in one message, and orders sessions by their best hit', async () => {
    const { run } = await indexed(async (home) => {
      await writeSession(home, sid(1), [
        { role: 'user', text: 'the cursor bug', ago: minutes(50) },
        { role: 'assistant', text: 'a cursor without the b-word', ago: minutes(49) },
      ]);
      await writeSession(home, sid(2), [{ role: 'assistant', text: 'Fixed the Cursor BUG in store.ts', ago: minutes(10) }], '-b');
      await writeSession(
        home,
        sid(3),
        [
          { role: 'user', text: 'cursor', ago: minutes(1) },
          { role: 'user', text: 'bug', ago: minutes(1) },
        ],
        '-c',
      );
    });
    const body = await run({ q: 'cursor bug' });
    expect(body.state).toBe('ready');
    expect(body.sessions.map((s) => s.session_id)).toEqual([sid(2), sid(1)]);
    const hit = body.sessions[0]?.hits[0];
    // Ranges index the original text (original case), in bytes.
    expect(hit?.snippet.slice(hit.ranges[0]?.[0], hit.ranges[0]?.[1])).toBe('Cursor');
    expect(hit?.ranges).toEqual([
      [10, 16],
      [17, 20],
    ]);
  });

  it('folds case and canonical forms identically on both sides', async () => {
    const { run } = await indexed(async (home) => {
      await writeSession(home, sid(1), [{ role: 'user', text: 'Un CAFE\u0301 s’il vous plaît', ago: minutes(5) }]);
    });
    for (const q of ['café', 'CAFÉ', 'cafe\u0301']) {
      const hit = (await run({ q })).sessions[0]?.hits[0];
      expect(hit).toBeDefined();
      const buf = Buffer.from(hit?.snippet ?? '');
      const [s, e] = hit?.ranges[0] ?? [0, 0];
      expect(buf.toString('utf8', s, e)).toBe('CAFE\u0301');
    }
    expect((await run({ q: 'cafe' })).sessions).toEqual([]);
  });

  it('returns at most 3 hits per session, the most recent, with the total', async () => {
    const { run } = await indexed(async (home) => {
      await writeSession(
        home,
        sid(1),
        Array.from({ length: 7 }, (_, i) => ({ role: 'user' as const, text: `repeat number ${i}`, ago: minutes(30 - i) })),
      );
    });
    const g = (await run({ q: 'repeat' })).sessions[0];
    expect(g?.total_hits).toBe(7);
    expect(g?.hits.map((h) => h.snippet)).toEqual(['repeat number 6', 'repeat number 5', 'repeat number 4']);
    expect(g?.best_ts_ms).toBe(g?.hits[0]?.ts_ms);
  });

  it('highlights every occurrence inside a snippet of at most 280 bytes', async () => {
    const long = `${'lorem ipsum '.repeat(40)}NEEDLE here and needle there ${'dolor sit '.repeat(40)}`;
    const { run } = await indexed(async (home) => {
      await writeSession(home, sid(1), [{ role: 'assistant', text: long, ago: minutes(5) }]);
    });
    const hit = (await run({ q: 'needle' })).sessions[0]?.hits[0];
    expect(Buffer.byteLength(hit?.snippet ?? '')).toBeLessThanOrEqual(280);
    expect(hit?.ranges).toHaveLength(2);
    const original = Buffer.from(long);
    for (const [s, e] of hit?.ranges ?? []) expect(original.toString('utf8', s, e).toLowerCase()).toBe('needle');
    expect(hit?.snippet_offset_bytes).toBe(long.indexOf('NEEDLE') - 120);
  });

  it('filters by agent, subagents and the window', async () => {
    const { run } = await indexed(async (home) => {
      await writeSession(home, sid(1), [
        { role: 'user', text: 'main thread widget', ago: minutes(5) },
        { role: 'assistant', text: 'sidechain widget', ago: minutes(4), extra: { isSidechain: true } },
        { role: 'user', text: 'old widget', ago: days(20) },
      ]);
    });
    const all = (await run({ q: 'widget' })).sessions[0];
    expect(all?.total_hits).toBe(2);
    expect(all?.hits.map((h) => h.subagent)).toEqual([true, false]);
    expect((await run({ q: 'widget', includeSubagents: false })).sessions[0]?.total_hits).toBe(1);
    expect((await run({ q: 'widget', windowDays: 0 })).sessions[0]?.total_hits).toBe(3);
    expect((await run({ q: 'widget', agents: ['codex'] })).sessions).toEqual([]);
    expect((await run({ q: 'widget', agents: ['claude_code'] })).sessions).toHaveLength(1);
  });

  it('pages with snapshot-bound cursors: next page continues, another query is invalid, a changed store expired', async () => {
    const { home, run } = await indexed(async (home) => {
      for (let i = 1; i <= 5; i++) await writeSession(home, sid(i), [{ role: 'user', text: `topic ${i}`, ago: minutes(i) }], `-p${i}`);
    });
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const body = await run({ q: 'topic', limit: 2, cursor });
      seen.push(...body.sessions.map((s) => s.session_id));
      cursor = body.cursor;
      if (cursor === null) break;
    }
    expect(seen).toEqual([sid(1), sid(2), sid(3), sid(4), sid(5)]);
    const first = await run({ q: 'topic', limit: 2 });
    await rejects(run({ q: 'other', limit: 2, cursor: first.cursor }), 'InvalidCursor', 400);
    await rejects(run({ q: 'topic', limit: 2, cursor: 'not-a-cursor!' }), 'InvalidCursor', 400);
    await rejects(run({ q: 'topic', limit: 2, cursor: Buffer.from('{"v":1}').toString('base64url') }), 'InvalidCursor', 400);
    await appendSaid(`${home}/.claude/projects/-p1/${sid(1)}.jsonl`, sid(1), [{ role: 'user', text: 'more', ago: 0 }]);
    await sweep({ root: testStore(home), agents: claudeAgents(home), now: clock });
    await rejects(run({ q: 'topic', limit: 2, cursor: first.cursor }), 'CursorExpired', 410);
  });

  it('enforces the query limits', async () => {
    const { run } = await indexed(async () => undefined);
    await rejects(run({ q: '   ' }), 'QueryRequired', 400);
    await rejects(run({ q: 'x'.repeat(300) }), 'QueryTooLong', 400);
    await rejects(run({ q: 'a b c d e f g h i' }), 'TooManyTerms', 400);
    await rejects(run({ q: 'a', limit: 0 }), 'InvalidParameter', 400);
    expect(parseQuery('a\u0000b')).toEqual(['a', 'b']);
  });

  it('says building before anything was indexed', async () => {
    const home = await tempDir();
    const root = testStore(home);
    const body = await search({ q: 'anything' }, { root, cache: new ShardCache(root), now: clock });
    expect(body).toMatchObject({ ok: true, state: 'building', sessions: [], cursor: null });
  });

  it('badges superseded hits and hides them on request', async () => {
    const { home, root, run } = await indexed(async (home) => {
      await writeSession(home, sid(1), [{ role: 'user', text: 'first draft of the plan', ago: minutes(5) }]);
    });
    const path = `${home}/.claude/projects/-work-demo/${sid(1)}.jsonl`;
    await writeFile(path, `${JSON.stringify(line(sid(1), { role: 'user', text: 'second plan', ago: minutes(4) }))}\n`);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    const hits = (await run({ q: 'plan' })).sessions[0]?.hits ?? [];
    expect(hits.map((h) => [h.snippet, h.superseded])).toEqual([
      ['second plan', false],
      ['first draft of the plan', true],
    ]);
    expect((await run({ q: 'plan', includeSuperseded: false })).sessions[0]?.hits.map((h) => h.snippet)).toEqual(['second plan']);
  });

  it('reports a timeout as partial, with what it searched and a cursor that continues', async () => {
    const { run } = await indexed(async (home) => {
      for (let i = 1; i <= 4; i++)
        await writeSession(home, sid(i), [{ role: 'user', text: `budget word ${i}`, ago: minutes(i) }], `-b${i}`);
    });
    const late = await run({ q: 'budget' }, { timeMs: -1 });
    expect(late).toMatchObject({ state: 'partial', partial_reason: 'timeout', searched: { sessions: 1, of: 4, complete: false } });
    const seen = late.sessions.map((s) => s.session_id);
    for (let cursor = late.cursor; cursor !== null; ) {
      const body = await run({ q: 'budget', cursor }, { timeMs: -1 });
      seen.push(...body.sessions.map((s) => s.session_id));
      cursor = body.cursor;
    }
    expect(seen).toEqual([sid(1), sid(2), sid(3), sid(4)]);
  });

  it('stops at the fresh-load budget with a cursor that continues where it stopped', async () => {
    const home = await tempDir();
    for (let i = 1; i <= 4; i++) await writeSession(home, sid(i), [{ role: 'user', text: `loadbudget ${i}`, ago: minutes(i) }], `-l${i}`);
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    const run = (cursor: string | null) =>
      search({ q: 'loadbudget', cursor }, { root, cache: new ShardCache(root), now: clock, budgets: { freshLoadBytes: 1 } });
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const body = await run(cursor);
      expect(body.state === 'partial' ? body.partial_reason : 'ready').toMatch(/budget|ready/);
      seen.push(...body.sessions.map((s) => s.session_id));
      cursor = body.cursor;
      if (cursor === null) break;
    }
    expect(seen.sort()).toEqual([sid(1), sid(2), sid(3), sid(4)]);
  });

  it('keeps a page under the response budget, never over it', async () => {
    const { run } = await indexed(async (home) => {
      for (let i = 1; i <= 6; i++)
        await writeSession(home, sid(i), [{ role: 'user', text: `sizable ${'z'.repeat(400)}`, ago: minutes(i) }], `-s${i}`);
    });
    const body = await run({ q: 'sizable' }, { responseBytes: 4000 });
    expect(body.state).toBe('partial');
    expect(body.partial_reason).toBe('budget');
    expect(Buffer.byteLength(JSON.stringify(body.sessions))).toBeLessThanOrEqual(4000);
    expect(body.cursor).not.toBeNull();
  });

  it('counts coverage over the window only', async () => {
    const { run } = await indexed(async (home) => {
      await writeSession(home, sid(1), [{ role: 'user', text: 'recent', ago: minutes(5) }]);
    });
    const body = await run({ q: 'recent' });
    expect(body.coverage.agents.claude_code?.sessions).toBe(1);
    expect((await run({ q: 'recent', windowDays: 0 })).coverage.agents.claude_code?.sessions).toBe(1);
  });

  it('skips a session whose generation file vanished instead of failing the query', async () => {
    const { root, run } = await indexed(async (home) => {
      await writeSession(home, sid(1), [{ role: 'user', text: 'vanishing act', ago: minutes(5) }]);
    });
    await rm(storePaths(root).generations, { recursive: true });
    expect((await run({ q: 'vanishing' })).sessions).toEqual([]);
  });
});
