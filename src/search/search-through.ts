// Search for a person waiting at a terminal rather than a server under load: the pages of one answer
// are fetched one after another until the page is full, the whole window has been searched, or the
// wait runs out, so a cold start shows the same answer as a warm one.
import { SearchError } from './errors.js';
import { search, type QueryEnv, type SearchRequest } from './query.js';
import { pageLimit } from './query-parse.js';
import type { SearchBody } from './response.js';

export interface ThroughOptions {
  /** Stop continuing after this long (the answer is then partial, with its cursor). */
  waitMs: number;
}

/** A re-published index expires a cursor; the answer starts over this many times at most. */
const restarts = 3;

/** One page of `req`, continued through its cursors while the page is short and more may match. */
export async function searchThrough(req: SearchRequest, env: QueryEnv, opts: ThroughOptions): Promise<SearchBody> {
  const limit = pageLimit(req.limit);
  const deadline = performance.now() + opts.waitMs;
  for (let attempt = 0; ; attempt++) {
    let body = await search(req, env);
    const sessions = [...body.sessions];
    try {
      while (body.state === 'partial' && body.cursor !== null && sessions.length < limit && performance.now() < deadline) {
        body = await search({ ...req, limit: limit - sessions.length, cursor: body.cursor }, env);
        sessions.push(...body.sessions);
      }
    } catch (error) {
      // An index sweep published between two pages: the pages no longer belong together.
      if (error instanceof SearchError && error.code === 'CursorExpired' && attempt < restarts) continue;
      throw error;
    }
    return { ...body, sessions };
  }
}
