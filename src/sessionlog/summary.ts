// The end of a session: `summary.json` (the compact terminal record), `session_summary.json` (the
// statistics beside it), meta status `completed` and the `session_end` row.
import { join } from 'node:path';
import { localDateTime } from './clock.js';
import { updateMetaSync, type SessionMeta } from './meta.js';
import { files } from './paths.js';
import { writeFileAtomicSync } from '../fs/atomic-write.js';
import type { SessionCore } from './session-core.js';

export interface SummaryInput {
  /** e.g. `completed`, `failed`, `cancelled`. */
  outcome: string;
  /** Defaults to the meta's task. */
  task?: string;
  /** Defaults to the current turn. */
  totalTurns?: number;
  /** Defaults to the rounds the meta already counts (never reset to absent). */
  rounds?: number;
}

function pretty(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function writeSummary(core: SessionCore, input: SummaryInput): SessionMeta {
  core.assertOpen();
  const now = core.now();
  const totalTurns = input.totalTurns ?? core.turn;
  const meta = updateMetaSync(
    core.dir,
    (current) => ({
      ...(current ?? { session_id: core.sessionId }),
      status: 'completed',
      last_turn: totalTurns,
      ...(input.rounds !== undefined ? { rounds: input.rounds } : {}),
    }),
    now,
  );
  const summary: Record<string, unknown> = {
    task: input.task ?? meta.task ?? '',
    outcome: input.outcome,
    total_turns: totalTurns,
    session_id: core.sessionId,
    session_dir: core.dir,
    ended_at: localDateTime(now, ' '),
    ended_at_ms: now,
  };
  if (meta.rounds !== undefined) summary.rounds = meta.rounds;
  core.sidecar(files.summary, () => writeFileAtomicSync(join(core.dir, files.summary), pretty(summary)));
  core.emit(
    {
      event: 'session_end',
      level: 'info',
      message: `Session ended: ${input.outcome} (${totalTurns} turns)`,
      data: { outcome: input.outcome, total_turns: totalTurns },
      file: files.summary,
      turn: null,
    },
    now,
  );
  writeSessionSummary(core, now);
  return meta;
}

/** The statistics record; the voice/computer-use fields keep their shape with empty values. */
export function writeSessionSummary(core: SessionCore, now = core.now()): void {
  const s = core.stats;
  const body = {
    duration_secs: s.firstTsMs === undefined ? 0 : Math.max(0, (now - s.firstTsMs) / 1000),
    voice_provider: null,
    voice_model: null,
    voice_connections: 0,
    voice_reconnects: 0,
    model_turns: s.modelTurns,
    cu_tasks: [],
    frames_sent: 0,
    errors: s.errors,
    user_transcripts: [],
    total_tokens: s.totalTokens,
  };
  core.sidecar(files.sessionSummary, () => writeFileAtomicSync(join(core.dir, files.sessionSummary), pretty(body)));
}
