// Continuation cursors: opaque, pinned to the query and the manifest snapshot they were minted
// against (seed 000 "Snapshot-bound pagination"), and carrying the scan position so the next page
// resumes the scan instead of re-matching every session before it.
import { z } from 'zod';
import { SearchError } from './errors.js';

export interface Pending {
  at: number;
  best: number;
}

export interface PageCursor {
  /** The query fingerprint (terms, filters, window). */
  qh: string;
  /** `<epoch>.<revision>` of the manifest the page was read from. */
  snap: string;
  /** Index in the snapshot's newest-first entry order where the scan goes on. */
  next: number;
  /**
   * Entries already found to match but not yet shown: index in that order and best hit time, so a
   * later page can place them without matching them again until it shows them.
   */
  pending: Pending[];
  /**
   * The last session shown, when the page was in global order: the next page shows only sessions
   * that sort after it (so a rescan never repeats one).
   */
  after: { ts: number; key: string } | null;
}

const maxCursorChars = 8192;
/** More pending sessions than this do not fit a cursor; the rest are found again by scanning. */
export const maxPending = 300;

const wireSchema = z.object({
  v: z.literal(2),
  qh: z.string().regex(/^[0-9a-f]{16}$/),
  snap: z.string().regex(/^[0-9a-f]{12}\.\d+$/),
  next: z.number().int().nonnegative(),
  pending: z.string().regex(/^([0-9a-z]+:-?[0-9a-z]+(\.[0-9a-z]+:-?[0-9a-z]+)*)?$/),
  after: z.object({ ts: z.number(), key: z.string().max(1024) }).nullable(),
});

export function encodeCursor(c: PageCursor): string {
  // Pending indices ascend: store the gaps and the times in base 36 to keep the cursor short.
  const sorted = [...c.pending].sort((a, b) => a.at - b.at);
  const pending = sorted
    .map((p, i) => `${(i === 0 ? p.at : p.at - (sorted[i - 1] as Pending).at).toString(36)}:${p.best.toString(36)}`)
    .join('.');
  return Buffer.from(JSON.stringify({ v: 2, qh: c.qh, snap: c.snap, next: c.next, pending, after: c.after }), 'utf8').toString('base64url');
}

function invalid(reason: string): SearchError {
  return new SearchError('InvalidCursor', `the cursor is not valid here (${reason}); start the search again without --cursor`);
}

/**
 * Decodes a cursor and checks it belongs to this query (`InvalidCursor`, 400) and to the current
 * snapshot (`CursorExpired`, 410: the index changed since the first page; start again).
 */
export function decodeCursor(raw: string, fingerprint: string, snapshot: string): PageCursor {
  if (raw.length > maxCursorChars || !/^[A-Za-z0-9_-]+$/.test(raw)) throw invalid('malformed');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid('malformed');
  }
  const parsed = wireSchema.safeParse(value);
  if (!parsed.success) throw invalid('malformed');
  const w = parsed.data;
  if (w.qh !== fingerprint) throw invalid('it was minted for another query');
  if (w.snap !== snapshot)
    throw new SearchError('CursorExpired', 'the search index changed since the first page; run the search again from the start');
  const pending: Pending[] = [];
  let at = 0;
  for (const [i, part] of (w.pending === '' ? [] : w.pending.split('.')).entries()) {
    const [gapText, bestText] = part.split(':') as [string, string];
    const gap = parseInt(gapText, 36);
    const best = parseInt(bestText, 36);
    if (!Number.isSafeInteger(gap) || (i > 0 && gap <= 0) || !Number.isSafeInteger(best)) throw invalid('malformed');
    at = i === 0 ? gap : at + gap;
    pending.push({ at, best });
  }
  return { qh: w.qh, snap: w.snap, next: w.next, pending, after: w.after };
}
