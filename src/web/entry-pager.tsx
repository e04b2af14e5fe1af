// The quick view of a long transcript: custody's entries (role, time, one-line preview) paged from
// the end with the API's `before` as the person scrolls up, new ones appended live from the events
// stream. Used where drawing the whole record first would take seconds (issue 12 "never all at once").
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { DetailEntry, LocateResult, SearchHit, SessionDetailBody } from '../server/api-types.js';
import { ApiError, sessionPath } from './api.js';
import { localDateTime, localTime } from './format.js';
import { visibleText } from './visible-text.js';

export const entryPage = 80;

async function page(agent: string, id: string, params: Record<string, string>, signal: AbortSignal): Promise<SessionDetailBody> {
  const res = await fetch(`${sessionPath(agent, id)}?${new URLSearchParams(params)}`, { credentials: 'same-origin', signal });
  const body = (await res.json().catch(() => null)) as SessionDetailBody | { ok: false; error: { code: string; message: string } } | null;
  if (body === null || body.ok !== true)
    throw new ApiError(res.status, body?.error.code ?? 'http', body?.error.message ?? `The server answered ${res.status}.`);
  return body;
}

function label(e: DetailEntry): string {
  if (e.role === 'user') return 'You';
  if (e.role === 'assistant') return 'Assistant';
  return e.role ?? e.subtype ?? e.type ?? e.kind;
}

export interface EntryPagerProps {
  agent: string;
  id: string;
  hit: SearchHit | null;
  onLocate: (result: LocateResult) => void;
}

export function EntryPager({ agent, id, hit, onLocate }: EntryPagerProps) {
  const [entries, setEntries] = useState<DetailEntry[]>([]);
  const [start, setStart] = useState(0);
  const [current, setCurrent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const scroller = useRef<HTMLDivElement>(null);
  const keepFrom = useRef<number | null>(null);
  const first = useRef(true);

  useEffect(() => {
    const abort = new AbortController();
    const params: Record<string, string> = { limit: String(entryPage) };
    if (hit !== null) params.locate = JSON.stringify(hit.locator);
    page(agent, id, params, abort.signal).then(
      (body) => {
        setEntries(body.entries);
        setStart(body.page_start);
        setLoading(false);
        if (body.locate !== undefined) {
          onLocate(body.locate);
          if (body.locate.state === 'resolved') setCurrent(body.entries[body.locate.entry_index]?.index ?? null);
        }
      },
      (e: unknown) => {
        if (!abort.signal.aborted) setError(e instanceof Error ? e.message : String(e));
      },
    );
    return () => abort.abort();
  }, [agent, id, hit, onLocate]);

  const older = useCallback(() => {
    if (loading || start === 0) return;
    setLoading(true);
    keepFrom.current = scroller.current?.scrollHeight ?? null;
    page(agent, id, { limit: String(entryPage), before: String(start) }, new AbortController().signal).then(
      (body) => {
        setEntries((all) => [...body.entries.filter((e) => e.index < start), ...all]);
        setStart(Math.min(start, body.page_start));
        setLoading(false);
      },
      (e: unknown) => {
        setError(e instanceof Error ? e.message : String(e));
        setLoading(false);
      },
    );
  }, [agent, id, loading, start]);

  // Live: entries after the last one drawn arrive on the events stream, resumed from its byte offset.
  const last = entries[entries.length - 1];
  const resumeAt = last === undefined ? null : last.offset + last.bytes + 1;
  const haveEntries = entries.length > 0;
  useEffect(() => {
    if (!haveEntries || resumeAt === null) return;
    const source = new EventSource(`${sessionPath(agent, id)}/events?last_event_id=${resumeAt}`);
    source.addEventListener('entry', (ev) => {
      const entry = JSON.parse((ev as MessageEvent<string>).data) as DetailEntry;
      setEntries((all) => {
        const tail = all[all.length - 1];
        if (tail !== undefined && entry.offset <= tail.offset) return all;
        return [...all, { ...entry, index: (tail?.index ?? -1) + 1 }];
      });
    });
    return () => source.close();
    // The stream is opened once per session view; later entries come through it.
  }, [agent, id, haveEntries]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el === null || entries.length === 0) return;
    if (keepFrom.current !== null) {
      el.scrollTop += el.scrollHeight - keepFrom.current;
      keepFrom.current = null;
    } else if (first.current) {
      first.current = false;
      const mark = el.querySelector('[aria-current="true"]');
      if (mark !== null) mark.scrollIntoView({ block: 'center' });
      else el.scrollTop = el.scrollHeight;
    }
  });

  return (
    <div class="transcript entries" ref={scroller} tabIndex={-1} onScroll={() => (scroller.current?.scrollTop ?? 1) < 200 && older()}>
      {error !== null ? (
        <p class="notice" role="alert">
          {error}
        </p>
      ) : null}
      {start > 0 ? (
        <button type="button" class="button load-older" onClick={older}>
          Show older entries ({start} above)
        </button>
      ) : null}
      {entries.map((e) => (
        <article
          key={e.index}
          class={`turn entry ${e.role === 'user' ? 'user' : 'assistant'}${e.index === current ? ' current' : ''}`}
          aria-current={e.index === current ? 'true' : undefined}
          data-prompt={e.role === 'user' ? '' : undefined}
          tabIndex={-1}
        >
          <div class="turn-label">
            {visibleText(label(e))} ·{' '}
            {e.timestamp !== null ? (
              <time dateTime={e.timestamp} title={e.timestamp}>
                {localTime(e.timestamp) || localDateTime(e.timestamp)}
              </time>
            ) : null}
          </div>
          <div class="typed">{visibleText(e.preview)}</div>
        </article>
      ))}
    </div>
  );
}
