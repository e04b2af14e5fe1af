import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { intendantReader } from '../agents/intendant/index.js';
import { FixtureSession } from '../agents/intendant/test-support/fixture.js';
import { search } from './query.js';
import { ShardCache } from './shard-cache.js';
import { sweep } from './sweep.js';
import { claudeAgents, clock, minutes, testStore, writeSession } from './test-support/claude-home.js';

const legacyNotes = { ask_human_answers: 'none before 2026-07 (never persisted)', follow_ups: 'best-effort before 2026-07' };

/** An Intendant session from before the message lane: its prose reconstructed from model responses. */
async function legacySession(home: string): Promise<void> {
  const meta = { created_at: '2026-06-19T10:00:00', created_at_ms: Date.UTC(2026, 5, 19, 10), task: 'Fix the login loop', status: 'idle' };
  const s = await FixtureSession.create(join(home, '.intendant'), 'thread-1', meta);
  s.raw(
    '{"ts":"10:00:01.000","event":"session_started","level":"info","message":"Session started: thread-1","data":{"session_id":"thread-1","task":"Fix the login loop"}}',
  );
  await s.legacyModel('10:00:30.500', 1, 'Looking at the redirect middleware.');
  await s.save();
}

describe('search coverage notes', () => {
  it('carries no agent notes when no session in the window has any', async () => {
    const home = await tempDir();
    await writeSession(home, '00000001-2222-4333-8444-555555555555', [{ role: 'user', text: 'plain words', ago: minutes(5) }]);
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    const body = await search({ q: 'plain' }, { root, cache: new ShardCache(root), now: clock });
    expect(body.sessions).toHaveLength(1);
    expect(Object.keys(body.coverage)).toEqual(['indexed_back_to_ms', 'last_sweep_ms', 'stale_by_ms', 'agents']);
    expect(body.coverage.agents.claude_code?.notes).toBeUndefined();
    expect(JSON.stringify(body)).not.toMatch(/ask_human|before 2026-07/);
  });

  it("repeats a reader's notes while a session it noted is in the window", async () => {
    const home = await tempDir();
    await legacySession(home);
    const root = testStore(home);
    const now = () => Date.UTC(2026, 5, 20);
    await sweep({ root, agents: [{ reader: intendantReader, homes: [join(home, '.intendant')] }], now, windowDays: 0 });
    const all = await search({ q: 'redirect', windowDays: 0 }, { root, cache: new ShardCache(root), now });
    expect(all.sessions.map((s) => s.agent)).toEqual(['intendant']);
    expect(all.coverage.agents.intendant?.notes).toEqual(legacyNotes);
    // A window that leaves the session out leaves its notes out too.
    const recent = await search({ q: 'redirect', windowDays: 1 }, { root, cache: new ShardCache(root), now: () => Date.UTC(2026, 7, 1) });
    expect(recent.coverage.agents.intendant).toBeUndefined();
  });
});
