// Deep search in the list pane: every line of every session's files (tool output included) searched
// on the server (GET /api/sessions/deep-search, NDJSON), hits shown as they stream in, stoppable;
// opening one draws its session at the first turn holding the term.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DeepSearchHit, DeepSearchLine, DeepSearchSummary, SessionSummary } from '../server/api-types.js';
import { AgentChip } from './agent-chip.js';
import { sessionKey, sessionTitle } from './list-model.js';
import { visibleText } from './visible-text.js';

/** Where a deep hit opens: the session, and the term the transcript is searched for. */
export interface DeepTarget {
  term: string;
  line: number;
  file: string;
  /** The line's byte offset in `file`: the server reads the line to find the turn holding it. */
  offset: number;
}

/** The snippet cut at the UTF-16 `ranges` the server sent: [text, marked] pieces in order. */
export function rangePieces(snippet: string, ranges: readonly [number, number][]): [string, boolean][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [string, boolean][] = [];
  let at = 0;
  for (const [s, e] of sorted) {
    const start = Math.max(at, s);
    if (e <= start) continue;
    if (start > at) out.push([snippet.slice(at, start), false]);
    out.push([snippet.slice(start, e), true]);
    at = e;
  }
  if (at < snippet.length) out.push([snippet.slice(at), false]);
  return out;
}

/** Reads an NDJSON response line by line. */
async function* ndjson(res: Response): AsyncGenerator<DeepSearchLine> {
  const reader = res.body?.getReader();
  if (reader === undefined) return;
  const decoder = new TextDecoder();
  let rest = '';
  for (;;) {
    const { done, value } = await reader.read();
    rest += decoder.decode(value, { stream: !done });
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') yield JSON.parse(line) as DeepSearchLine;
    if (done) break;
  }
}

export interface DeepSearchProps {
  query: string;
  sessions: readonly SessionSummary[];
  onOpen: (hit: DeepSearchHit, target: DeepTarget) => void;
  onClose: () => void;
}

export function DeepSearch({ query, sessions, onOpen, onClose }: DeepSearchProps) {
  const [hits, setHits] = useState<DeepSearchHit[]>([]);
  const [summary, setSummary] = useState<DeepSearchSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(true);
  const stop = useRef<AbortController | null>(null);
  const byKey = new Map(sessions.map((s) => [sessionKey(s), s]));
  const terms = query.split(/\s+/).filter((t) => t !== '');
  const term = terms.reduce((a, b) => (b.length > a.length ? b : a), '');

  useEffect(() => {
    const abort = new AbortController();
    stop.current = abort;
    setHits([]);
    setSummary(null);
    setError(null);
    setRunning(true);
    void (async () => {
      try {
        const res = await fetch(`/api/sessions/deep-search?${new URLSearchParams({ q: query, timeout_ms: '15000' })}`, {
          credentials: 'same-origin',
          signal: abort.signal,
        });
        if (!res.ok) {
          const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
          throw new Error(body?.error?.message ?? `the server answered ${res.status}`);
        }
        let batch: DeepSearchHit[] = [];
        let last = performance.now();
        for await (const line of ndjson(res)) {
          if (line.type === 'summary') setSummary(line);
          else batch.push(line);
          // Hits are drawn in batches so a burst of them costs one render per frame or so.
          if (batch.length > 0 && (performance.now() - last > 100 || line.type === 'summary')) {
            const add = batch;
            batch = [];
            last = performance.now();
            setHits((h) => [...h, ...add]);
          }
        }
        if (batch.length > 0) setHits((h) => [...h, ...batch]);
      } catch (e) {
        if (!abort.signal.aborted) setError(e instanceof Error ? e.message : String(e));
      } finally {
        if (!abort.signal.aborted) setRunning(false);
      }
    })();
    return () => abort.abort();
  }, [query]);

  const sessionCount = new Set(hits.map((h) => sessionKey(h))).size;
  const status = error
    ? `Deep search failed: ${error}`
    : running
      ? `Searching every line of the logs for “${query}”… ${hits.length} hits so far`
      : summary === null
        ? `Stopped: ${hits.length} hits`
        : `${summary.hits} hits in ${sessionCount} sessions · ${summary.files_scanned} files, ${(summary.bytes_scanned / 1048576).toFixed(1)} MB in ${summary.elapsed_ms} ms${
            summary.stopped === 'timeout'
              ? ' · stopped at the time limit'
              : summary.stopped === 'hit_limit'
                ? ' · stopped at the hit limit'
                : ''
          }`;

  return (
    <section class="deep-search" aria-label="Deep search">
      <div class="deep-head">
        <p role="status" class="deep-status">
          {visibleText(status)}
        </p>
        {running ? (
          <button
            type="button"
            class="button"
            onClick={() => {
              stop.current?.abort();
              setRunning(false);
            }}
          >
            Stop
          </button>
        ) : null}
        <button type="button" class="button" onClick={onClose}>
          Close deep search
        </button>
      </div>
      <ul class="deep-hits" aria-label="Deep search hits">
        {hits.map((h) => {
          const s = byKey.get(sessionKey(h));
          const title = s !== undefined ? sessionTitle(s) : h.session_id;
          return (
            <li key={`${h.agent}:${h.file}:${h.offset}`}>
              <button type="button" class="deep-hit" onClick={() => onOpen(h, { term, line: h.line, file: h.file, offset: h.offset })}>
                <span class="deep-where">
                  <AgentChip agent={h.agent} /> {visibleText(title)} <span class="muted">· line {h.line}</span>
                </span>
                <span class="deep-snippet">
                  {rangePieces(h.snippet, h.ranges).map(([text, marked], i) =>
                    marked ? <mark key={i}>{visibleText(text)}</mark> : <span key={i}>{visibleText(text)}</span>,
                  )}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
