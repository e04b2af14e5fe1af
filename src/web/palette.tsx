// The ⌘K / Ctrl-K palette (seed 000): sessions by name or id, then a Messages section from the
// message lane (superseded messages left out) whose entries open the transcript at the hit.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { MessageSearchBody, SearchHit, SessionSummary } from '../server/api-types.js';
import { messageSearch } from './api.js';
import { HitSnippet } from './hit-snippet.js';
import { matchesMetadata, sessionKey, sessionTitle } from './list-model.js';
import { type LaneState, MessageLane } from './message-lane.js';
import { Modal } from './modal.js';
import { visibleText } from './visible-text.js';

interface Option {
  id: string;
  session: { agent: string; session_id: string };
  hit: SearchHit | null;
  label: string;
}

export interface PaletteProps {
  open: boolean;
  sessions: readonly SessionSummary[];
  messagesEnabled: boolean;
  onClose: () => void;
  onPick: (session: { agent: string; session_id: string }, hit: SearchHit | null) => void;
}

const maxEach = 8;

export function Palette({ open, sessions, messagesEnabled, onClose, onPick }: PaletteProps) {
  return (
    <Modal open={open} label="Go to" onClose={onClose} className="palette">
      <PaletteBody sessions={sessions} messagesEnabled={messagesEnabled} onPick={onPick} />
    </Modal>
  );
}

function PaletteBody({ sessions, messagesEnabled, onPick }: Omit<PaletteProps, 'open' | 'onClose'>) {
  const [query, setQuery] = useState('');
  const [lane, setLane] = useState<LaneState<MessageSearchBody>>({ status: 'idle' });
  const [active, setActive] = useState(0);
  const laneRef = useRef<MessageLane<MessageSearchBody> | null>(null);
  useEffect(() => {
    const l = new MessageLane<MessageSearchBody>((q, signal) => messageSearch(q, false, signal), setLane);
    laneRef.current = l;
    return () => l.dispose();
  }, []);

  const sessionOptions = useMemo<Option[]>(() => {
    const q = query.trim();
    const matched = q === '' ? sessions.slice(0, maxEach) : sessions.filter((s) => matchesMetadata(s, q)).slice(0, maxEach);
    return matched.map((s) => ({ id: `s-${sessionKey(s)}`, session: s, hit: null, label: sessionTitle(s) }));
  }, [query, sessions]);
  const titles = useMemo(() => new Map(sessions.map((s) => [sessionKey(s), sessionTitle(s)])), [sessions]);
  const messageOptions: Option[] =
    lane.status === 'done'
      ? lane.body.sessions
          .flatMap((g) =>
            g.hits
              .slice(0, 2)
              .map((h, i) => ({ id: `m-${g.session_key}-${i}`, session: g, hit: h, label: titles.get(g.session_key) ?? g.session_id })),
          )
          .slice(0, maxEach)
      : [];
  const options = [...sessionOptions, ...messageOptions];
  const clamped = Math.min(active, Math.max(0, options.length - 1));

  const pick = (o: Option | undefined): void => {
    if (o !== undefined) onPick(o.session, o.hit);
  };

  const item = (o: Option, index: number) => (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input drives the options by keyboard (aria-activedescendant).
    // biome-ignore lint/a11y/useFocusableInteractive: focus stays in the input; the active option is announced from there.
    // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA listbox pattern with grouped options.
    <li key={o.id} id={o.id} role="option" aria-selected={index === clamped} onMouseMove={() => setActive(index)} onClick={() => pick(o)}>
      {o.hit === null ? (
        <>
          {visibleText(o.label)}{' '}
          <span class="muted mono">
            {o.session.agent} · {o.session.session_id.slice(0, 8)}
          </span>
        </>
      ) : (
        <>
          <span class="muted">{visibleText(o.label)} · </span>
          <HitSnippet hit={o.hit} />
        </>
      )}
    </li>
  );

  return (
    <div>
      <input
        type="text"
        role="combobox"
        aria-label="Go to session or message"
        aria-expanded="true"
        aria-controls="palette-options"
        aria-activedescendant={options[clamped]?.id}
        placeholder="Session name or id, or words from a message…"
        value={query}
        ref={(el) => el?.focus()}
        onInput={(e) => {
          const v = (e.target as HTMLInputElement).value;
          setQuery(v);
          setActive(0);
          if (messagesEnabled) laneRef.current?.input(v);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive(Math.min(options.length - 1, clamped + 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive(Math.max(0, clamped - 1));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            pick(options[clamped]);
          }
        }}
      />
      <div id="palette-options" role="listbox" aria-label="Results">
        <h3 id="palette-sessions">Sessions</h3>
        {/* biome-ignore lint/a11y/useSemanticElements: option groups inside the listbox. */}
        <ul role="group" aria-labelledby="palette-sessions">
          {sessionOptions.map((o, i) => item(o, i))}
          {sessionOptions.length === 0 ? (
            <li class="muted" role="presentation">
              No session by that name or id
            </li>
          ) : null}
        </ul>
        {messagesEnabled && query.trim().length >= 2 ? (
          <>
            <h3 id="palette-messages">Messages</h3>
            {/* biome-ignore lint/a11y/useSemanticElements: option groups inside the listbox. */}
            <ul role="group" aria-labelledby="palette-messages">
              {messageOptions.map((o, i) => item(o, sessionOptions.length + i))}
              {lane.status === 'loading' ? (
                <li class="muted" role="presentation">
                  Searching…
                </li>
              ) : null}
              {lane.status === 'done' && messageOptions.length === 0 ? (
                <li class="muted" role="presentation">
                  No message says that
                </li>
              ) : null}
              {lane.status === 'error' ? (
                <li class="muted" role="presentation">
                  {lane.message}
                </li>
              ) : null}
            </ul>
          </>
        ) : null}
      </div>
    </div>
  );
}
