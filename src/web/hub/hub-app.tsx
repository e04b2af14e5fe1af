// The hub's web app (issue 13 "The web app at /"): sign in with a token, the Agent sessions view with
// project and agent filters, a session drawn turn by turn with the dashboard's own components, and a
// search over notes with the same project filter.
import { useEffect, useState } from 'preact/hooks';
import type { SessionBody } from '../../hub/api-types.js';
import type { SourceRow } from '../../hub/store.js';
import type { SessionRecord } from '../../record/types.js';
import { agentIds } from '../../record/types.js';
import { RecordView } from '../record-view.js';
import { visibleText } from '../visible-text.js';
import { HubError, projects, readSource, type SourceFilter, signOut, whoAmI } from './hub-api.js';
import { NotesSearch } from './notes-search.js';
import { recordOf } from './record-shape.js';
import { SessionsView } from './sessions-view.js';
import { SignIn } from './sign-in.js';

type Opened = { row: SourceRow; record: SessionRecord | null; error: string | null };

function Workspace({ who, onSignedOut }: { who: SessionBody; onSignedOut: (notice: string | null) => void }) {
  const [filter, setFilter] = useState<SourceFilter>({ project: '', agent: '' });
  const [projectList, setProjectList] = useState<{ project: string; sources: number }[]>([]);
  const [opened, setOpened] = useState<Opened | null>(null);
  const [query, setQuery] = useState('');

  useEffect(() => {
    const abort = new AbortController();
    projects(abort.signal).then(
      (b) => setProjectList(b.projects),
      () => undefined,
    );
    return () => abort.abort();
  }, []);

  useEffect(() => {
    if (opened === null || opened.record !== null || opened.error !== null) return;
    const abort = new AbortController();
    const row = opened.row;
    readSource(row.id, abort.signal).then(
      (b) => {
        const record = recordOf(b.body);
        setOpened({ row, record, error: record === null ? 'This source is not a session record this page can draw.' : null });
      },
      (e: unknown) => {
        if (abort.signal.aborted) return;
        if (e instanceof HubError && e.status === 401) onSignedOut('Signed out: sign in again.');
        else setOpened({ row, record: null, error: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => abort.abort();
  }, [opened]);

  const searching = query.trim().length >= 2;
  return (
    <div class="shell">
      <div class="topbar">
        <span class="brand">agentlog hub</span>
        <div class="search">
          <input
            type="search"
            aria-label="Search notes"
            placeholder="Search notes…"
            value={query}
            onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
          />
        </div>
        <div class="filters">
          <select
            aria-label="Project"
            value={filter.project}
            onChange={(e) => setFilter((f) => ({ ...f, project: (e.target as HTMLSelectElement).value }))}
          >
            <option value="">all projects</option>
            {projectList.map((p) => (
              <option key={p.project} value={p.project}>
                {visibleText(`${p.project} (${p.sources})`)}
              </option>
            ))}
          </select>
          <select
            aria-label="Agent"
            value={filter.agent}
            onChange={(e) => setFilter((f) => ({ ...f, agent: (e.target as HTMLSelectElement).value }))}
          >
            <option value="">all agents</option>
            {agentIds.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <span class="spacer" />
        <span class="muted">{visibleText(`${who.user} · ${who.workspace}`)}</span>
        <button
          type="button"
          class="button"
          onClick={() => {
            void signOut().finally(() => onSignedOut(null));
          }}
        >
          Sign out
        </button>
      </div>
      <div class={`panes hub-panes${opened !== null || searching ? ' open' : ''}`}>
        <div class="list-pane">
          <SessionsView
            filter={filter}
            selected={opened?.row.id ?? null}
            onOpen={(row) => {
              setQuery('');
              setOpened({ row, record: null, error: null });
            }}
          />
        </div>
        {searching ? (
          <NotesSearch query={query.trim()} project={filter.project} />
        ) : opened === null ? (
          <section class="transcript-pane" aria-label="Transcript">
            <p class="placeholder">Pick a session on the left, or search the notes.</p>
          </section>
        ) : opened.record !== null ? (
          <RecordView
            key={opened.row.id}
            record={opened.record}
            name={opened.row.title !== '' ? opened.row.title : null}
            back={
              <button type="button" class="link-button back" aria-label="Back to the session list" onClick={() => setOpened(null)}>
                ←
              </button>
            }
          />
        ) : (
          <section class="transcript-pane" aria-label="Transcript">
            {opened.error !== null ? (
              <p class="notice" role="alert">
                {opened.error}
              </p>
            ) : (
              <div class="skeleton" aria-hidden="true" />
            )}
          </section>
        )}
      </div>
    </div>
  );
}

export function HubApp() {
  const [who, setWho] = useState<SessionBody | null | 'unknown'>('unknown');
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    whoAmI().then(setWho, () => setWho(null));
  }, []);
  if (who === 'unknown') return <div class="skeleton" aria-hidden="true" />;
  if (who === null) return <SignIn notice={notice} onSignedIn={setWho} />;
  return (
    <Workspace
      who={who}
      onSignedOut={(n) => {
        setNotice(n);
        setWho(null);
      }}
    />
  );
}
