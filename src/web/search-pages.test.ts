// A search page the server cut on time is completed from its cursor, within bounds.
import { describe, expect, it } from 'vitest';
import type { LaneAnswer } from './message-lane.js';
import { gatherPages, type SearchPage } from './search-pages.js';

type Page = SearchPage<string>;

const page = (sessions: string[], cut: 'timeout' | 'budget' | null, cursor: string | null): Page => ({
  state: cut === null ? 'ready' : 'partial',
  partial_reason: cut,
  cursor,
  sessions,
});

/** The pages in order, and the cursor each request carried. */
function source(pages: LaneAnswer<Page>[]) {
  const asked: (string | null)[] = [];
  const fetchPage = async (cursor: string | null): Promise<LaneAnswer<Page>> => {
    asked.push(cursor);
    const next = pages.shift();
    if (next === undefined) throw new Error('asked past the last page');
    return next;
  };
  return { asked, fetchPage };
}

const ok = (body: Page): LaneAnswer<Page> => ({ kind: 'ok', body });

describe('gatherPages', () => {
  it('follows the cursor while the server stopped on time with room left, and answers with every session found', async () => {
    const s = source([ok(page([], 'timeout', 'c1')), ok(page(['a'], 'timeout', 'c2')), ok(page(['b', 'c'], null, null))]);
    const answer = await gatherPages(s.fetchPage, { limit: 50, maxPages: 8 });
    expect(answer).toEqual(ok(page(['a', 'b', 'c'], null, null)));
    expect(s.asked).toEqual([null, 'c1', 'c2']);
  });

  it('stops at a full page, a page cut for size, the last page allowed, or a complete search', async () => {
    const full = source([ok(page(['a', 'b'], 'timeout', 'c1'))]);
    expect(await gatherPages(full.fetchPage, { limit: 2, maxPages: 8 })).toEqual(ok(page(['a', 'b'], 'timeout', 'c1')));
    const sized = source([ok(page(['a'], 'budget', 'c1'))]);
    expect(await gatherPages(sized.fetchPage, { limit: 50, maxPages: 8 })).toEqual(ok(page(['a'], 'budget', 'c1')));
    const bounded = source([ok(page([], 'timeout', 'c1')), ok(page(['a'], 'timeout', 'c2'))]);
    expect(await gatherPages(bounded.fetchPage, { limit: 50, maxPages: 2 })).toEqual(ok(page(['a'], 'timeout', 'c2')));
    expect(bounded.asked).toEqual([null, 'c1']);
    const done = source([ok(page(['a'], null, 'more'))]);
    expect(await gatherPages(done.fetchPage, { limit: 50, maxPages: 8 })).toEqual(ok(page(['a'], null, 'more')));
  });

  it('keeps what it found when a later page fails, and passes a first failure on', async () => {
    const later = source([ok(page(['a'], 'timeout', 'c1')), { kind: 'busy', retryAfterMs: 1000 }]);
    expect(await gatherPages(later.fetchPage, { limit: 50, maxPages: 8 })).toEqual(ok(page(['a'], 'timeout', 'c1')));
    const first = source([{ kind: 'error', message: 'down' }]);
    expect(await gatherPages(first.fetchPage, { limit: 50, maxPages: 8 })).toEqual({ kind: 'error', message: 'down' });
  });
});
