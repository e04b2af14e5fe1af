// The transcript pane: the header, then a window of the session record's turns paged through the
// server (older turns as the person scrolls up, newer ones below when the window does not reach the
// end), the hit a search opened marked and centred, new turns followed live through the events
// stream, and a "last seen" line.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { SearchHit, SessionRecord, SessionSummary, TurnsBody, Turn } from '../server/api-types.js';
import { ApiError, fetchTurns, locate, sessionPath, type TurnsParams } from './api.js';
import type { DeepTarget } from './deep-search.js';
import { sessionKey } from './list-model.js';
import { stepPrompt } from './prompt-nav.js';
import { markSeen, seenOf } from './seen-store.js';
import { TranscriptHeader } from './transcript-header.js';
import { TurnView } from './turn-view.js';

/** Turns fetched per page, up or down. */
export const turnWindow = 80;

export interface TranscriptControl {
  prompt(dir: 1 | -1): void;
  top(): void;
  latest(): void;
  toggleSteps(): void;
}

export interface TranscriptProps {
  agent: string;
  id: string;
  summary: SessionSummary | null;
  hit: SearchHit | null;
  /** Opened from a deep search hit: the first turn holding its term is marked. */
  deep: DeepTarget | null;
  control: { current: TranscriptControl | null };
  onRenamed: (name: string) => void;
  onBack: () => void;
}

/**
 * The loaded part of the record: turns [base, base + turns.length) of `total`. A `partial` window is
 * the newest turns of a big session's tail read: the turns above it are not counted yet.
 */
interface Loaded {
  record: SessionRecord;
  total: number;
  base: number;
  turns: Turn[];
  partial: boolean;
}

type Scroll = 'focus' | 'bottom' | 'top' | 'seen' | { keepFrom: number };

const nearBottom = (el: HTMLElement): boolean => el.scrollHeight - el.scrollTop - el.clientHeight < 48;
const staleNotice = (state: string, reason: string): string =>
  `${state === 'stale' ? 'The hit is stale' : 'The hit is unavailable'}: ${reason}. Showing the transcript from the end.`;
const windowOf = (b: TurnsBody): Loaded => ({ record: b.record, total: b.total, base: b.start, turns: b.turns, partial: b.partial });
/** How many entries a `replay_end` event says the replay sent. */
function replayed(e: Event): number {
  try {
    const data: unknown = JSON.parse((e as MessageEvent<string>).data);
    const n = typeof data === 'object' && data !== null ? (data as { entries?: unknown }).entries : undefined;
    return typeof n === 'number' ? n : 0;
  } catch {
    return 0;
  }
}

/** Whether turns lie above the window (counted, or not yet counted above a tail read). */
const hasOlder = (l: Loaded): boolean => l.base > 0 || l.partial;

export function Transcript({ agent, id, summary, hit, deep, control, onRenamed, onBack }: TranscriptProps) {
  const key = sessionKey({ agent, session_id: id });
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [focus, setFocus] = useState<number[] | null>(null);
  const [hasNew, setHasNew] = useState(false);
  const [lastSeen, setLastSeen] = useState<number | null>(null);
  /** Where the live stream starts: set from the first page of each opened session (undefined until then). */
  const [followFrom, setFollowFrom] = useState<number | null | undefined>(undefined);
  const scroller = useRef<HTMLDivElement>(null);
  const pendingScroll = useRef<Scroll | null>(null);
  const pane = useRef<HTMLElement>(null);
  const busy = useRef(false);
  const current = useRef<Loaded | null>(null);
  current.current = loaded;
  // After `g` the next `j` means the first prompt, even while the scroll to the top is still under way.
  const fromTop = useRef(false);

  const page = useCallback((params: TurnsParams, signal?: AbortSignal) => fetchTurns(agent, id, params, signal), [agent, id]);

  // Load the window around the hit, the last-seen line or the end whenever another session or hit is opened.
  useEffect(() => {
    const abort = new AbortController();
    setLoaded(null);
    setError(null);
    setNotice(null);
    setFocus(null);
    setHasNew(false);
    setFollowFrom(undefined);
    const seen = seenOf(key);
    const params: TurnsParams = { limit: turnWindow };
    if (hit !== null) params.match = { role: hit.role, ts_ms: hit.ts_ms, text: hit.snippet };
    else if (deep !== null) {
      params.match = { role: '', ts_ms: 0, text: deep.term };
      params.line = { file: deep.file, offset: deep.offset };
    } else if (seen !== null) params.around = seen.turns;
    void (async () => {
      try {
        const [body, located] = await Promise.all([
          page(params, abort.signal),
          hit === null ? Promise.resolve(null) : locate(agent, id, hit.locator, abort.signal),
        ]);
        let path: number[] | null = null;
        if (located !== null) {
          if (located.result.state !== 'resolved') setNotice(staleNotice(located.result.state, located.result.reason));
          else if (body.focus !== null) path = body.focus;
          else setNotice('The message was found in the log but not among the drawn turns: showing the whole transcript.');
        } else if (deep !== null) {
          if (body.focus !== null) path = body.focus;
          else
            setNotice(
              `Line ${deep.line} of ${deep.file} holds “${deep.term}” outside the drawn turns (a tool result or a machinery line): showing the transcript from the end.`,
            );
        }
        const seenTurns = hit === null && deep === null && seen !== null && seen.turns < body.total ? seen.turns : null;
        setLastSeen(seenTurns);
        setFocus(path);
        pendingScroll.current = path !== null ? 'focus' : seenTurns !== null ? 'seen' : 'bottom';
        setLoaded(windowOf(body));
        setFollowFrom(body.follow_from);
      } catch (e) {
        if (abort.signal.aborted) return;
        setError(e instanceof ApiError ? e.message : `The transcript could not be read: ${String(e)}`);
        setFollowFrom(null);
      }
    })();
    return () => abort.abort();
  }, [agent, id, hit, deep, key, page]);

  /** Runs one page request at a time; `apply` gets the answer and the window it was asked for. */
  const run = useCallback(
    async (params: TurnsParams, apply: (body: TurnsBody, was: Loaded) => void) => {
      const was = current.current;
      if (busy.current || was === null) return;
      busy.current = true;
      try {
        apply(await page(params), was);
      } catch (e) {
        setError(e instanceof ApiError ? e.message : `The transcript could not be read: ${String(e)}`);
      } finally {
        busy.current = false;
      }
    },
    [page],
  );

  const refresh = useCallback(async () => {
    const was = current.current;
    if (was === null) return;
    if (was.partial) {
      // A tail read's window counts only its own turns: the newest turns are read again whole.
      await run({ limit: Math.max(turnWindow, was.turns.length) }, (body) => {
        const el = scroller.current;
        if (el !== null && nearBottom(el)) pendingScroll.current = 'bottom';
        else if (body.turns.length > 0) setHasNew(true);
        setLoaded(windowOf(body));
      });
      return;
    }
    const end = was.base + was.turns.length;
    const following = end >= was.total;
    // The last drawn turn may have grown (more tool calls): it is read again with what follows.
    await run({ from: following ? Math.max(was.base, end - 1) : was.total, limit: following ? 1000 : 1 }, (body, w) => {
      const el = scroller.current;
      if (following && body.start >= w.base) {
        const atEnd = el !== null && nearBottom(el);
        setLoaded({
          record: body.record,
          total: body.total,
          base: w.base,
          turns: [...w.turns.slice(0, body.start - w.base), ...body.turns],
          partial: false,
        });
        if (atEnd) pendingScroll.current = 'bottom';
        else setHasNew(true);
      } else {
        setLoaded({ ...w, record: body.record, total: body.total });
        if (body.total > w.total) setHasNew(true);
      }
    });
  }, [run]);

  // Live follow: the events stream from where the first page's read ended; any new entry re-reads the tail.
  // It opens once that page says where (no second request to learn it: a detail page of an 87 MB
  // transcript indexed every line of it first, beside the page being read).
  useEffect(() => {
    if (followFrom === undefined) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const schedule = (): void => {
      if (timer !== null) return;
      timer = setTimeout(() => {
        timer = null;
        void refresh();
      }, 150);
    };
    // Without the end offset the stream replays from the start, and the replay itself is not news.
    const source = new EventSource(`${sessionPath(agent, id)}/events${followFrom === null ? '' : `?last_event_id=${followFrom}`}`);
    let live = false;
    source.addEventListener('replay_end', (e) => {
      // From the page's end, whatever the replay held was appended after that page was read.
      if (live || (followFrom !== null && replayed(e) > 0)) schedule();
      live = true;
    });
    source.addEventListener('entry', () => {
      if (live) schedule();
    });
    source.addEventListener('restart', () => schedule());
    return () => {
      source.close();
      if (timer !== null) clearTimeout(timer);
    };
  }, [agent, id, refresh, followFrom]);

  // Scrolling after a draw: centre the hit, reach an end, or keep the view still when older turns appear above.
  useLayoutEffect(() => {
    const el = scroller.current;
    const want = pendingScroll.current;
    if (el === null || want === null || loaded === null) return;
    pendingScroll.current = null;
    if (want === 'focus') el.querySelector('[aria-current="true"]')?.scrollIntoView({ block: 'center' });
    else if (want === 'seen') el.querySelector('.last-seen')?.scrollIntoView({ block: 'start' });
    else if (want === 'bottom') el.scrollTop = el.scrollHeight;
    else if (want === 'top') el.scrollTop = 0;
    else el.scrollTop += el.scrollHeight - want.keepFrom;
    // A transcript that fits, or one opened at its end, has been read to the end without a scroll event.
    if (nearBottom(el) && !loaded.partial && loaded.base + loaded.turns.length >= loaded.total)
      markSeen(key, { turns: loaded.total, ended_at: loaded.record.ended_at });
  });

  const loadOlder = useCallback(() => {
    const was = current.current;
    if (was === null || !hasOlder(was)) return;
    // Above a tail read the page is named from the end: the server counts the turns once, here.
    const params: TurnsParams = was.partial ? { before_end: was.turns.length, limit: turnWindow } : { before: was.base, limit: turnWindow };
    void run(params, (body, w) => {
      pendingScroll.current = { keepFrom: scroller.current?.scrollHeight ?? 0 };
      setLoaded({ record: body.record, total: body.total, base: body.start, turns: [...body.turns, ...w.turns], partial: false });
    });
  }, [run]);

  const loadNewer = useCallback(() => {
    const was = current.current;
    if (was === null || was.base + was.turns.length >= was.total) return;
    void run({ from: was.base + was.turns.length, limit: turnWindow }, (body, w) => {
      setLoaded({ ...w, record: body.record, total: body.total, turns: [...w.turns, ...body.turns] });
    });
  }, [run]);

  const onScroll = (): void => {
    const el = scroller.current;
    if (el === null || loaded === null) return;
    if (el.scrollTop < 200 && hasOlder(loaded)) loadOlder();
    if (nearBottom(el)) {
      if (loaded.base + loaded.turns.length < loaded.total) loadNewer();
      else {
        if (hasNew) setHasNew(false);
        if (!loaded.partial) markSeen(key, { turns: loaded.total, ended_at: loaded.record.ended_at });
      }
    }
  };

  const latest = useCallback(() => {
    const was = current.current;
    if (was === null) return;
    setHasNew(false);
    if (was.base + was.turns.length < was.total)
      void run({ limit: turnWindow }, (body) => {
        pendingScroll.current = 'bottom';
        setLoaded(windowOf(body));
      });
    else if (scroller.current !== null) scroller.current.scrollTop = scroller.current.scrollHeight;
  }, [run]);

  control.current = {
    prompt: (dir) => {
      const el = pane.current?.querySelector<HTMLElement>('.transcript');
      const start = fromTop.current;
      fromTop.current = false;
      if (el !== null && el !== undefined) stepPrompt(el, dir, start);
    },
    top: () => {
      fromTop.current = true;
      (document.activeElement as HTMLElement | null)?.blur();
      const was = current.current;
      if (was !== null && hasOlder(was))
        void run({ from: 0, limit: turnWindow }, (body) => {
          pendingScroll.current = 'top';
          setLoaded(windowOf(body));
        });
      else requestAnimationFrame(() => scroller.current?.scrollTo({ top: 0 }));
    },
    latest,
    toggleSteps: () => {
      const card =
        (document.activeElement as HTMLElement | null)?.closest('[data-subagent-card]') ??
        scroller.current?.querySelector('[data-subagent-card]');
      card?.querySelector<HTMLButtonElement>('.steps-toggle')?.click();
    },
  };

  const turns = loaded?.turns ?? [];
  const base = loaded?.base ?? 0;
  const below = loaded === null ? 0 : loaded.total - base - turns.length;
  const title = summary?.name ?? summary?.first_ask ?? turns.find((t) => t.role === 'user')?.text.slice(0, 80) ?? id;
  const subagents =
    summary?.subagents ?? turns.reduce((n, t) => n + (t.tool_calls ?? []).filter((c) => c.subagent !== undefined).length, 0);

  return (
    <section class="transcript-pane" aria-label="Transcript" ref={pane}>
      <TranscriptHeader
        agent={agent}
        id={id}
        title={title}
        summary={summary}
        record={loaded === null || loaded.partial ? null : loaded.record}
        total={loaded === null || loaded.partial ? null : loaded.total}
        subagents={subagents}
        onRenamed={onRenamed}
        onBack={onBack}
        onPrompt={(dir) => control.current?.prompt(dir)}
      />
      <div class="transcript" ref={scroller} onScroll={onScroll} tabIndex={-1}>
        {notice !== null ? (
          <p class="notice" role="status">
            {notice}
          </p>
        ) : null}
        {error !== null ? (
          <p class="notice" role="alert">
            {error}
          </p>
        ) : null}
        {loaded === null && error === null ? <div class="skeleton" aria-hidden="true" /> : null}
        {loaded?.partial === true ? (
          <button type="button" class="button load-older" onClick={loadOlder}>
            Show {turnWindow} older turns
          </button>
        ) : base > 0 ? (
          <button type="button" class="button load-older" onClick={loadOlder}>
            Show {Math.min(base, turnWindow)} older turns ({base} not drawn)
          </button>
        ) : null}
        {turns.map((turn, k) => {
          const i = base + k;
          const mine = focus !== null && focus[0] === i;
          return (
            <div key={i}>
              {lastSeen === i ? <div class="last-seen">last seen</div> : null}
              <TurnView turn={turn} depth={0} index={i} current={mine && focus.length === 1} focus={mine ? focus.slice(1) : null} />
            </div>
          );
        })}
        {below > 0 ? (
          <button type="button" class="button load-older" onClick={loadNewer}>
            Show {Math.min(below, turnWindow)} newer turns ({below} not drawn)
          </button>
        ) : null}
        {hasNew ? (
          <button type="button" class="button jump-latest" onClick={latest}>
            Jump to latest ↓
          </button>
        ) : null}
      </div>
    </section>
  );
}
