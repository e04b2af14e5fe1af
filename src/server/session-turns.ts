// GET /api/session/{agent}/{id}/turns: the session record's turns a window at a time, so a transcript
// of any size opens as a transcript (issue 12 "Long transcripts load page by page … never all at
// once"). The record is parsed once and held while its files stay unchanged; each request slices it.
import { stat } from 'node:fs/promises';
import type { Located } from '../custody/index.js';
import { finaliseRecord } from '../record/finalise.js';
import type { Elider } from '../record/home-elide.js';
import type { SessionRecord } from '../record/types.js';
import { findHitTurn, flatPath, type HitTarget } from '../web/turn-match.js';
import type { TurnsBody } from './api-types.js';
import { HttpError } from './http-error.js';

export interface TurnsRequest {
  limit: number;
  /** The window ends before this turn (default: the end). */
  before?: number;
  /** The window starts at this turn. */
  from?: number;
  /** The window is centred on this turn. */
  around?: number;
  /** The window is centred on the turn matching this search hit (its path is answered as `focus`). */
  match?: HitTarget;
}

interface Held {
  signature: string;
  record: SessionRecord;
  usedAt: number;
}

/** Parsed records of the last few sessions read, dropped when their files change or after `idleMs`. */
export class RecordCache {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly elide: Elider,
    private readonly now: () => number,
    private readonly size = 2,
    private readonly idleMs = 120_000,
  ) {}

  async record(loc: Located): Promise<SessionRecord> {
    const session = await loc.session();
    // The discovered sizes are those of when the session was located: each file is looked at afresh.
    const stats = await Promise.all(session.files.map((f) => stat(f.path).catch(() => null)));
    const signature = session.files.map((f, i) => `${f.path}\0${stats[i]?.size ?? -1}\0${stats[i]?.mtimeMs ?? -1}`).join('\n');
    const key = `${loc.agent}:${loc.sessionId}`;
    const now = this.now();
    for (const [k, h] of this.held) if (now - h.usedAt > this.idleMs) this.held.delete(k);
    const known = this.held.get(key);
    if (known !== undefined && known.signature === signature) {
      known.usedAt = now;
      return known.record;
    }
    const parsed = await loc.reader.parse(session, { detail: 'full' });
    if (parsed.record === null)
      throw new HttpError(422, 'unparsed', `the files of ${loc.agent} session ${loc.sessionId} hold no session agentlog can read`);
    const record = finaliseRecord(parsed.record, { detail: 'full', elide: this.elide });
    this.held.delete(key);
    this.held.set(key, { signature, record, usedAt: now });
    while (this.held.size > this.size) this.held.delete(this.held.keys().next().value as string);
    return record;
  }
}

/** The window [start, end) a request asks for, within `total` turns. */
export function turnWindow(req: TurnsRequest, total: number, centre: number | null): { start: number; end: number } {
  const limit = req.limit;
  if (centre !== null) {
    const start = Math.max(0, Math.min(centre - Math.floor(limit / 2), total - limit));
    return { start, end: Math.min(total, start + limit) };
  }
  if (req.from !== undefined) {
    const start = Math.min(req.from, total);
    return { start, end: Math.min(total, start + limit) };
  }
  const end = Math.min(req.before ?? total, total);
  return { start: Math.max(0, end - limit), end };
}

export async function readTurns(cache: RecordCache, loc: Located, req: TurnsRequest): Promise<TurnsBody> {
  const record = await cache.record(loc);
  const total = record.turns.length;
  const found = req.match === undefined ? null : findHitTurn(record.turns, req.match);
  const focus = found === null ? null : flatPath(found);
  const centre = found !== null ? found.top : req.around !== undefined ? Math.min(req.around, Math.max(0, total - 1)) : null;
  const { start, end } = turnWindow(req, total, centre);
  return { ok: true, record: { ...record, turns: [] }, total, start, end, turns: record.turns.slice(start, end), focus };
}
