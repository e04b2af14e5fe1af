import { describe, expect, it } from 'vitest';
import { emptyTotals } from '../record/types.js';
import type { SessionRow } from '../scan/session-row.js';
import { usageByDay } from './usage.js';

function row(agent: SessionRow['agent'], started: string | null, input: number, output: number): SessionRow {
  const totals = { ...emptyTotals(), input_tokens: input, output_tokens: output };
  return {
    agent,
    session_id: `${agent}-${started}`,
    name: null,
    first_ask: null,
    repo: '',
    branch: null,
    models: [],
    started_at: started,
    ended_at: started,
    turns: 1,
    tool_calls: 0,
    totals,
    totals_with_subagents: totals,
    subagents: 0,
    file: '/x',
    home: '/h',
    bad_lines: 0,
  };
}

describe('usageByDay', () => {
  it('sums tokens per start day (UTC) and agent inside the window, oldest day first', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    const body = usageByDay(
      [
        row('codex', '2026-03-10T01:00:00Z', 10, 1),
        row('codex', '2026-03-10T23:00:00Z', 5, 5),
        row('claude_code', '2026-03-09T23:59:59Z', 7, 0),
        row('claude_code', '2026-03-01T00:00:00Z', 100, 0),
        row('pi', null, 9, 9),
      ],
      3,
      now,
    );
    expect(body).toMatchObject({ from: '2026-03-08', to: '2026-03-10', days: 3 });
    expect(body.rows.map((r) => [r.day, r.agent, r.sessions, r.total_tokens])).toEqual([
      ['2026-03-09', 'claude_code', 1, 7],
      ['2026-03-10', 'codex', 2, 21],
    ]);
  });
});
