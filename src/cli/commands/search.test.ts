import { describe, expect, it } from 'vitest';
import type { SearchBody } from '../../search/response.js';
import { footerLines } from './search.js';

function body(over: Partial<SearchBody>): SearchBody {
  return {
    ok: true,
    state: 'ready',
    partial_reason: null,
    window_days: 14,
    sessions: [],
    cursor: null,
    searched: { sessions: 300, of: 300, complete: true, newest_unsearched_ms: null },
    coverage: { indexed_back_to_ms: 0, last_sweep_ms: null, stale_by_ms: null, agents: {} },
    ...over,
  };
}

describe('search footer', () => {
  it('says "no messages match" only when the whole window was searched', () => {
    expect(footerLines(body({}), ['zebra'], false)).toEqual(['no messages in the last 14 days match "zebra"']);
    const cut = body({
      state: 'partial',
      partial_reason: 'timeout',
      cursor: 'abc',
      searched: { sessions: 40, of: 300, complete: false, newest_unsearched_ms: Date.UTC(2026, 2, 1, 10, 30) },
    });
    const lines = footerLines(cut, ['zebra'], false);
    expect(lines.join('\n')).not.toMatch(/no messages/);
    expect(lines).toEqual([
      'partial: out of time: searched 40 of 300 sessions (every hit after 2026-03-01 10:30 is shown)',
      'more: add --cursor abc',
    ]);
  });

  it('words a window of all history and a last page plainly', () => {
    expect(footerLines(body({ window_days: 0 }), ['zebra'], false)).toEqual(['no indexed messages match "zebra"']);
    expect(footerLines(body({ window_days: 1 }), ['a', 'b'], false)).toEqual(['no messages in the last 1 day match "a" "b"']);
    expect(footerLines(body({}), ['zebra'], true)).toEqual(['no more messages match "zebra"']);
  });
});
