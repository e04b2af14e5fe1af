// The real rollouts of the shared corpus, copied into a temporary Codex home. The pinned figures
// were counted by hand from the files (last token_count, turn_context models, user_message events).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyCorpus, hasCorpus, tempDir } from '../../../test/support/temp.js';
import { finaliseRecord } from '../../record/finalise.js';
import { makeHomeElider } from '../../record/home-elide.js';
import { serialiseRecord } from '../../record/serialise.js';
import type { SessionRecord } from '../../record/types.js';
import type { DiscoveredSession } from '../types.js';
import { codexReader } from './reader.js';

async function corpusHome(): Promise<string> {
  const home = join(await tempDir(), '.codex');
  await copyCorpus('codex/sessions', join(home, 'sessions'));
  return home;
}

async function recordOf(session: DiscoveredSession, detail: 'full' | 'summary' = 'full'): Promise<SessionRecord> {
  const parsed = await codexReader.parse(session, { detail });
  expect(parsed.badLines).toEqual([]);
  if (parsed.record === null) throw new Error('no record');
  return finaliseRecord(parsed.record, { detail, elide: makeHomeElider(null) });
}

function counts(r: SessionRecord): Record<string, number> {
  const out: Record<string, number> = { calls: 0 };
  for (const t of r.turns) {
    out[t.role] = (out[t.role] ?? 0) + 1;
    out.calls = (out.calls ?? 0) + (t.tool_calls?.length ?? 0);
  }
  return out;
}

const pinned = {
  '019c8bfe-ec25-79e0-97d7-bda6a9c575ff': {
    counts: { user: 1, reasoning: 6, assistant: 6, calls: 5 },
    head: {
      repo: '/redacted/path/ea96e59ed9',
      branch: 'main',
      models: ['gpt-5.3-codex'],
      started_at: '2026-02-23T19:34:26.098Z',
      ended_at: '2026-02-23T19:36:02.635Z',
    },
    // Last token_count: input 298,373 of which 238,848 cached.
    totals: {
      input_tokens: 59_525,
      output_tokens: 1123,
      cache_read_tokens: 238_848,
      cache_creation_tokens: 0,
      reasoning_tokens: 483,
      cost_usd: null,
    },
  },
  '019c8a4c-ed82-79a1-aa28-7738fc5ab61a': {
    // 10 user items, 5 of them typed (the ones with a user_message twin); 59 of 69 reasoning items
    // carry a summary; 43 assistant messages plus 21 steps that open with a tool call.
    counts: { user: 5, reasoning: 59, assistant: 64, calls: 105 },
    head: {
      repo: '/redacted/path/fa3f7eaace',
      branch: 'main',
      models: ['gpt-5.3-codex'],
      started_at: '2026-02-23T11:40:29.275Z',
      ended_at: '2026-02-23T12:45:33.362Z',
    },
    totals: {
      input_tokens: 367_673,
      output_tokens: 36_075,
      cache_read_tokens: 6_836_352,
      cache_creation_tokens: 0,
      reasoning_tokens: 17_896,
      cost_usd: null,
    },
  },
  'fixture-managed-thread': {
    // Intendant's rewind primer is machinery; the compaction is an event; the last token_count wins
    // even though it is lower than earlier ones.
    counts: { user: 3, assistant: 7, reasoning: 1, event: 1, calls: 3 },
    head: { repo: '/app', branch: null, models: [], started_at: '2026-06-01T00:00:05.000Z', ended_at: '2026-06-01T00:02:55.000Z' },
    totals: { input_tokens: 2200, output_tokens: 10, cache_read_tokens: 0, cache_creation_tokens: 0, reasoning_tokens: 0, cost_usd: null },
  },
} as const;

describe.skipIf(!hasCorpus)('codex corpus rollouts', () => {
  it('discovers every corpus rollout as a session', async () => {
    const d = await codexReader.discover(await corpusHome());
    expect(d.sessions.map((s) => s.sessionId).sort()).toEqual(Object.keys(pinned).sort());
  });

  it('reads each with the pinned turns, models and totals, the same at every level', async () => {
    const d = await codexReader.discover(await corpusHome());
    for (const session of d.sessions) {
      const want = pinned[session.sessionId as keyof typeof pinned];
      const full = await recordOf(session);
      expect(counts(full), session.sessionId).toEqual(want.counts);
      expect(full, session.sessionId).toMatchObject({ agent: 'codex', session_id: session.sessionId, ...want.head, totals: want.totals });
      const summary = await recordOf(session, 'summary');
      expect(counts(summary)).toEqual(want.counts);
      expect(summary.totals).toEqual(want.totals);
      expect(JSON.stringify(full)).not.toContain('REDACTED_ENCRYPTED');
    }
  });

  it('serialises the same bytes twice', async () => {
    const d = await codexReader.discover(await corpusHome());
    for (const session of d.sessions) {
      expect(serialiseRecord(await recordOf(session))).toBe(serialiseRecord(await recordOf(session)));
    }
  });
});

describe.skipIf(!hasCorpus)('codex loose corpus files', () => {
  it('reads the schema coverage file without a bad line', async () => {
    const home = join(await tempDir(), '.codex');
    const path = await copyCorpus(
      'codex/loose/schema_coverage_small.jsonl',
      join(home, 'sessions', '2026', '08', '03', 'rollout-2026-08-03T10-48-56-019fc8be-3658-7ca3-9e29-000000000000.jsonl'),
    );
    const d = await codexReader.discover(home);
    // Its later session_meta lines (spawned children among them) are copies inside one file.
    expect(d.sessions.map((s) => s.sessionId)).toEqual(['019fc8be-3658-7ca3-9e29-000000000000']);
    const session = d.sessions[0] as DiscoveredSession;
    expect(session.path).toBe(path);
    const r = await recordOf(session);
    expect(r.turns[0]).toEqual({ role: 'user', at: '2026-08-03T10:48:56.000Z', text: 'List the files' });
    expect(r.models[0]).toBe('gpt-5.6-luna');
    expect(r.branch).toBe('main');
    expect(r.turns.filter((t) => t.role === 'event').map((t) => t.text)).toContain('interrupted');
    expect(r.turns.filter((t) => t.role === 'event').map((t) => t.text)).toContain('context compacted');
    expect(JSON.stringify(r)).not.toContain('encrypted');
  });

  it('reports the drifted file as holding no session, without throwing', async () => {
    const home = join(await tempDir(), '.codex');
    await copyCorpus(
      'codex/loose/schema_drift.jsonl',
      join(home, 'sessions', '2025', '09', '10', 'rollout-2025-09-10T12-00-00-drift.jsonl'),
    );
    const d = await codexReader.discover(home);
    expect(d.sessions.map((s) => s.sessionId)).toEqual(['drift']);
    const parsed = await codexReader.parse(d.sessions[0] as DiscoveredSession, { detail: 'full' });
    expect(parsed.record).toBeNull();
    expect(parsed.badLines).toEqual([]);
  });
});
