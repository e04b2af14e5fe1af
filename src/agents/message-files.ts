// Helpers for agents whose message extraction re-reads a session whole when any of its files
// changes (a tree, a document or a database that is not append-only): each file is recorded at
// the length it had before the read, so a change made meanwhile is seen by the next sweep.
import { stat } from 'node:fs/promises';
import { isNotFound } from '../fs/errors.js';
import type { ConsumedFile, MessageExtract, MessageRecord, SupersessionMark } from '../record/message-index.js';
import { capText } from '../record/message-index.js';

/** Each existing file as consumed whole at its current length (missing ones are left out). */
export async function wholeFiles(paths: readonly string[]): Promise<ConsumedFile[]> {
  const out: ConsumedFile[] = [];
  for (const path of paths) {
    try {
      const s = await stat(path);
      if (s.isFile()) out.push({ path, offset: s.size, mode: 'whole' });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  return out;
}

/** A full extraction's result: every record, the complete mark list, nothing carried over. */
export function wholeExtract(
  files: ConsumedFile[],
  records: MessageRecord[],
  marks: SupersessionMark[],
  extra: Partial<Pick<MessageExtract, 'bytesRead' | 'badLines' | 'problems'>> = {},
): MessageExtract {
  return {
    records,
    marks,
    marksMode: 'replace',
    files,
    carry: null,
    fresh: true,
    bytesRead: extra.bytesRead ?? files.reduce((n, f) => n + f.offset, 0),
    badLines: extra.badLines ?? 0,
    problems: extra.problems ?? [],
  };
}

/** A record with its text capped (256 KiB) and the flag set when it was cut. */
export function cappedRecord(r: Omit<MessageRecord, 'text' | 'truncated'> & { text: string }): MessageRecord {
  const c = capText(r.text);
  const out: MessageRecord = { ...r, text: c.text };
  if (c.truncated) out.truncated = true;
  return out;
}

/** Epoch ms of an ISO time, or 0 when there is none (such records fall out of a rolling window). */
export function isoMs(at: string | null | undefined): number {
  if (at === null || at === undefined) return 0;
  const t = Date.parse(at);
  return Number.isFinite(t) ? t : 0;
}
