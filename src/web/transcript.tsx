// The transcript pane: breadcrumb, facts and actions, then the turns of the session record drawn in
// windows of turns (older ones added as the person scrolls up), the hit a search opened marked and
// centred, new turns followed live through the events stream, and a "last seen" line.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { LocateResult, RecordBody, SearchHit, SessionSummary } from '../server/api-types.js';
import { AgentChip } from './agent-chip.js';
import { ApiError, fetchRecord, locate, sessionPath } from './api.js';
import { EntryPager } from './entry-pager.js';
import { compactCount, duration, localDateTime } from './format.js';
import { projectName, sessionKey } from './list-model.js';
import { stepPrompt } from './prompt-nav.js';
import { RenameControl } from './rename-control.js';
import { markSeen, seenOf } from './seen-store.js';
import { totalTokens } from './session-list.js';
import { findHitTurn, flatPath } from './turn-match.js';
import { TurnView } from './turn-view.js';
import { visibleText } from './visible-text.js';

/** Turns added per window when scrolling up (the record is drawn a window at a time). */
export const turnWindow = 80;
/** Past this many turns the record takes seconds to build: the entries view opens first. */
export const bigSessionTurns = 600;

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
  control: { current: TranscriptControl | null };
  onRenamed: (name: string) => void;
  onBack: () => void;
}

const nearBottom = (el: HTMLElement): boolean => el.scrollHeight - el.scrollTop - el.clientHeight < 48;

export function Transcript({ agent, id, summary, hit, control, onRenamed, onBack }: TranscriptProps) {
  const key = sessionKey({ agent, session_id: id });
  const [record, setRecord] = useState<RecordBody | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [focus, setFocus] = useState<number[] | null>(null);
  const [from, setFrom] = useState(0);
  const [hasNew, setHasNew] = useState(false);
  const [lastSeen, setLastSeen] = useState<number | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const pendingScroll = useRef<'focus' | 'bottom' | 'seen' | { keepFrom: number } | null>(null);
  const pane = useRef<HTMLElement>(null);
  // After `g` the next `j` means the first prompt, even while the scroll to the top is still under way.
  const fromTop = useRef(false);
  const [mode, setMode] = useState<'record' | 'entries'>(summary !== null && summary.turns > bigSessionTurns ? 'entries' : 'record');
  const onLocate = useCallback((result: LocateResult) => {
    if (result.state !== 'resolved')
      setNotice(
        `${result.state === 'stale' ? 'The hit is stale' : 'The hit is unavailable'}: ${result.reason}. Showing the transcript from the end.`,
      );
  }, []);

  // Load the record (and resolve the hit) whenever another session or hit is opened.
  useEffect(() => {
    const abort = new AbortController();
    setRecord(null);
    setError(null);
    setNotice(null);
    setFocus(null);
    setHasNew(false);
    const seen = seenOf(key);
    if (mode !== 'record') return;
    void (async () => {
      try {
        const [rec, located] = await Promise.all([
          fetchRecord(agent, id, abort.signal),
          hit === null ? Promise.resolve(null) : locate(agent, id, hit.locator, abort.signal),
        ]);
        let path: number[] | null = null;
        if (located !== null && hit !== null) {
          if (located.result.state === 'resolved') {
            const found = findHitTurn(rec.turns, { role: hit.role, ts_ms: hit.ts_ms, text: hit.snippet });
            if (found !== null) path = flatPath(found);
            else setNotice('The message was found in the log but not among the drawn turns: showing the whole transcript.');
          } else
            setNotice(
              `${located.result.state === 'stale' ? 'The hit is stale' : 'The hit is unavailable'}: ${located.result.reason}. Showing the transcript from the end.`,
            );
        }
        const n = rec.turns.length;
        const seenTurns = seen !== null && seen.turns < n ? seen.turns : null;
        const anchor = path?.[0] ?? seenTurns ?? n;
        setLastSeen(seenTurns);
        setFrom(Math.max(0, Math.min(n - turnWindow, anchor - turnWindow / 2)));
        setFocus(path);
        pendingScroll.current = path !== null ? 'focus' : seenTurns !== null ? 'seen' : 'bottom';
        setRecord(rec);
      } catch (e) {
        if (abort.signal.aborted) return;
        setError(e instanceof ApiError ? e.message : `The transcript could not be read: ${String(e)}`);
      }
    })();
    return () => abort.abort();
  }, [agent, id, hit, key, mode]);

  const refresh = useCallback(async () => {
    try {
      const rec = await fetchRecord(agent, id);
      const el = scroller.current;
      const atEnd = el !== null && nearBottom(el);
      setRecord(rec);
      if (atEnd) pendingScroll.current = 'bottom';
      else setHasNew(true);
    } catch {
      // The next event (or the person) retries; the drawn transcript stays.
    }
  }, [agent, id]);

  // Live follow: the events stream from the current end of the file; any new entry re-reads the record.
  useEffect(() => {
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    if (mode !== 'record') return;
    let closed = false;
    const schedule = (): void => {
      if (timer !== null) return;
      timer = setTimeout(() => {
        timer = null;
        void refresh();
      }, 150);
    };
    void (async () => {
      let resume = '';
      try {
        const res = await fetch(`${sessionPath(agent, id)}?limit=1`, { credentials: 'same-origin' });
        const body = (await res.json()) as { entries?: { offset: number; bytes: number }[] };
        const last = body.entries?.[body.entries.length - 1];
        if (last !== undefined) resume = `?last_event_id=${last.offset + last.bytes + 1}`;
      } catch {
        // Without the end offset the stream replays from the start; entries before replay_end are ignored.
      }
      if (closed) return;
      let live = false;
      source = new EventSource(`${sessionPath(agent, id)}/events${resume}`);
      source.addEventListener('replay_end', () => {
        if (live) schedule();
        live = true;
      });
      source.addEventListener('entry', () => {
        if (live) schedule();
      });
      source.addEventListener('restart', () => schedule());
    })();
    return () => {
      closed = true;
      source?.close();
      if (timer !== null) clearTimeout(timer);
    };
  }, [agent, id, refresh, mode]);

  // Scrolling after a draw: centre the hit, reach the end, or keep the view still when older turns appear above.
  useLayoutEffect(() => {
    const el = scroller.current;
    const want = pendingScroll.current;
    if (el === null || want === null || record === null) return;
    pendingScroll.current = null;
    if (want === 'focus') el.querySelector('[aria-current="true"]')?.scrollIntoView({ block: 'center' });
    else if (want === 'seen') el.querySelector('.last-seen')?.scrollIntoView({ block: 'start' });
    else if (want === 'bottom') el.scrollTop = el.scrollHeight;
    else el.scrollTop += el.scrollHeight - want.keepFrom;
    // A transcript that fits, or one opened at its end, has been read to the end without a scroll event.
    if (nearBottom(el)) markSeen(key, { turns: record.turns.length, ended_at: record.ended_at });
  });

  const loadOlder = useCallback(() => {
    const el = scroller.current;
    if (el === null || from === 0) return;
    pendingScroll.current = { keepFrom: el.scrollHeight };
    setFrom(Math.max(0, from - turnWindow));
  }, [from]);

  const onScroll = (): void => {
    const el = scroller.current;
    if (el === null || record === null) return;
    if (el.scrollTop < 200 && from > 0) loadOlder();
    const atEnd = nearBottom(el);
    if (atEnd) {
      if (hasNew) setHasNew(false);
      markSeen(key, { turns: record.turns.length, ended_at: record.ended_at });
    }
  };

  const latest = useCallback(() => {
    const el = scroller.current;
    if (el === null || record === null) return;
    if (from < Math.max(0, record.turns.length - turnWindow)) setFrom(Math.max(0, record.turns.length - turnWindow));
    pendingScroll.current = 'bottom';
    setHasNew(false);
    el.scrollTop = el.scrollHeight;
  }, [from, record]);

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
      setFrom(0);
      requestAnimationFrame(() => scroller.current?.scrollTo({ top: 0 }));
    },
    latest,
    toggleSteps: () => {
      const card =
        (document.activeElement as HTMLElement | null)?.closest('[data-subagent-card]') ??
        scroller.current?.querySelector('[data-subagent-card]');
      card?.querySelector<HTMLButtonElement>('.steps-toggle')?.click();
    },
  };

  const title = summary?.name ?? summary?.first_ask ?? record?.turns.find((t) => t.role === 'user')?.text.slice(0, 80) ?? id;
  const repo = record?.repo ?? summary?.repo ?? '';
  const turns = record?.turns ?? [];
  const subagents = turns.reduce((n, t) => n + (t.tool_calls ?? []).filter((c) => c.subagent !== undefined).length, 0);

  return (
    <section class="transcript-pane" aria-label="Transcript" ref={pane}>
      <header class="header">
        <nav aria-label="Breadcrumb">
          <ol class="crumbs">
            <li>
              <button type="button" class="link-button back" onClick={onBack} aria-label="Back to the session list">
                ←
              </button>{' '}
              <AgentChip agent={agent} />
            </li>
            <li title={repo}>{visibleText(projectName(repo) || 'no repository')}</li>
            <li>{visibleText(title)}</li>
          </ol>
        </nav>
        {record !== null ? (
          <div class="facts">
            {[
              record.branch,
              `${localDateTime(record.started_at)} → ${localDateTime(record.ended_at).slice(11)}`,
              duration(record.started_at, record.ended_at),
              `${turns.length} turns`,
              `${compactCount(totalTokens(record.totals))} tokens`,
              record.totals.cost_usd !== null ? `$${record.totals.cost_usd.toFixed(2)}` : null,
              subagents > 0 ? `${subagents} subagents` : null,
              record.models.join(', '),
              summary?.root === 'kept' ? 'kept copy' : null,
            ]
              .filter((f): f is string => f !== null && f !== '')
              .map(visibleText)
              .join(' · ')}
          </div>
        ) : summary !== null ? (
          <div class="facts">
            {[
              summary.branch,
              `${localDateTime(summary.started_at)} → ${localDateTime(summary.ended_at).slice(11)}`,
              duration(summary.started_at, summary.ended_at),
              `${summary.turns} turns`,
              `${compactCount(totalTokens(summary.totals))} tokens`,
              summary.subagents > 0 ? `${summary.subagents} subagents` : null,
              summary.root === 'kept' ? 'kept copy' : null,
            ]
              .filter((f): f is string => f !== null && f !== '')
              .map(visibleText)
              .join(' · ')}
          </div>
        ) : null}
        <div class="actions">
          <RenameControl agent={agent} id={id} current={summary?.name ?? null} onRenamed={onRenamed} />
          <a class="button" href={`${sessionPath(agent, id)}/report.zip`} download={`${agent}-${id}.zip`}>
            Download report (.zip)
          </a>
          {mode === 'entries' ? (
            <button type="button" class="button" onClick={() => setMode('record')}>
              Draw the full transcript ({summary?.turns ?? '?'} turns)
            </button>
          ) : null}
          <span class="prompt-nav">
            <button type="button" class="icon-button" aria-label="Previous prompt (k)" onClick={() => control.current?.prompt(-1)}>
              ↑ k
            </button>
            <button type="button" class="icon-button" aria-label="Next prompt (j)" onClick={() => control.current?.prompt(1)}>
              ↓ j
            </button>
          </span>
        </div>
      </header>
      {mode === 'entries' ? (
        <div class="entries-wrap">
          {notice !== null ? (
            <p class="notice" role="status">
              {notice}
            </p>
          ) : null}
          <EntryPager agent={agent} id={id} hit={hit} onLocate={onLocate} />
        </div>
      ) : (
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
          {record === null && error === null ? <div class="skeleton" aria-hidden="true" /> : null}
          {from > 0 ? (
            <button type="button" class="button load-older" onClick={loadOlder}>
              Show {Math.min(from, turnWindow)} older turns ({from} not drawn)
            </button>
          ) : null}
          {turns.slice(from).map((turn, k) => {
            const i = from + k;
            const mine = focus !== null && focus[0] === i;
            return (
              <div key={i}>
                {lastSeen === i ? <div class="last-seen">last seen</div> : null}
                <TurnView turn={turn} depth={0} index={i} current={mine && focus.length === 1} focus={mine ? focus.slice(1) : null} />
              </div>
            );
          })}
          {hasNew ? (
            <button type="button" class="button jump-latest" onClick={latest}>
              Jump to latest ↓
            </button>
          ) : null}
        </div>
      )}
    </section>
  );
}
