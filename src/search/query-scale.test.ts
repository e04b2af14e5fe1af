import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import type { ManifestEntry } from './manifest.js';
import { matchSession, ScanBudget } from './match.js';
import { search } from './query.js';
import { ShardCache } from './shard-cache.js';
import { readManifest } from './store.js';
import { sweep } from './sweep.js';
import { claudeAgents, clock, testStore, writeSession, type Said } from './test-support/claude-home.js';

const sid = '00000020-2222-4333-8444-555555555555';
// Messages of a few hundred characters, as real prose replies are.
const filler = 'Then it reads the log again from the last offset and checks every line it kept. '.repeat(3);

describe('search on a long session', () => {
  it('matches a two-term query over 20,000 messages in linear time (no scan past the record)', async () => {
    const home = await tempDir();
    const said: Said[] = Array.from({ length: 20_000 }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      text: `reply number ${i}: the build is green and the retry loop backs off. ${filler}${i === 7 ? ' like a zebra' : ''}`,
      ago: (20_000 - i) * 1000,
    }));
    await writeSession(home, sid, said);
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock, windowDays: 0 });
    const cache = new ShardCache(root);
    // Generous bounds: the quadratic scan took over 10 s here; the linear one takes milliseconds.
    const budgets = { timeMs: 60_000 };
    // The first query loads and folds the shard (cold); the bound is on matching, measured warm.
    expect((await search({ q: 'reply', windowDays: 0 }, { root, cache, now: clock, budgets })).sessions).toHaveLength(1);
    let worst = 0;
    for (const q of ['reply zebra', 'zebra reply', 'reply green', 'backs nothinghere']) {
      const t0 = performance.now();
      const body = await search({ q, windowDays: 0 }, { root, cache, now: clock, budgets });
      worst = Math.max(worst, performance.now() - t0);
      expect(body.state).toBe('ready');
      if (q.includes('zebra')) expect(body.sessions[0]?.total_hits).toBe(1);
      if (q === 'reply green') expect(body.sessions[0]?.total_hits).toBe(20_000);
      if (q === 'backs nothinghere') expect(body.sessions).toEqual([]);
    }
    expect(worst).toBeLessThan(1500);

    // The deadline is looked at within a session (after its load, and inside its record loop).
    const read = await readManifest(root);
    if (read.state !== 'ok') throw new Error('no manifest');
    const [key, entry] = Object.entries(read.manifest.sessions)[0] as [string, ManifestEntry];
    const filters = { agents: null, superseded: true, subagents: true, horizon: Number.NEGATIVE_INFINITY };
    const late = new ScanBudget(performance.now() - 1, Number.POSITIVE_INFINITY);
    expect(await matchSession(0, key, entry, ['reply', 'green'], filters, cache, late)).toBe('timeout');
    late.exempt = true;
    expect(await matchSession(0, key, entry, ['reply', 'green'], filters, cache, late)).toMatchObject({ total: 20_000 });
  });
});
