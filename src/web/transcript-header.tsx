// The transcript's header: breadcrumb (agent › project › session), one line of facts, and the
// actions (rename, report zip, HTML export, prompt buttons).
import type { SessionRecord, SessionSummary } from '../server/api-types.js';
import { AgentChip } from './agent-chip.js';
import { sessionPath } from './api.js';
import { compactCount, duration, localDateTime } from './format.js';
import { projectName } from './list-model.js';
import { recordFacts } from './record-view.js';
import { RenameControl } from './rename-control.js';
import { SharingControl } from './sharing-control.js';
import { totalTokens } from './session-list.js';
import { visibleText } from './visible-text.js';

export interface TranscriptHeaderProps {
  agent: string;
  id: string;
  title: string;
  summary: SessionSummary | null;
  /** The record's header (its turns are not needed), once loaded. */
  record: SessionRecord | null;
  total: number | null;
  subagents: number;
  onRenamed: (name: string) => void;
  onBack: () => void;
  onPrompt: (dir: 1 | -1) => void;
}

function facts(p: TranscriptHeaderProps): string {
  const { record, summary } = p;
  const kept = summary?.root === 'kept' ? 'kept copy' : null;
  const list =
    record !== null
      ? [...recordFacts(record, p.total ?? record.turns.length, p.subagents), kept]
      : summary !== null
        ? [
            summary.branch,
            `${localDateTime(summary.started_at)} → ${localDateTime(summary.ended_at).slice(11)}`,
            duration(summary.started_at, summary.ended_at),
            `${summary.turns} turns`,
            `${compactCount(totalTokens(summary.totals))} tokens`,
            summary.subagents > 0 ? `${summary.subagents} subagents` : null,
            kept,
          ]
        : [];
  return list
    .filter((f): f is string => f !== null && f !== '')
    .map(visibleText)
    .join(' · ');
}

export function TranscriptHeader(p: TranscriptHeaderProps) {
  const { agent, id, summary } = p;
  const repo = p.record?.repo ?? summary?.repo ?? '';
  const line = facts(p);
  return (
    <header class="header">
      <nav aria-label="Breadcrumb">
        <ol class="crumbs">
          <li>
            <button type="button" class="link-button back" onClick={p.onBack} aria-label="Back to the session list">
              ←
            </button>{' '}
            <AgentChip agent={agent} />
          </li>
          <li title={repo}>{visibleText(projectName(repo) || 'no repository')}</li>
          <li>{visibleText(p.title)}</li>
        </ol>
      </nav>
      {line !== '' ? <div class="facts">{line}</div> : null}
      <SharingControl agent={agent} id={id} />
      <div class="actions">
        <RenameControl agent={agent} id={id} current={summary?.name ?? null} onRenamed={p.onRenamed} />
        <a class="button" href={`${sessionPath(agent, id)}/report.zip`} download={`${agent}-${id}.zip`}>
          Download report (.zip)
        </a>
        <a class="button" href={`${sessionPath(agent, id)}/export.html`} download={`${agent}-${id}.html`}>
          Export as HTML
        </a>
        <span class="prompt-nav">
          <button type="button" class="icon-button" aria-label="Previous prompt (k)" onClick={() => p.onPrompt(-1)}>
            ↑ k
          </button>
          <button type="button" class="icon-button" aria-label="Next prompt (j)" onClick={() => p.onPrompt(1)}>
            ↓ j
          </button>
        </span>
      </div>
    </header>
  );
}
