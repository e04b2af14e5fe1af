// The session list behind GET /api/sessions: the scan layer's rows (with its on-disk cache) held in
// memory and refreshed after sweeps, named, with first asks from the index; filtered and paged by a
// cursor over the newest-first order. Until the run's first scan ends, the rows the last saved scan
// listed answer (marked incomplete): a person's first paint never waits on a whole-home scan.
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { keptBase } from '../custody/paths.js';
import { isInside } from '../custody/safe-fs.js';
import { applySessionNames } from '../names/session-names.js';
import type { AgentId } from '../record/types.js';
import { scan, type AgentHomes, type ScanOptions } from '../scan/scan.js';
import { ScanCache } from '../scan/scan-cache.js';
import type { SessionRow } from '../scan/session-row.js';
import { usageSources } from '../usage/collect.js';
import type { UsageSource } from '../usage/report.js';
import type { SessionSummary, SessionsBody } from './api-types.js';
import { badRequest } from './http-error.js';
import type { IndexView } from './index-facts.js';
import { growingMs } from './session-detail.js';

export interface ListOptions {
  stateRoot: string;
  userHome: string;
  version: string;
  /** Vendor homes and the kept roots that exist now. */
  agents: () => AgentHomes[];
  /** The homes of agents that keep logs inside projects (Aider), learnt by each scan: see `ScanOptions`. */
  learnedHomes?: ScanOptions['learnedHomes'];
  index: IndexView;
  now: () => number;
}

interface Listed {
  row: SessionRow;
  mtimeMs: number;
  kept: boolean;
}

export interface ListQuery {
  agents?: readonly AgentId[];
  repo?: string;
  q?: string;
  limit: number;
  cursor?: string;
}

const cursorSchema = z.object({ t: z.string(), k: z.string() });

const sortTime = (r: SessionRow): string => r.ended_at ?? r.started_at ?? '';
const keyOf = (r: SessionRow): string => `${r.agent}:${r.session_id}`;

function encodeCursor(r: SessionRow): string {
  return Buffer.from(JSON.stringify({ t: sortTime(r), k: keyOf(r) })).toString('base64url');
}

function decodeCursor(raw: string): { t: string; k: string } {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
  } catch {
    throw badRequest('invalid_cursor', 'the cursor is not one this server gave out: start again without it');
  }
}

/** The cursor's order exactly: time descending, then key ascending. */
function newestFirst(a: Listed, b: Listed): number {
  const ta = sortTime(a.row);
  const tb = sortTime(b.row);
  if (ta !== tb) return ta < tb ? 1 : -1;
  const ka = keyOf(a.row);
  const kb = keyOf(b.row);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** Strictly after the cursor in newest-first order (time descending, then key ascending). */
function after(r: SessionRow, c: { t: string; k: string }): boolean {
  const t = sortTime(r);
  return t < c.t || (t === c.t && keyOf(r) > c.k);
}

export class SessionList {
  private listed: Listed[] = [];
  private usage: UsageSource[] = [];
  private loaded: Promise<void> | null = null;
  /** Whether `listed` is this run's scan (else the saved rows, or nothing yet). */
  private scanned = false;
  private saved: Promise<number> | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  refreshedAt = 0;

  constructor(private readonly opts: ListOptions) {}

  /** Rescans (one at a time; a request during a scan schedules one more). */
  refresh(): Promise<void> {
    if (this.running !== null) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.load();
        } while (this.again);
      } finally {
        this.running = null;
      }
    })();
    this.loaded ??= this.running;
    return this.running;
  }

  private async load(): Promise<void> {
    const report = await scan({
      agents: this.opts.agents(),
      stateRoot: this.opts.stateRoot,
      userHome: this.opts.userHome,
      readerVersion: this.opts.version,
      ...(this.opts.learnedHomes === undefined ? {} : { learnedHomes: this.opts.learnedHomes }),
    });
    await applySessionNames(report.sessions, this.opts.stateRoot);
    const kept = keptBase(this.opts.stateRoot);
    const listed: Listed[] = [];
    for (const row of report.sessions) {
      const st = await stat(row.file).catch(() => null);
      listed.push({ row, mtimeMs: st?.mtimeMs ?? 0, kept: isInside(kept, row.home) });
    }
    listed.sort(newestFirst);
    this.listed = listed;
    this.usage = usageSources(report.sessions, report.usage);
    this.refreshedAt = this.opts.now();
    this.scanned = true;
  }

  /** The last saved scan's rows as the list, unless this run's scan ended first; resolves with how many. */
  private fromSaved(): Promise<number> {
    this.saved ??= (async () => {
      const rows = await ScanCache.savedRows(this.opts.stateRoot, this.opts.version);
      if (this.scanned || rows.length === 0) return 0;
      await applySessionNames(rows, this.opts.stateRoot);
      if (this.scanned) return 0;
      const kept = keptBase(this.opts.stateRoot);
      // Not stat'ed: no file is looked at before the scan, so none shows as growing yet.
      this.listed = rows.map((row) => ({ row, mtimeMs: 0, kept: isInside(kept, row.home) })).sort(newestFirst);
      return rows.length;
    })();
    return this.saved;
  }

  /**
   * Waits until the list can answer: true once this run's scan has listed the home; false while the
   * last saved scan's rows stand in for it (with no saved rows, the scan is waited for).
   */
  private async ready(): Promise<boolean> {
    const scanned = this.loaded ?? this.refresh();
    if (this.scanned) return true;
    const first = await Promise.race([scanned.then(() => -1), this.fromSaved()]);
    if (first === -1 || this.scanned) return true;
    if (first > 0) return false;
    await scanned;
    return true;
  }

  /** Re-reads names only (after a rename), without scanning. */
  async renamed(): Promise<void> {
    await applySessionNames(
      this.listed.map((l) => l.row),
      this.opts.stateRoot,
    );
  }

  private summary(l: Listed, now: number): SessionSummary {
    const r = l.row;
    return {
      agent: r.agent,
      session_id: r.session_id,
      name: r.name,
      repo: r.repo,
      branch: r.branch,
      first_ask: this.opts.index.firstAsk(r.agent, r.session_id),
      started_at: r.started_at,
      ended_at: r.ended_at,
      turns: r.turns,
      tool_calls: r.tool_calls,
      totals: r.totals_with_subagents,
      subagents: r.subagents,
      root: l.kept ? 'kept' : 'vendor',
      growing: now - l.mtimeMs < growingMs,
    };
  }

  /** Every row (for usage), after the first scan. */
  async rows(): Promise<SessionRow[]> {
    if (this.loaded === null) await this.refresh();
    else await this.loaded;
    return this.listed.map((l) => l.row);
  }

  /** Every session's usage buckets from the same scan (for `/api/usage`). */
  async usageSources(): Promise<UsageSource[]> {
    if (this.loaded === null) await this.refresh();
    else await this.loaded;
    return this.usage;
  }

  async page(query: ListQuery): Promise<SessionsBody> {
    const complete = await this.ready();
    const now = this.opts.now();
    const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const needle = query.q?.trim().toLowerCase() ?? '';
    const out: SessionSummary[] = [];
    let last: SessionRow | null = null;
    let more = false;
    for (const l of this.listed) {
      const r = l.row;
      if (query.agents !== undefined && query.agents.length > 0 && !query.agents.includes(r.agent)) continue;
      if (query.repo !== undefined && query.repo !== '' && r.repo !== query.repo && !r.repo.startsWith(`${query.repo}/`)) continue;
      if (cursor !== null && !after(r, cursor)) continue;
      if (needle !== '') {
        const ask = this.opts.index.firstAsk(r.agent, r.session_id) ?? '';
        const hay = [r.name ?? '', ask, r.repo].map((s) => s.toLowerCase());
        if (!r.session_id.toLowerCase().startsWith(needle) && !hay.some((s) => s.includes(needle))) continue;
      }
      if (out.length === query.limit) {
        more = true;
        break;
      }
      out.push(this.summary(l, now));
      last = r;
    }
    return { ok: true, sessions: out, cursor: more && last !== null ? encodeCursor(last) : null, complete };
  }
}
