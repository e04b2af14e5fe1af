// Turning extracted records into stored segments: serialise, name by content, build the n-gram
// filter, write both; and reading a shard's segments back when a merge or a rewrite needs them.
import { readFile } from 'node:fs/promises';
import { isNotFound } from '../fs/errors.js';
import type { MessageRecord, SupersessionMark } from '../record/message-index.js';
import type { AgentId } from '../record/types.js';
import { fold } from './fold.js';
import { NgramFilter } from './ngram-filter.js';
import type { SegmentRef } from './manifest.js';
import { combineMarks, parseSegment, segmentFile, segmentName, type Segment } from './segment.js';
import { generationPath, writeGeneration } from './store.js';

/** Writes one segment (and its filter) unless an identical one exists; returns its reference. */
export async function storeSegment(root: string, segment: Segment): Promise<SegmentRef> {
  const folds = segment.records.map((r) => fold(r.text));
  const filter = NgramFilter.build(folds.map((f) => f.text)).serialise();
  const { file: data, body } = segmentFile(segment, folds, filter);
  const file = segmentName(body);
  writeGeneration(root, file, data);
  return { file, records: segment.records.length, bytes: data.length };
}

/** Reads one of the store's segments; null when missing or corrupt. */
export async function readSegment(root: string, file: string): Promise<Segment | null> {
  try {
    return parseSegment(file, await readFile(generationPath(root, file)));
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Reads every segment of a shard in order; null if any is missing or corrupt. */
export async function readShard(root: string, refs: readonly SegmentRef[]): Promise<Segment[] | null> {
  const out: Segment[] = [];
  for (const ref of refs) {
    const s = await readSegment(root, ref.file);
    if (s === null) return null;
    out.push(s);
  }
  return out;
}

export function newSegment(
  agent: AgentId,
  sessionId: string,
  records: MessageRecord[],
  marks: SupersessionMark[],
  mode: 'append' | 'replace',
): Segment {
  return { agent, session_id: sessionId, records, marks, marks_mode: mode };
}

/** One segment equal in meaning to a run of segments (records concatenated, marks combined). */
export function mergeSegments(run: readonly Segment[]): Segment {
  const first = run[0] as Segment;
  const { marks, mode } = combineMarks(run);
  return { agent: first.agent, session_id: first.session_id, records: run.flatMap((s) => s.records), marks, marks_mode: mode };
}
