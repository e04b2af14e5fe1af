// Rows of the session list and the hit → turn match.
import { describe, expect, it } from 'vitest';
import type { Turn } from '../record/types.js';
import type { SearchHit, SessionGroup, SessionSummary } from '../server/api-types.js';
import { buildRows, noFilters } from './list-model.js';
import { findHitTurn, flatPath } from './turn-match.js';

const zero = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_creation_tokens: 0, reasoning_tokens: 0, cost_usd: null };

function session(id: string, over: Partial<SessionSummary> = {}): SessionSummary {
  return {
    agent: 'claude_code',
    session_id: id,
    name: null,
    repo: '~/src/api-server',
    branch: 'main',
    first_ask: `ask ${id}`,
    started_at: '2026-11-02T10:00:00Z',
    ended_at: '2026-11-02T11:00:00Z',
    turns: 4,
    tool_calls: 1,
    totals: zero,
    subagents: 0,
    root: 'vendor',
    growing: false,
    ...over,
  };
}

function hit(text: string, role: 'user' | 'assistant' = 'assistant', ts = '2026-11-02T10:05:00Z'): SearchHit {
  return {
    role,
    ts_ms: Date.parse(ts),
    seq: null,
    superseded: false,
    truncated: false,
    subagent: false,
    snippet: text,
    snippet_offset_bytes: 0,
    ranges: [],
    locator: { kind: 'external_line', line_offset: 0, content_hash16: '0'.repeat(16) },
  };
}

const group = (id: string, hits: SearchHit[]): SessionGroup => ({
  session_key: `claude_code:${id}`,
  agent: 'claude_code',
  session_id: id,
  best_ts_ms: 0,
  total_hits: hits.length,
  source_gone: false,
  hits,
});

describe('buildRows', () => {
  const all = [
    session('a1', { first_ask: 'Rename the walrus endpoint' }),
    session('b2', { agent: 'codex', repo: '~/src/web' }),
    session('c3'),
  ];

  it('filters on metadata words and id prefixes, keeping the list order', () => {
    expect(buildRows(all, { ...noFilters, query: 'walrus' }, null).map((r) => r.key)).toEqual(['claude_code:a1']);
    expect(buildRows(all, { ...noFilters, query: 'c3' }, null).map((r) => r.key)).toEqual(['claude_code:c3']);
    expect(buildRows(all, { ...noFilters, agent: 'codex' }, null).map((r) => r.key)).toEqual(['codex:b2']);
  });

  it('attaches message hits to their rows without reordering, and adds hit sessions not loaded', () => {
    const rows = buildRows(all, { ...noFilters, query: 'lantern' }, [group('c3', [hit('lantern')]), group('zz', [hit('lantern')])]);
    expect(rows.map((r) => [r.key, r.hits.length])).toEqual([
      ['claude_code:c3', 1],
      ['claude_code:zz', 1],
    ]);
  });

  it('counts a session on every day it was active', () => {
    const long = session('d4', { started_at: '2026-11-01T12:00:00', ended_at: '2026-11-03T09:00:00' });
    for (const day of ['2026-11-01', '2026-11-02', '2026-11-03']) expect(buildRows([long], { ...noFilters, day }, null)).toHaveLength(1);
    expect(buildRows([long], { ...noFilters, day: '2026-11-04' }, null)).toHaveLength(0);
  });
});

describe('findHitTurn', () => {
  const t = (role: Turn['role'], at: string, text: string, extra: Partial<Turn> = {}): Turn => ({ role, at, text, ...extra });
  const sub = (turns: Turn[]) => ({
    id: 's',
    name: 'Explore',
    description: null,
    models: [],
    started_at: null,
    ended_at: null,
    status: null,
    totals: zero,
    turns,
    truncated: false,
    omitted_turns: 0,
  });
  const turns: Turn[] = [
    t('user', '2026-11-02T10:00:00Z', 'Rename the walrus endpoint'),
    t('assistant', '2026-11-02T10:01:00Z', 'Looking for callers', {
      tool_calls: [
        {
          name: 'Task',
          subagent: sub([
            t('user', '2026-11-02T10:01:01Z', 'find callers'),
            t('assistant', '2026-11-02T10:02:00Z', 'three lantern callers found'),
          ]),
        },
      ],
    }),
    t('assistant', '2026-11-02T10:05:00Z', 'Done: the lantern endpoint is renamed'),
  ];

  it('prefers a turn containing the snippet', () => {
    expect(
      flatPath(
        findHitTurn(turns, { role: 'assistant', ts_ms: Date.parse('2026-11-02T10:01:00Z'), text: '…the lantern endpoint is…' }) as never,
      ),
    ).toEqual([2]);
  });

  it('finds a subagent turn as a path through the launching call', () => {
    expect(flatPath(findHitTurn(turns, { role: 'assistant', ts_ms: 0, text: 'three lantern callers' }) as never)).toEqual([1, 0, 1]);
  });

  it('falls back to the nearest time with the same role', () => {
    expect(flatPath(findHitTurn(turns, { role: 'user', ts_ms: Date.parse('2026-11-02T10:00:02Z'), text: 'not there' }) as never)).toEqual([
      0,
    ]);
  });
});
