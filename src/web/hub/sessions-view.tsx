// The hub's Agent sessions list: the signed-in person's agent_log sources, newest first, filtered by
// project and agent, fifty at a time with "Load more".
import { useEffect, useState } from 'preact/hooks';
import type { SourceRow } from '../../hub/store.js';
import { AgentChip } from '../agent-chip.js';
import { localDateTime } from '../format.js';
import { visibleText } from '../visible-text.js';
import { listSessions, type SourceFilter } from './hub-api.js';

export interface SessionsViewProps {
  filter: SourceFilter;
  selected: string | null;
  onOpen: (row: SourceRow) => void;
}

export function SessionsView({ filter, selected, onOpen }: SessionsViewProps) {
  const [rows, setRows] = useState<SourceRow[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    setRows([]);
    setCursor(null);
    setLoading(true);
    setError(null);
    listSessions(filter, null, abort.signal).then(
      (b) => {
        setRows(b.sources);
        setCursor(b.cursor);
        setLoading(false);
      },
      (e: unknown) => {
        if (abort.signal.aborted) return;
        setError(e instanceof Error ? e.message : String(e));
        setLoading(false);
      },
    );
    return () => abort.abort();
  }, [filter.project, filter.agent]);

  const more = (): void => {
    if (cursor === null || loading) return;
    setLoading(true);
    listSessions(filter, cursor).then(
      (b) => {
        setRows((r) => [...r, ...b.sources]);
        setCursor(b.cursor);
        setLoading(false);
      },
      (e: unknown) => {
        setError(e instanceof Error ? e.message : String(e));
        setLoading(false);
      },
    );
  };

  return (
    <div class="hub-sessions">
      <div class="list-head">
        <h2>
          Agent sessions ({rows.length}
          {cursor !== null ? '+' : ''})
        </h2>
      </div>
      {error !== null ? (
        <p class="notice" role="alert">
          {error}
        </p>
      ) : null}
      {!loading && rows.length === 0 && error === null ? (
        <p class="empty" role="status">
          No agent sessions{filter.project !== '' || filter.agent !== '' ? ' match these filters' : ' yet: run agentlog sync to send some'}.
        </p>
      ) : null}
      <ul class="hub-list" aria-label="Agent sessions">
        {rows.map((r) => (
          <li key={r.id} class={r.id === selected ? 'selected' : undefined}>
            <button type="button" class="hub-row" aria-current={r.id === selected ? 'true' : undefined} onClick={() => onOpen(r)}>
              <span class="hub-row-title">{visibleText(r.title || r.session_id || r.id)}</span>
              <span class="hub-row-meta">
                {r.agent !== null ? <AgentChip agent={r.agent} /> : null} {visibleText(r.project ?? 'no project')} ·{' '}
                <time dateTime={r.started_at ?? r.created_at}>{localDateTime(r.started_at ?? r.created_at)}</time>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {cursor !== null ? (
        <button type="button" class="button hub-more" onClick={more} disabled={loading}>
          Load more
        </button>
      ) : null}
      {loading ? <div class="skeleton" aria-hidden="true" /> : null}
    </div>
  );
}
