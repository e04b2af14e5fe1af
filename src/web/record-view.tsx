// A whole session record drawn read-only: breadcrumb, one line of facts, then every turn with the
// dashboard's own turn, tool call and subagent components. Shared by the exported HTML file and the
// hub's web app, which get a record and nothing to page.
import type { ComponentChildren } from 'preact';
import type { SessionRecord } from '../record/types.js';
import { AgentChip } from './agent-chip.js';
import { compactCount, duration, localDateTime } from './format.js';
import { projectName } from './list-model.js';
import { totalTokens } from './session-list.js';
import { TurnList } from './turn-view.js';
import { visibleText } from './visible-text.js';

/** The facts line of a record: branch, times, turns, tokens, cost, subagents, models. */
export function recordFacts(record: SessionRecord, turns = record.turns.length, subagents = countSubagents(record)): string[] {
  return [
    record.branch,
    `${localDateTime(record.started_at)} → ${localDateTime(record.ended_at).slice(11)}`,
    duration(record.started_at, record.ended_at),
    `${turns} turns`,
    `${compactCount(totalTokens(record.totals))} tokens`,
    record.totals.cost_usd !== null ? `$${record.totals.cost_usd.toFixed(2)}` : null,
    subagents > 0 ? `${subagents} subagents` : null,
    record.models.join(', '),
  ]
    .filter((f): f is string => f !== null && f !== '')
    .map(visibleText);
}

export function countSubagents(record: SessionRecord): number {
  return record.turns.reduce((n, t) => n + (t.tool_calls ?? []).filter((c) => c.subagent !== undefined).length, 0);
}

/** The title a record shows: its name, else its first ask, else its id. */
export function recordTitle(record: SessionRecord, name: string | null): string {
  return name ?? record.turns.find((t) => t.role === 'user')?.text.slice(0, 80) ?? record.session_id;
}

export interface RecordViewProps {
  record: SessionRecord;
  name: string | null;
  /** A control drawn before the breadcrumb (the hub's "back to the list"). */
  back?: ComponentChildren;
}

export function RecordView({ record, name, back }: RecordViewProps) {
  return (
    <section class="transcript-pane" aria-label="Transcript">
      <header class="header">
        <nav aria-label="Breadcrumb">
          <ol class="crumbs">
            <li>
              {back}
              <AgentChip agent={record.agent} />
            </li>
            <li title={record.repo}>{visibleText(projectName(record.repo) || 'no repository')}</li>
            <li>{visibleText(recordTitle(record, name))}</li>
          </ol>
        </nav>
        <div class="facts">{recordFacts(record).join(' · ')}</div>
      </header>
      <div class="transcript" tabIndex={-1}>
        <TurnList turns={record.turns} depth={0} focus={null} />
      </div>
    </section>
  );
}
