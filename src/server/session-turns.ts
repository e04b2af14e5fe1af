// GET /api/session/{agent}/{id}/turns: the session record's turns a window at a time, so a transcript
// of any size opens as a transcript (issue 12 "Long transcripts load page by page … never all at
// once"). The record is parsed once and held while its files stay unchanged; each request slices it.
// The newest page of a big session comes from a tail read (the end of the main file and what it
// launched) until an older page is asked for: a person opening an 87 MB session sees its last turns
// without waiting for the whole parse.
import { open, stat } from 'node:fs/promises';
import type { Located } from '../custody/index.js';
import { isPageable } from '../custody/pages.js';
import { finaliseRecord } from '../record/finalise.js';
import type { Elider } from '../record/home-elide.js';
import type { SessionRecord } from '../record/types.js';
import { findHitTurn, findLineTurn, flatPath, type HitTarget, type TurnPath } from '../web/turn-match.js';
import type { TurnsBody } from './api-types.js';
import { type FileLine, lineTarget } from './hit-line.js';
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
  /** The window ends this many turns before the end (the page above a tail read's window). */
  beforeEnd?: number;
  /** With `match`: the file line a deep search hit names; the turn holding that line is the focus. */
  line?: FileLine;
}

/** A main file at least this big opens on a tail read; a smaller one parses whole within the page budget. */
export const tailFromBytes = 8 * 1024 * 1024;
/**
 * The first tail read's size. Too few turns in it: the next read is sized from the bytes per turn
 * this one found (a quarter over), at least twice as large. Each read also parses what its lines
 * launched, so reading well past the page the person sees costs twice (an 87 MB session's newest 80
 * turns took 2 MB: 323 turns and 12 subagents read, 80 shown).
 */
const firstTailBytes = 1024 * 1024;
const tailMargin = 1.25;

/** The size of the tail read after one of `bytes` held `got` of the `want` turns asked for. */
export function nextTailBytes(bytes: number, got: number, want: number): number {
  if (got <= 0) return bytes * 4;
  return Math.max(bytes * 2, Math.ceil((bytes / got) * want * tailMargin));
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

  /** Tail reads answered, by session, while its files stay unchanged (the live view asks again and again). */
  private readonly tails = new Map<string, Held & { want: number }>();

  private async signatureOf(loc: Located): Promise<{ signature: string; mainSize: number }> {
    const session = await loc.session();
    // The discovered sizes are those of when the session was located: each file is looked at afresh.
    const stats = await Promise.all(session.files.map((f) => stat(f.path).catch(() => null)));
    const signature = session.files.map((f, i) => `${f.path}\0${stats[i]?.size ?? -1}\0${stats[i]?.mtimeMs ?? -1}`).join('\n');
    return { signature, mainSize: stats[0]?.size ?? 0 };
  }

  private fresh(map: Map<string, Held>, key: string, signature: string): Held | undefined {
    const now = this.now();
    for (const [k, h] of map) if (now - h.usedAt > this.idleMs) map.delete(k);
    const known = map.get(key);
    if (known === undefined || known.signature !== signature) return undefined;
    known.usedAt = now;
    return known;
  }

  private hold(key: string, signature: string, record: SessionRecord): void {
    this.held.delete(key);
    this.held.set(key, { signature, record, usedAt: this.now() });
    while (this.held.size > this.size) this.held.delete(this.held.keys().next().value as string);
  }

  private finalise(loc: Located, record: SessionRecord | null): SessionRecord {
    if (record === null)
      throw new HttpError(422, 'unparsed', `the files of ${loc.agent} session ${loc.sessionId} hold no session agentlog can read`);
    return finaliseRecord(record, { detail: 'full', elide: this.elide });
  }

  async record(loc: Located): Promise<SessionRecord> {
    const key = `${loc.agent}:${loc.sessionId}`;
    const { signature } = await this.signatureOf(loc);
    const known = this.fresh(this.held, key, signature);
    if (known !== undefined) return known.record;
    const parsed = await loc.reader.parse(await loc.session(), { detail: 'full' });
    const record = this.finalise(loc, parsed.record);
    this.hold(key, signature, record);
    return record;
  }

  /**
   * At least `want` of the session's newest turns. From a held whole record when there is one, else
   * for a big main file from a tail read (`partial`): the end of the file from a line start, the turns
   * before its first prompt dropped (their start lies above the cut), read again four times larger
   * while it holds too few turns.
   */
  async newest(loc: Located, want: number): Promise<{ record: SessionRecord; partial: boolean }> {
    const key = `${loc.agent}:${loc.sessionId}`;
    const { signature, mainSize } = await this.signatureOf(loc);
    const whole = this.fresh(this.held, key, signature);
    if (whole !== undefined) return { record: whole.record, partial: false };
    const tail = this.fresh(this.tails, key, signature) as (Held & { want: number }) | undefined;
    if (tail !== undefined && tail.want >= want) return { record: tail.record, partial: true };
    const session = await loc.session();
    for (let bytes = firstTailBytes, got = 0; mainSize >= tailFromBytes && bytes < mainSize / 2; bytes = nextTailBytes(bytes, got, want)) {
      got = 0;
      const from = await lineStartAfter(loc.main, mainSize - bytes);
      const parsed = await loc.reader.parse(session, { detail: 'full', mainFrom: from });
      if (parsed.readFrom === undefined) {
        // The reader cannot start mid-file: what it read is the whole record.
        const record = this.finalise(loc, parsed.record);
        this.hold(key, signature, record);
        return { record, partial: false };
      }
      if (parsed.record === null) continue;
      const record = this.finalise(loc, parsed.record);
      const firstPrompt = record.turns.findIndex((t) => t.role === 'user');
      const turns = firstPrompt === -1 ? [] : record.turns.slice(firstPrompt);
      got = turns.length;
      if (turns.length < want) continue;
      const held = { ...record, turns };
      this.tails.set(key, { signature, record: held, usedAt: this.now(), want });
      while (this.tails.size > this.size) this.tails.delete(this.tails.keys().next().value as string);
      return { record: held, partial: true };
    }
    return { record: await this.record(loc), partial: false };
  }
}

/** The first line start at or after `offset` (the byte after the first newline at or after `offset - 1`). */
async function lineStartAfter(path: string, offset: number): Promise<number> {
  if (offset <= 0) return 0;
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (let pos = offset - 1; ; pos += buf.length) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) return pos;
      const nl = buf.subarray(0, bytesRead).indexOf(0x0a);
      if (nl !== -1) return pos + nl + 1;
    }
  } finally {
    await handle.close();
  }
}

/**
 * The byte just past the last complete line of `path` (0 when it has none yet): where a follower of
 * what is appended next starts. Read backward from the end, a chunk at a time.
 */
async function completeEnd(path: string): Promise<number> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (let end = size; end > 0; ) {
      const start = Math.max(0, end - buf.length);
      const { bytesRead } = await handle.read(buf, 0, end - start, start);
      const nl = buf.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (nl !== -1) return start + nl + 1;
      end = start;
    }
    return 0;
  } finally {
    await handle.close();
  }
}

/** Where the events stream follows on from, taken before the turns are read: what is appended meanwhile is still sent. */
async function followFrom(loc: Located): Promise<number | null> {
  if (!isPageable(loc)) return null;
  return completeEnd(loc.main).catch(() => null);
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

/** The turn a hit opens on: the one holding its file line when the line tells, else by role, time and text. */
async function focusOf(loc: Located, record: SessionRecord, match: HitTarget, line: FileLine | undefined): Promise<TurnPath | null> {
  const target = line === undefined ? null : await lineTarget(loc, line, match.text);
  return (target === null ? null : findLineTurn(record.turns, target)) ?? findHitTurn(record.turns, match);
}

export async function readTurns(cache: RecordCache, loc: Located, req: TurnsRequest): Promise<TurnsBody> {
  const newestOnly = req.before === undefined && req.from === undefined && req.around === undefined && req.match === undefined;
  const follow_from = await followFrom(loc);
  if (newestOnly && req.beforeEnd === undefined) {
    const { record, partial } = await cache.newest(loc, req.limit);
    const total = record.turns.length;
    const start = Math.max(0, total - req.limit);
    const turns = record.turns.slice(start);
    return { ok: true, record: { ...record, turns: [] }, total, start, end: total, turns, focus: null, partial, follow_from };
  }
  const record = await cache.record(loc);
  const total = record.turns.length;
  const found = req.match === undefined ? null : await focusOf(loc, record, req.match, req.line);
  const focus = found === null ? null : flatPath(found);
  const centre = found !== null ? found.top : req.around !== undefined ? Math.min(req.around, Math.max(0, total - 1)) : null;
  const before = req.beforeEnd !== undefined ? Math.max(0, total - req.beforeEnd) : req.before;
  const { start, end } = turnWindow({ ...req, ...(before !== undefined ? { before } : {}) }, total, centre);
  return {
    ok: true,
    record: { ...record, turns: [] },
    total,
    start,
    end,
    turns: record.turns.slice(start, end),
    focus,
    partial: false,
    follow_from,
  };
}
