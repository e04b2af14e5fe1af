// A message search the server cut short on its time budget (`partial`, reason `timeout`) answered
// only the sessions it reached: on a slow or busy machine, or with its shard cache cold after a
// sweep, that can be the first one alone, and a hit in the rest would never show. The page is
// completed from the answer's cursor, a bounded number of times, before the list shows it.
import type { LaneAnswer } from './message-lane.js';

/** What the continuation needs of a search page (`SearchBody`). */
export interface SearchPage<S> {
  state: string;
  partial_reason: string | null;
  cursor: string | null;
  sessions: S[];
}

export interface GatherOptions {
  /** The page size asked for: once this many sessions are in, the page is full. */
  limit: number;
  /** Requests at most, the first included. */
  maxPages: number;
}

/** The first page, completed from its cursor while the server stopped on time with room left. */
export async function gatherPages<S, T extends SearchPage<S>>(
  fetchPage: (cursor: string | null) => Promise<LaneAnswer<T>>,
  opts: GatherOptions,
): Promise<LaneAnswer<T>> {
  let gathered: T | undefined;
  let cursor: string | null = null;
  for (let page = 1; ; page++) {
    const answer = await fetchPage(cursor);
    // A later page that fails leaves what was found: the list shows it, as the search was partial anyway.
    if (answer.kind !== 'ok') return gathered === undefined ? answer : { kind: 'ok', body: gathered };
    const body = answer.body;
    gathered = gathered === undefined ? body : { ...body, sessions: [...gathered.sessions, ...body.sessions] };
    const cutOnTime = body.state === 'partial' && body.partial_reason === 'timeout' && body.cursor !== null;
    if (!cutOnTime || gathered.sessions.length >= opts.limit || page >= opts.maxPages) return { kind: 'ok', body: gathered };
    cursor = body.cursor;
  }
}
