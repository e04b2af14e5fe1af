// Builds the record from a Pi file: turns follow the active branch; totals, models and times count
// every assistant message in the file, abandoned branches included, because each was billed.
import { newRecord, noteModel, noteTime } from '../../record/draft.js';
import { addTotals, type Detail, type SessionRecord, type UsageApart } from '../../record/types.js';
import { splitBranches } from './branch.js';
import type { PiFile } from './session-file.js';
import { branchTurns } from './turns.js';

/** The record and the working directory, or null when the file holds no conversation. */
export function piRecord(sessionId: string, file: PiFile, detail: Detail = 'full'): { record: SessionRecord; cwds: string[] } | null {
  if (!file.entries.some((e) => e.body.type === 'user' || e.body.type === 'bash' || e.body.type === 'assistant')) return null;
  const record = newRecord('pi', sessionId);
  const { active, abandoned } = splitBranches(file.entries);
  const apart: UsageApart[] = [];
  record.turns = branchTurns(active, detail === 'full', apart);
  // Requests on abandoned branches were billed too: their usage is kept apart, with its time and model.
  for (const e of abandoned) {
    const b = e.body;
    if (b.type === 'assistant' && b.usage !== undefined)
      apart.push({ at: e.at, ...(b.model === undefined ? {} : { model: b.model }), usage: b.usage });
  }
  if (apart.length > 0) record.usage_apart = apart;
  noteTime(record, file.header?.at ?? undefined);
  for (const e of file.entries) {
    noteTime(record, e.at ?? undefined);
    const b = e.body;
    if (b.type !== 'assistant') continue;
    if (b.usage !== undefined) addTotals(record.totals, b.usage);
    // A request aborted before it produced anything or cost anything wrote no turn: its model is not one of the session's.
    const spent =
      b.usage !== undefined && b.usage.input_tokens + b.usage.output_tokens + b.usage.cache_read_tokens + b.usage.cache_creation_tokens > 0;
    if (spent || b.parts.length > 0 || b.calls.length > 0) noteModel(record.models, b.model);
  }
  const cwd = file.header?.cwd;
  record.repo = cwd ?? '';
  return { record, cwds: cwd === undefined ? [] : [cwd] };
}
