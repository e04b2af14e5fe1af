import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { search, type Budgets, type SearchRequest } from './query.js';
import type { SearchBody } from './response.js';
import { searchThrough } from './search-through.js';
import { ShardCache } from './shard-cache.js';
import { sweep } from './sweep.js';
import { claudeAgents, clock, days, minutes, testStore, writeSession, type Said } from './test-support/claude-home.js';

const sid = (n: number): string => `${String(n).padStart(8, '0')}-3333-4333-8444-555555555555`;

/**
 * Sessions whose newest message (the scan order) is not their best hit: 1 and 4 were active a
 * minute ago but said "please" days ago, so a scan cut after them must not show them first.
 */
async function home(): Promise<string> {
  const h = await tempDir();
  const write = (n: number, said: Said[]) => writeSession(h, sid(n), said, `-p${n}`);
  await write(1, [
    { role: 'user', text: 'please check the old log', ago: days(3) },
    { role: 'assistant', text: 'unrelated chatter', ago: minutes(1) },
  ]);
  await write(2, [{ role: 'user', text: 'please run the tests', ago: minutes(2) }]);
  await write(3, [{ role: 'user', text: 'please fix the lint', ago: minutes(3) }]);
  await write(4, [
    { role: 'user', text: 'please look again', ago: days(2) },
    { role: 'assistant', text: 'nothing to see', ago: minutes(4) },
  ]);
  for (let n = 5; n <= 8; n++) await write(n, [{ role: 'user', text: `please step ${n}`, ago: minutes(n) }]);
  await write(9, [{ role: 'user', text: 'the only zanzibar', ago: minutes(9) }]);
  return h;
}

const full = [2, 3, 5, 6, 7, 8, 4, 1].map(sid);

async function indexed(): Promise<string> {
  const h = await home();
  const root = testStore(h);
  await sweep({ root, agents: claudeAgents(h), now: clock });
  return root;
}

/** Every page of one answer, each from a cold cache as a fresh CLI process would have. */
async function pages(root: string, req: SearchRequest, budgets: Partial<Budgets>): Promise<SearchBody[]> {
  const out: SearchBody[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const body = await search({ ...req, cursor }, { root, cache: new ShardCache(root), now: clock, budgets });
    out.push(body);
    cursor = body.cursor;
    if (cursor === null) break;
  }
  return out;
}

const ids = (bodies: readonly SearchBody[]): string[] => bodies.flatMap((b) => b.sessions.map((s) => s.session_id));

describe('search pages under a budget', () => {
  it('shows only sessions in their final place: pages cut by time are prefixes of the one answer', async () => {
    const root = await indexed();
    const [whole] = await pages(root, { q: 'please' }, {});
    expect(whole?.state).toBe('ready');
    expect(ids([whole as SearchBody])).toEqual(full);
    const cut = await pages(root, { q: 'please' }, { timeMs: -1 });
    // Each cut page searched one more session; the first shows nothing (session 1's hit is old).
    expect(cut[0]).toMatchObject({ state: 'partial', partial_reason: 'timeout', sessions: [] });
    expect(cut[0]?.cursor).not.toBeNull();
    expect(cut[0]?.searched).toEqual({ sessions: 1, of: 9, complete: false, newest_unsearched_ms: clock() - minutes(2) });
    expect(ids(cut)).toEqual(full);
    expect(cut.at(-1)?.searched.complete).toBe(true);
  });

  it('gives the same pages for the same query on an unchanged index, cut by the load budget or not', async () => {
    const root = await indexed();
    const a = await pages(root, { q: 'please', limit: 3 }, { freshLoadBytes: 1, timeMs: 60_000 });
    const b = await pages(root, { q: 'please', limit: 3 }, { freshLoadBytes: 1, timeMs: 60_000 });
    expect(b).toEqual(a);
    expect(ids(a)).toEqual(full);
    // Continued at a terminal, the cut pages make up the page an uncut search gives, cursor and all.
    const cache = new ShardCache(root);
    const through = await searchThrough(
      { q: 'please', limit: 3 },
      { root, cache, now: clock, budgets: { timeMs: -1 } },
      { waitMs: 60_000 },
    );
    const uncut = await search({ q: 'please', limit: 3 }, { root, cache: new ShardCache(root), now: clock });
    expect(through).toEqual(uncut);
    expect(ids([through])).toEqual(full.slice(0, 3));
  });

  it('says a query with one hit found it, however the budget cut the pages', async () => {
    const root = await indexed();
    const cache = new ShardCache(root);
    const through = await searchThrough({ q: 'zanzibar' }, { root, cache, now: clock, budgets: { timeMs: -1 } }, { waitMs: 60_000 });
    expect(ids([through])).toEqual([sid(9)]);
    expect(through).toMatchObject({ state: 'ready', cursor: null, searched: { sessions: 9, of: 9, complete: true } });
    const first = (await pages(root, { q: 'zanzibar' }, { timeMs: -1 }))[0];
    // Cut before reaching it: not "no match" but "searched 1 of 9, go on".
    expect(first).toMatchObject({ state: 'partial', sessions: [], searched: { complete: false } });
    expect(first?.cursor).not.toBeNull();
  });

  it('property: whatever the page size and budgets, the pages together are the one answer, in order', async () => {
    const h = await tempDir();
    let seed = 11;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let n = 1; n <= 30; n++) {
      const said: Said[] = Array.from({ length: 1 + rnd(4) }, () => ({
        role: 'user',
        text: rnd(3) === 0 ? 'nothing here' : 'a widget again',
        ago: minutes(1 + rnd(5000)),
      }));
      await writeSession(h, sid(100 + n), said, `-q${n}`);
    }
    const root = testStore(h);
    await sweep({ root, agents: claudeAgents(h), now: clock });
    const [whole] = await pages(root, { q: 'widget', limit: 50 }, { timeMs: 60_000 });
    const answer = ids([whole as SearchBody]);
    expect(answer.length).toBeGreaterThan(5);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom<Partial<Budgets>>({ timeMs: -1 }, { freshLoadBytes: 1, timeMs: 60_000 }, { responseBytes: 1, timeMs: 60_000 }),
        async (limit, budgets) => {
          const got = await pages(root, { q: 'widget', limit }, budgets);
          expect(ids(got)).toEqual(answer);
          for (const b of got) expect(b.sessions.length).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 15 },
    );
  });
});
