// Loads the session list page by page: the first small page paints at once, the rest streams in;
// when the server is away it retries with backoff and says so in the banner.
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { SessionSummary, SessionsBody } from '../server/api-types.js';
import { afterNextPaint } from './after-paint.js';
import { ApiError, listSessions } from './api.js';
import { firstSessionsPage as firstPage } from './sessions-url.js';

export interface SessionsState {
  sessions: SessionSummary[];
  /** True until the first page arrived. */
  loading: boolean;
  /** True while more pages are on their way. */
  more: boolean;
  error: string | null;
}

/** How often the newest page is read again for new sessions, live dots and grown counts. */
const refreshMs = 10_000;
const laterPage = 500;
const maxBackoffMs = 30_000;
/** How soon a list the server marked incomplete (its first scan under way) is asked for again. */
const incompleteRetryMs = 1000;

let early: Promise<SessionsBody> | null = null;
/** The early first page once it arrived: the hook's first state, so the first render draws rows. */
let earlyBody: SessionsBody | null = null;

/**
 * Asks for the first page at once (main.tsx, before the first render): the request is the one
 * index.html preloads, and the hook's first read takes its answer instead of asking again after the
 * first frame (effects run only after it). Resolves when it arrived or failed (never rejects).
 */
export function requestFirstPage(): Promise<void> {
  early = listSessions({ cursor: null, limit: firstPage });
  // Read (or failed and retried) by the hook; not an unhandled rejection meanwhile.
  return early.then(
    (body) => {
      earlyBody = body;
    },
    () => undefined,
  );
}

/** The early first page, once. */
function takeEarly(): Promise<SessionsBody> | null {
  const e = early;
  early = null;
  earlyBody = null;
  return e;
}

function initialState(): SessionsState {
  if (earlyBody === null) return { sessions: [], loading: true, more: true, error: null };
  return { sessions: earlyBody.sessions, loading: false, more: earlyBody.cursor !== null || !earlyBody.complete, error: null };
}

export function useSessions(): [SessionsState, () => void, (update: (s: SessionSummary[]) => SessionSummary[]) => void] {
  const [state, setState] = useState<SessionsState>(initialState);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    let backoff = 1000;
    const run = async (): Promise<void> => {
      // An incomplete answer (the server's first scan still running) is read again whole once the
      // scan is done; that second pass replaces the list in one step, so rows do not shrink back.
      for (let pass = 0; ; pass++) {
        const all: SessionSummary[] = [];
        let cursor: string | null = null;
        let complete = true;
        for (;;) {
          try {
            const body: SessionsBody = await ((cursor === null && takeEarly()) ||
              listSessions({ cursor, limit: all.length === 0 ? firstPage : laterPage }, abort.signal));
            all.push(...body.sessions);
            cursor = body.cursor;
            complete &&= body.complete;
            backoff = 1000;
            // Still incomplete on a later pass: the rows shown are these already; ask again later.
            if (pass > 0 && !complete) break;
            if (pass === 0 || cursor === null)
              setState({ sessions: [...all], loading: false, more: cursor !== null || !complete, error: null });
            if (cursor === null) break;
            // The next page waits for the frame that draws this one: its answer (parsed, merged and
            // rendered) and its query on the server would otherwise compete with the list's first paint.
            if (pass === 0 && all.length === body.sessions.length) await afterNextPaint();
            if (abort.signal.aborted) return;
          } catch (e) {
            if (abort.signal.aborted) return;
            const message = e instanceof ApiError ? e.message : String(e);
            setState((s) => ({ ...s, error: `${message} Retrying in ${Math.round(backoff / 1000)} s.` }));
            await new Promise((r) => setTimeout(r, backoff));
            backoff = Math.min(maxBackoffMs, backoff * 2);
            if (abort.signal.aborted) return;
          }
        }
        if (complete) break;
        await new Promise((r) => setTimeout(r, incompleteRetryMs));
        if (abort.signal.aborted) return;
      }
      // Then keep the newest page fresh: rows update in place (nothing moves under the pointer), new sessions come on top.
      while (!abort.signal.aborted) {
        await new Promise((r) => setTimeout(r, refreshMs));
        if (abort.signal.aborted) return;
        try {
          const body = await listSessions({ cursor: null, limit: firstPage }, abort.signal);
          setState((s) => ({ ...s, error: null, sessions: mergeNewest(s.sessions, body.sessions) }));
        } catch (e) {
          if (abort.signal.aborted) return;
          setState((s) => ({ ...s, error: e instanceof ApiError ? e.message : String(e) }));
        }
      }
    };
    void run();
    return () => abort.abort();
  }, [generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const update = useCallback((f: (s: SessionSummary[]) => SessionSummary[]) => setState((s) => ({ ...s, sessions: f(s.sessions) })), []);
  return [state, reload, update];
}

const keyOf = (s: SessionSummary): string => `${s.agent}:${s.session_id}`;

/** `current` with the rows of `newest` replaced in place and unknown ones put first. */
export function mergeNewest(current: readonly SessionSummary[], newest: readonly SessionSummary[]): SessionSummary[] {
  const fresh = new Map(newest.map((s) => [keyOf(s), s]));
  const known = new Set(current.map(keyOf));
  const added = newest.filter((s) => !known.has(keyOf(s)));
  return [...added, ...current.map((s) => fresh.get(keyOf(s)) ?? s)];
}
