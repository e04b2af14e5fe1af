// The session list: one virtualised row per session (design brief "A list row"), message hits
// under their session, ↑/↓ to move and Enter to open.
import { useEffect, useRef } from 'preact/hooks';
import type { SearchHit } from '../server/api-types.js';
import { AgentChip } from './agent-chip.js';
import { compactCount, localDateTime, relativeTime } from './format.js';
import { HitBadges, HitSnippet } from './hit-snippet.js';
import { type ListRow, maxHitsShown, projectName, rowHeight, sessionTitle } from './list-model.js';
import { useVirtual } from './use-virtual.js';
import { visibleText } from './visible-text.js';

export interface SessionListProps {
  rows: ListRow[];
  selectedKey: string | null;
  unseen: (row: ListRow) => boolean;
  nowMs: number;
  onOpen: (row: ListRow, hit: SearchHit | null) => void;
}

export function SessionList({ rows, selectedKey, unseen, nowMs, onOpen }: SessionListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virt = useVirtual(
    rows.length,
    (i) => rowHeight(rows[i] as ListRow),
    () => scroller.current,
    (i) => rows[i]?.key ?? String(i),
  );
  useEffect(() => {
    virt.measure();
  }, [rows, virt]);

  const focusRow = (index: number): void => {
    const clamped = Math.max(0, Math.min(rows.length - 1, index));
    virt.scrollToIndex(clamped, { align: 'auto' });
    requestAnimationFrame(() => {
      scroller.current?.querySelector<HTMLElement>(`[data-index="${clamped}"] .row-open`)?.focus();
    });
  };

  // Arrow keys move between the rows' open buttons (listened on the scroller, where focus sits inside).
  const keys = useRef<(e: KeyboardEvent) => void>(() => undefined);
  useEffect(() => {
    const el = scroller.current;
    const listener = (e: KeyboardEvent): void => keys.current(e);
    el?.addEventListener('keydown', listener);
    return () => el?.removeEventListener('keydown', listener);
  }, []);
  keys.current = (e: KeyboardEvent): void => {
    const target = e.target as HTMLElement;
    const rowEl = target.closest<HTMLElement>('[data-index]');
    const index = rowEl === null ? -1 : Number(rowEl.dataset.index);
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      focusRow(index + 1);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      focusRow(index - 1);
    } else if (e.key === 'Home') {
      e.preventDefault();
      focusRow(0);
    } else if (e.key === 'End') {
      e.preventDefault();
      focusRow(rows.length - 1);
    }
  };

  return (
    <div class="list-scroll" ref={scroller}>
      <ul class="list-inner" aria-label="Sessions" style={{ height: `${virt.getTotalSize()}px` }}>
        {virt.getVirtualItems().map((item) => {
          const row = rows[item.index] as ListRow;
          const s = row.session;
          const title = sessionTitle(s);
          const selected = row.key === selectedKey;
          return (
            <li
              key={row.key}
              aria-setsize={rows.length}
              aria-posinset={item.index + 1}
              data-index={item.index}
              class={`row${selected ? ' selected' : ''}`}
              style={{ top: `${item.start}px`, height: `${item.size}px` }}
            >
              {s.growing ? (
                <span class="dot live" title="live: still being written" />
              ) : unseen(row) ? (
                <span class="dot unseen" title="new output since you last looked" />
              ) : null}
              <div class="row-line1">
                <AgentChip agent={s.agent} />
                <span class="repo mono" title={s.repo}>
                  {visibleText(projectName(s.repo))}
                  {s.branch !== null ? ` · ${visibleText(s.branch)}` : ''}
                </span>
                {s.root === 'kept' ? <span class="badge">kept</span> : null}
                {s.subagents > 0 ? <span title={`${s.subagents} subagents`}>{s.subagents} sub</span> : null}
                {s.turns > 0 ? <span title={`${s.turns} turns`}>{s.turns} turns</span> : null}
                <span title={`${compactCount(totalTokens(s.totals))} tokens`}>{compactCount(totalTokens(s.totals))}</span>
                <time dateTime={s.ended_at ?? s.started_at ?? ''} title={localDateTime(s.ended_at ?? s.started_at)}>
                  {relativeTime(s.ended_at ?? s.started_at, nowMs)}
                </time>
              </div>
              <button
                type="button"
                class="row-open link-reset row-title"
                aria-current={selected ? 'true' : undefined}
                onClick={() => onOpen(row, null)}
              >
                {visibleText(title)}
              </button>
              {row.hits.slice(0, maxHitsShown).map((hit, i) => (
                <div class="hit" key={i}>
                  <button type="button" aria-label={`Open hit in ${title}: ${hit.snippet.slice(0, 80)}`} onClick={() => onOpen(row, hit)}>
                    <span class="role">{hit.role === 'user' ? 'You' : 'Assistant'}</span>
                    <HitSnippet hit={hit} /> <HitBadges hit={hit} />
                  </button>
                </div>
              ))}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function totalTokens(t: {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_creation_tokens: number;
}): number {
  return t.input_tokens + t.output_tokens + t.cache_read_tokens + t.cache_creation_tokens;
}
