// Context snapshots: the exact request a model received, as a compact JSON sidecar, rotated to
// the latest one per (source, session) stream. The predecessor is deleted only after the new row
// is durably flushed, so the last durable row never names a deleted file (seed "On-Disk Layout").
import { randomUUID } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { files, turnFile } from './paths.js';
import { snapshotStreamKey } from './resume-state.js';
import type { SessionCore } from './session-core.js';
import { isContainedPath, writeSidecar } from './sidecar.js';

export interface ContextSnapshotInput {
  /** The stream's source (`native`, `codex`…); rotation never crosses sources. */
  source: string;
  label: string;
  /** The request as sent (any JSON value). */
  raw: unknown;
  /** The payload's format tag, e.g. `anthropic.messages.v1`. */
  format: string;
  turn?: number;
  /** Set when the snapshot belongs to another session folding through this log. */
  sessionId?: string;
  requestId?: string;
  requestIndex?: number;
  tokenCount?: number;
  tokenCountKind?: string;
  contextWindow?: number;
  hardContextWindow?: number;
  itemCount?: number;
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already: rotation is idempotent.
  }
}

/** Writes the sidecar and its row; returns the sidecar's session-relative path. */
export function writeContextSnapshot(core: SessionCore, input: ContextSnapshotInput): string {
  core.assertOpen();
  const turn = input.turn ?? (core.turn > 0 ? core.turn : undefined);
  const id = randomUUID();
  const rel = turn !== undefined ? turnFile(turn, `context_${id}.json`) : `${files.turns}/context_${id}.json`;
  // Compact, not pretty: it is parsed by programs, and pretty multi-MB contexts only cost disk.
  core.sidecar(rel, () => writeSidecar(core.dir, rel, JSON.stringify(input.raw ?? null)));
  const sessionId = input.sessionId?.trim() || undefined;
  const data: Record<string, unknown> = { source: input.source, label: input.label, format: input.format };
  const optional: [string, unknown][] = [
    ['request_id', input.requestId],
    ['request_index', input.requestIndex],
    ['token_count', input.tokenCount],
    ['token_count_kind', input.tokenCountKind],
    ['context_window', input.contextWindow],
    ['hard_context_window', input.hardContextWindow],
    ['item_count', input.itemCount],
    ['session_id', sessionId],
  ];
  for (const [key, value] of optional) if (value !== undefined) data[key] = value;
  const items = input.itemCount !== undefined ? ` (${input.itemCount} items)` : '';
  // A failure here throws before the map changes: the new file is the accepted orphan and the
  // previous sidecar, still named by the last durable row, stays.
  core.emit({
    event: 'context_snapshot',
    level: 'debug',
    message: `Context snapshot: ${input.label}${items}`,
    data,
    file: rel,
    turn: turn ?? null,
  });
  core.syncEvents();
  const key = snapshotStreamKey(input.source, sessionId);
  const previous = core.snapshots.get(key);
  core.snapshots.set(key, rel);
  if (!core.keepAllSnapshots && previous !== undefined && previous !== rel && isContainedPath(previous))
    unlinkQuiet(join(core.dir, previous));
  return rel;
}
