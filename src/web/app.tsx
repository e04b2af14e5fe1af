// The dashboard: top bar (search, filters, theme), the session list with its message lane, the
// transcript, the palette and the key table. State lives here; the parts take plain props.
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { MessageSearchBody, SearchHit } from '../server/api-types.js';
import { afterNextPaint } from './after-paint.js';
import { messageSearch } from './api.js';
import type { DeepTarget } from './deep-search.js';
import { keyAction, keyTable } from './keymap.js';
import { lazyPart } from './lazy-part.js';
import { buildRows, type Filters, type ListRow, noFilters, projectName, sessionKey } from './list-model.js';
import { type LaneState, MessageLane } from './message-lane.js';
import { Modal } from './modal.js';
import { PaneSplitter, storedListWidth } from './pane-splitter.js';
import { hasUnseen } from './seen-store.js';
import { SessionList } from './session-list.js';
import { applyTheme, effectiveTheme, type Theme } from './theme.js';
import type { TranscriptControl } from './transcript.js';
import { useSessions } from './use-sessions.js';

// Kept out of the first script: the list draws without them, and they load just after it (or at once
// when the page opens on a transcript).
const laterParts = () => import('./later-parts.js');
const Transcript = lazyPart('the transcript', () => laterParts().then((m) => m.Transcript));
const UsageChart = lazyPart('the usage chart', () => laterParts().then((m) => m.UsageChart));
const Palette = lazyPart('the palette', () => laterParts().then((m) => m.Palette));
const DeepSearch = lazyPart('the raw-log search', () => laterParts().then((m) => m.DeepSearch));
const later = [Transcript, UsageChart, Palette, DeepSearch];

interface Opened {
  agent: string;
  id: string;
  hit: SearchHit | null;
  deep?: DeepTarget;
}

function openedFromHash(): Opened | null {
  const m = /^#\/s\/([^/]+)\/(.+)$/.exec(location.hash);
  if (m === null) return null;
  try {
    return { agent: decodeURIComponent(m[1] as string), id: decodeURIComponent(m[2] as string), hit: null };
  } catch {
    return null;
  }
}

const messageLaneOn = !/^(off|0)$/i.test(new URLSearchParams(location.search).get('message_search') ?? '');

export function App() {
  const [list, , updateSessions] = useSessions();
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [includeSuperseded, setIncludeSuperseded] = useState(false);
  const [lane, setLane] = useState<LaneState<MessageSearchBody>>({ status: 'idle' });
  const [opened, setOpened] = useState<Opened | null>(openedFromHash);
  const [palette, setPalette] = useState(false);
  const [help, setHelp] = useState(false);
  const [theme, setTheme] = useState<Theme>(effectiveTheme);
  const [now, setNow] = useState(Date.now());
  const [listWidth, setListWidth] = useState(storedListWidth);
  const [deep, setDeep] = useState<string | null>(null);
  // The palette's part mounts on first use and stays (it keeps its own state between openings).
  const [paletteUsed, setPaletteUsed] = useState(false);
  // True from the frame after the first rows were drawn: then the parts the list did not need load.
  const [settled, setSettled] = useState(false);
  const search = useRef<HTMLInputElement>(null);
  const control = useRef<TranscriptControl | null>(null);
  const supersededRef = useRef(includeSuperseded);
  supersededRef.current = includeSuperseded;

  const laneRef = useRef<MessageLane<MessageSearchBody> | null>(null);
  useEffect(() => {
    const l = new MessageLane<MessageSearchBody>((q, signal) => messageSearch(q, supersededRef.current, signal), setLane);
    laneRef.current = l;
    return () => l.dispose();
  }, []);
  useEffect(() => {
    // Follow the system's light/dark switch unless the person chose one with the toggle.
    const media = matchMedia('(prefers-color-scheme: dark)');
    const onChange = (): void => setTheme(effectiveTheme());
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  useEffect(() => {
    if (list.loading || settled) return;
    let live = true;
    void afterNextPaint().then(() => {
      if (!live) return;
      setSettled(true);
      for (const part of later) void part.preload();
    });
    return () => {
      live = false;
    };
  }, [list.loading, settled]);
  useEffect(() => {
    if (palette) setPaletteUsed(true);
  }, [palette]);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  useEffect(() => {
    const onHash = (): void =>
      setOpened((o) => {
        const h = openedFromHash();
        if (h === null) return null;
        return o !== null && o.agent === h.agent && o.id === h.id ? o : h;
      });
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  const open = useCallback((session: { agent: string; session_id: string }, hit: SearchHit | null, deepTarget?: DeepTarget) => {
    setOpened({ agent: session.agent, id: session.session_id, hit, ...(deepTarget !== undefined ? { deep: deepTarget } : {}) });
    const hash = `#/s/${encodeURIComponent(session.agent)}/${encodeURIComponent(session.session_id)}`;
    if (location.hash !== hash) history.pushState(null, '', hash);
  }, []);
  const back = useCallback(() => {
    setOpened(null);
    if (location.hash !== '') history.pushState(null, '', location.pathname + location.search);
  }, []);

  const groups = lane.status === 'done' ? lane.body.sessions : null;
  const rows = useMemo(() => buildRows(list.sessions, filters, groups), [list.sessions, filters, groups]);
  const agents = useMemo(() => [...new Set(list.sessions.map((s) => s.agent))].sort(), [list.sessions]);
  const repos = useMemo(() => [...new Set(list.sessions.map((s) => s.repo).filter((r) => r !== ''))].sort(), [list.sessions]);
  const openedKey = opened === null ? null : sessionKey({ agent: opened.agent, session_id: opened.id });
  const openedSummary = useMemo(() => list.sessions.find((s) => sessionKey(s) === openedKey) ?? null, [list.sessions, openedKey]);

  const setQuery = (q: string): void => {
    setFilters((f) => ({ ...f, query: q }));
    if (messageLaneOn) laneRef.current?.input(q);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const t = e.target as HTMLElement | null;
      const inField = t !== null && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
      const action = keyAction({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, inField });
      if (action === null) return;
      if ((palette || help) && action !== 'palette') return;
      switch (action) {
        case 'palette':
          e.preventDefault();
          setPalette((p) => !p);
          return;
        case 'focus-search':
          e.preventDefault();
          search.current?.focus();
          search.current?.select();
          return;
        case 'escape':
          if (t === search.current && filters.query !== '') setQuery('');
          else if (inField) (t as HTMLElement).blur();
          else if (opened !== null) back();
          return;
        case 'help':
          setHelp(true);
          return;
        case 'next-prompt':
          control.current?.prompt(1);
          return;
        case 'previous-prompt':
          control.current?.prompt(-1);
          return;
        case 'top':
          control.current?.top();
          return;
        case 'latest':
          control.current?.latest();
          return;
        case 'toggle-steps':
          control.current?.toggleSteps();
          return;
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  const toggleTheme = (): void => {
    const next: Theme = theme === 'dark' ? 'light' : 'dark';
    applyTheme(next);
    setTheme(next);
  };

  const searching = filters.query.trim() !== '';
  const coverage = lane.status === 'done' ? lane.body : null;

  return (
    <div class="shell">
      <div class="topbar">
        <span class="brand">agentlog</span>
        <div class="search">
          <input
            ref={search}
            type="search"
            aria-label="Search sessions and messages"
            placeholder="Search sessions and messages…"
            value={filters.query}
            onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') {
                e.preventDefault();
                document.querySelector<HTMLElement>('.list-scroll .row-open')?.focus();
              }
            }}
          />
          <kbd class="search-hint">⌘K</kbd>
        </div>
        <div class="filters">
          <select
            aria-label="Agent"
            value={filters.agent}
            onChange={(e) => setFilters((f) => ({ ...f, agent: (e.target as HTMLSelectElement).value }))}
          >
            <option value="">all agents</option>
            {agents.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
          <select
            aria-label="Repository"
            value={filters.repo}
            onChange={(e) => setFilters((f) => ({ ...f, repo: (e.target as HTMLSelectElement).value }))}
          >
            <option value="">all repositories</option>
            {repos.map((r) => (
              <option key={r} value={r} title={r}>
                {projectName(r)}
              </option>
            ))}
          </select>
          <input
            type="date"
            aria-label="Active on day"
            value={filters.day}
            onChange={(e) => setFilters((f) => ({ ...f, day: (e.target as HTMLInputElement).value }))}
          />
        </div>
        <span class="spacer" />
        <button type="button" class="icon-button" aria-label="Go to (Ctrl-K)" onClick={() => setPalette(true)}>
          Go to…
        </button>
        <button
          type="button"
          class="icon-button"
          aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
          onClick={toggleTheme}
        >
          {theme === 'dark' ? '☀' : '◐'}
        </button>
        <button type="button" class="icon-button" aria-label="Keyboard shortcuts" onClick={() => setHelp(true)}>
          ?
        </button>
      </div>
      <div class="banner" role="status">
        {list.error ?? ''}
      </div>
      <div class={`panes${opened !== null ? ' open' : ''}`} style={{ '--list-width': `${listWidth}px` }}>
        <div class="list-pane">
          <div class="list-head">
            <h2>
              Sessions ({rows.length.toLocaleString('en')}
              {searching || filters.agent !== '' || filters.repo !== '' || filters.day !== ''
                ? ` of ${list.sessions.length.toLocaleString('en')}`
                : ''}
              {list.more && !list.loading ? '…' : ''})
            </h2>
            <span class="spacer" />
            {messageLaneOn && searching ? (
              <label>
                <input
                  type="checkbox"
                  checked={includeSuperseded}
                  onChange={(e) => {
                    setIncludeSuperseded((e.target as HTMLInputElement).checked);
                    supersededRef.current = (e.target as HTMLInputElement).checked;
                    laneRef.current?.refresh();
                  }}
                />
                superseded
              </label>
            ) : null}
            {lane.status === 'loading' ? <span class="searching">searching…</span> : null}
            {/* The message index is a rolling window: say what a hit (or its absence) covers every time. */}
            {searching && coverage !== null ? <span class="coverage">messages of the last {coverage.window_days} days</span> : null}
            {searching && filters.query.trim().length >= 2 && deep === null ? (
              <button type="button" class="link-button" onClick={() => setDeep(filters.query.trim())}>
                Search the raw logs
              </button>
            ) : null}
          </div>
          {deep !== null ? (
            <DeepSearch
              query={deep}
              sessions={list.sessions}
              onOpen={(h, target) => open(h, null, target)}
              onClose={() => setDeep(null)}
              fallback={<p class="muted">Loading the raw-log search…</p>}
            />
          ) : list.loading ? (
            <div aria-hidden="true">
              {[0, 1, 2, 3, 4, 5].map((i) => (
                <div key={i} class="skeleton" />
              ))}
            </div>
          ) : rows.length === 0 ? (
            <div class="empty" role="status">
              {searching
                ? `Nothing matches “${filters.query.trim()}” in ${list.sessions.length.toLocaleString('en')} sessions${coverage !== null ? ` (messages searched over the last ${coverage.window_days} days)` : ''}.`
                : 'No sessions yet: run an agent, or check that its home is where agentlog looks (agentlog doctor).'}
              {lane.status === 'error' ? ` ${lane.message}` : ''}
            </div>
          ) : (
            <SessionList
              rows={rows}
              selectedKey={openedKey}
              nowMs={now}
              unseen={(row: ListRow) => hasUnseen(row.key, row.session.ended_at)}
              onOpen={(row, hit) => open(row.session, hit)}
            />
          )}
          {settled ? (
            <UsageChart
              theme={theme}
              width={listWidth}
              fallback={
                <section class="usage" aria-label="Usage, last 30 days">
                  <div class="usage-head">
                    <h2>Usage, last 30 days</h2>
                  </div>
                </section>
              }
            />
          ) : null}
        </div>
        <PaneSplitter width={listWidth} onWidth={setListWidth} />
        {opened !== null ? (
          <Transcript
            key={`${openedKey}`}
            agent={opened.agent}
            id={opened.id}
            summary={openedSummary}
            hit={opened.hit}
            deep={opened.deep ?? null}
            control={control}
            onBack={back}
            onRenamed={(name) => updateSessions((all) => all.map((s) => (sessionKey(s) === openedKey ? { ...s, name } : s)))}
            fallback={
              <section class="transcript-pane" aria-label="Transcript" aria-busy="true">
                <p class="placeholder">Loading the transcript…</p>
              </section>
            }
          />
        ) : (
          <section class="transcript-pane" aria-label="Transcript">
            <p class="placeholder">
              Pick a session on the left, search with <kbd>/</kbd>, or jump with <kbd>Ctrl</kbd> <kbd>K</kbd>. Press <kbd>?</kbd> for every
              key.
            </p>
          </section>
        )}
      </div>
      {palette || paletteUsed ? (
        <Palette
          open={palette}
          sessions={list.sessions}
          messagesEnabled={messageLaneOn}
          onClose={() => setPalette(false)}
          onPick={(s, hit) => {
            setPalette(false);
            open(s, hit);
          }}
        />
      ) : null}
      <Modal open={help} label="Keyboard shortcuts" onClose={() => setHelp(false)} className="help-dialog">
        <div class="help">
          <table>
            <tbody>
              {keyTable.map(([k, d]) => (
                <tr key={k}>
                  <td>
                    <kbd>{k}</kbd>
                  </td>
                  <td>{d}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>
            <button type="button" class="button" onClick={() => setHelp(false)}>
              Close
            </button>
          </p>
        </div>
      </Modal>
    </div>
  );
}
