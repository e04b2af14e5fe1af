// What a rewritten source keeps. When a source is rewritten in place (a Codex
// same-thread restore, a document rewritten as it grows), the fresh extraction replaces the live
// generation; a message the rewrite dropped stays findable, flagged superseded, under the old
// generation, while a message the rewrite kept appears once (never as a duplicate old copy).
import { contentHash16, type MessageRecord, type SupersessionMark } from '../record/message-index.js';

function identity(r: MessageRecord): string {
  return `${r.role}\u0000${r.ts_ms}\u0000${r.thread ?? ''}\u0000${r.item_id ?? contentHash16(r.text)}`;
}

export interface Retained {
  /** Older generations' records, then the abandoned ones of the prior live generation, then the fresh ones. */
  records: MessageRecord[];
  generation: number;
  /** The `generation_restore` marks to carry (the index's own; an extractor's marks are replaced). */
  restores: SupersessionMark[];
  abandoned: number;
}

/**
 * Merges `fresh` (a full extraction, generation unset) over `prior` (the published records, live
 * generation `priorGeneration`). Prior live records the fresh extraction still has (same role, time,
 * thread and id or text) are dropped as duplicates; the rest are kept under their generation, and
 * the fresh records get a new generation that a `generation_restore` mark makes the live one.
 * With nothing abandoned the generation does not change.
 */
export function retainAbandoned(
  prior: readonly MessageRecord[],
  priorMarks: readonly SupersessionMark[],
  priorGeneration: number,
  fresh: readonly MessageRecord[],
  atMs: number,
): Retained {
  const counts = new Map<string, number>();
  for (const r of fresh) {
    const k = identity(r);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const older: MessageRecord[] = [];
  const abandoned: MessageRecord[] = [];
  for (const r of prior) {
    const gen = r.generation ?? 0;
    if (gen !== priorGeneration) {
      older.push(r);
      continue;
    }
    const k = identity(r);
    const left = counts.get(k) ?? 0;
    if (left > 0) counts.set(k, left - 1);
    else abandoned.push(r);
  }
  const restores = priorMarks.filter((m) => m.kind === 'generation_restore');
  if (abandoned.length === 0) {
    return { records: [...older, ...stamp(fresh, priorGeneration)], generation: priorGeneration, restores, abandoned: 0 };
  }
  const generation = priorGeneration + 1;
  const stamped = abandoned.map((r) => ({ ...r, generation: priorGeneration }));
  return {
    records: [...older, ...stamped, ...stamp(fresh, generation)],
    generation,
    restores: [...restores, { kind: 'generation_restore', active_generation: generation, at_ms: atMs }],
    abandoned: abandoned.length,
  };
}

/** Sets the generation on records an extractor returned (generation 0 is left absent). */
export function stamp(records: readonly MessageRecord[], generation: number): MessageRecord[] {
  if (generation === 0) return records.map((r) => (r.generation === undefined ? r : withoutGeneration(r)));
  return records.map((r) => ({ ...r, generation }));
}

function withoutGeneration(r: MessageRecord): MessageRecord {
  const { generation: _dropped, ...rest } = r;
  return rest;
}
