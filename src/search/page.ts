// One page of the answer as the response shows it: session groups with their hits' snippets and
// exact highlights, up to the page size, stopping before a group that would pass the response budget.
import { highlights } from './highlight.js';
import type { HitRef, Match } from './match.js';
import type { SearchHit, SessionGroup } from './response.js';
import { recordView } from './shard-cache.js';
import { makeSnippet } from './snippet.js';

/** What the page's envelope (state, cursor, coverage) is reckoned to take, before any group. */
const envelopeBytes = 2048;

/** The hit as the response shows it: a snippet around the earliest highlight, every highlight in it. */
function hitBody(h: HitRef, terms: readonly string[]): SearchHit {
  const r = h.record;
  const h2 = highlights(recordView(h.seg, h.index), r.text, terms);
  const s = makeSnippet(r.text, h2.anchor, h2.ranges);
  return {
    role: r.role,
    ts_ms: r.ts_ms,
    seq: r.seq ?? null,
    superseded: !h.active,
    truncated: r.truncated === true,
    subagent: r.subagent === true,
    snippet: s.snippet,
    snippet_offset_bytes: s.offset,
    ranges: s.ranges,
    locator: r.locator,
  };
}

function groupBody(m: Match, terms: readonly string[]): SessionGroup {
  return {
    session_key: m.key,
    agent: m.entry.agent,
    session_id: m.entry.session_id,
    best_ts_ms: m.best,
    total_hits: m.total,
    source_gone: m.entry.source_gone === true,
    hits: m.top.map((h) => hitBody(h, terms)),
  };
}

/**
 * The groups of the first `limit` matches (already in page order); `full` is false when the
 * response budget stopped it early. A page always shows at least one group.
 */
export function takePage(
  matches: readonly Match[],
  limit: number,
  terms: readonly string[],
  responseBytes: number,
): { sessions: SessionGroup[]; full: boolean } {
  const sessions: SessionGroup[] = [];
  let size = envelopeBytes;
  for (const m of matches) {
    if (sessions.length >= limit) break;
    const g = groupBody(m, terms);
    const bytes = Buffer.byteLength(JSON.stringify(g));
    if (sessions.length > 0 && size + bytes > responseBytes) return { sessions, full: false };
    size += bytes;
    sessions.push(g);
  }
  return { sessions, full: true };
}
