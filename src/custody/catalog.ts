// The custody catalog: locate, read (forward, paged backward, sub-agents, follow) and keep sessions
// of the installations it is opened over, resolving each read vendor tree first, then kept copy.
import { mkdirSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentReader, DiscoveredSession } from '../agents/types.js';
import { DiscoveryCache, discoveryCachePath } from '../scan/discovery-cache.js';
import type { AgentHomes } from '../scan/scan.js';
import type { Entry } from './entry.js';
import { custodyErrors } from './errors.js';
import { followTranscript, type FollowBatch, type FollowOptions, type FollowStart } from './follow.js';
import { installationsOf, listInstallations, type Installation } from './installation.js';
import type { KeepHomeReport } from './keep.js';
import { emptySessionReport, keepTotals, type FileFailure, type KeepTotals, type SessionKeepReport } from './keep-report.js';
import { vendorHomes } from './kept-homes.js';
import { lastLineEnd } from './lines.js';
import { locateSession, type Located, type LocateOptions, type Scope } from './locate.js';
import { decodeToken, identityOf, offsetHash, tokenHolds } from './page-token.js';
import { checkPageSize, defaultPageTuning, isPageable, readPage, readRecordPage, type EntryPage, type PageTuning } from './pages.js';
import { lstatNow, lstatOrNull, openRead } from './safe-fs.js';
import { sessionId, type SessionId } from './session-id.js';
import { findSidechain } from './sidechain.js';
import { streamEntries } from './stream.js';
import { openTranscript, assertPageable } from './transcript.js';

export interface CatalogOptions {
  /** AGENTLOG_HOME: kept copies live in `<stateRoot>/kept/<installation-key>/`. */
  stateRoot: string;
  /** Readers with their vendor homes (kept roots in the list are ignored: the catalog adds its own). */
  agents: readonly AgentHomes[];
  /** The working directory sessions ran under, when known: vendor lookups are then keyed by it. */
  cwd?: string;
  /** The agentlog version written into custody facts and installation records. */
  version: string;
  now?: () => number;
  page?: Partial<PageTuning>;
  /** Sessions just claimed and verified in their vendor homes: located without a walk (see LocateOptions). */
  known?: readonly DiscoveredSession[];
}

export interface KeepOptions {
  /** Session ids to keep; omitted: every session of every vendor home. */
  ids?: readonly string[];
  /** --installation NAME (only with one vendor home in the catalog). */
  installationName?: string;
  signal?: AbortSignal;
  lockWaitMs?: number;
  /** Compare every same-size file by content instead of trusting size and mtime. */
  verify?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface KeepReport {
  installations: { agent: string; home: string; key: string; root: string }[];
  sessions: SessionKeepReport[];
  /** Discovery problems (unreadable files), reported and skipped. */
  problems: FileFailure[];
  totals: KeepTotals;
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export class Catalog {
  private constructor(
    readonly stateRoot: string,
    readonly scopes: Scope[],
    private readonly opts: CatalogOptions,
    private readonly tuning: PageTuning,
  ) {}

  /** Opens a catalog over the given agents' homes and the installations that keep them. */
  static async open(opts: CatalogOptions): Promise<Catalog> {
    const stateRoot = canonical(opts.stateRoot);
    const installations = await listInstallations(stateRoot);
    const scopes: Scope[] = [];
    for (const { reader, homes } of vendorHomes(opts.agents, [resolve(opts.stateRoot), stateRoot])) {
      for (const home of homes) scopes.push({ reader, home, kept: installationsOf(installations, reader.id, home) });
    }
    return new Catalog(stateRoot, scopes, opts, { ...defaultPageTuning, ...opts.page });
  }

  /** What every lookup of this catalog starts from: the working directory and the sessions already verified. */
  private hints(): LocateOptions {
    return {
      ...(this.opts.cwd === undefined ? {} : { cwd: this.opts.cwd }),
      ...(this.opts.known === undefined ? {} : { known: this.opts.known }),
    };
  }

  private where(): string {
    const homes = this.scopes.map((s) => s.home);
    return homes.length === 0 ? 'no agent home' : homes.join(', ');
  }

  /** Re-reads which installations keep each home: a keep (here or in another process) may have added one. */
  private async refreshKept(): Promise<void> {
    const installations = await listInstallations(this.stateRoot);
    for (const scope of this.scopes) scope.kept = installationsOf(installations, scope.reader.id, scope.home);
  }

  /** The session, vendor tree first then kept copy; null when no root has it. The record's `root` says which won. */
  async locate(id: string, opts: Omit<LocateOptions, 'cwd'> = {}): Promise<Located | null> {
    const sid = sessionId(id);
    await this.refreshKept();
    return locateSession(this.scopes, sid, { ...opts, ...this.hints() });
  }

  private async mustLocate(id: SessionId): Promise<Located> {
    await this.refreshKept();
    const loc = await locateSession(this.scopes, id, this.hints());
    if (loc === null) throw custodyErrors.sessionNotFound(id, this.where());
    return loc;
  }

  /** Every main-thread entry, oldest first (streamed; a line that does not parse is a raw entry). */
  async *entries(id: string): AsyncGenerator<Entry> {
    const sid = sessionId(id);
    const t = await openTranscript(await this.mustLocate(sid), () => this.locate(sid), this.where());
    yield* streamEntries(t.handle, t.size);
  }

  /** The newest `limit` entries, read backward from the end; `older` pages further back. */
  async lastEntries(id: string, limit: number): Promise<EntryPage> {
    checkPageSize(limit);
    const sid = sessionId(id);
    const loc = await this.mustLocate(sid);
    if (!isPageable(loc)) {
      // A session kept as a document or a database: its newest turns, as its reader reads them.
      const { handle } = await openRead(loc.main);
      try {
        return await readRecordPage(loc, handle, limit);
      } finally {
        await handle.close();
      }
    }
    const t = await openTranscript(loc, () => this.locate(sid), this.where());
    try {
      return await readPage(t.loc, t.handle, t.size, limit, this.tuning);
    } finally {
      await t.handle.close();
    }
  }

  /** The page of up to `limit` entries just older than `token` (from a page's `older`). */
  async entriesBefore(token: string, limit: number): Promise<EntryPage> {
    checkPageSize(limit);
    const t = decodeToken(token);
    const sid = sessionId(t.s);
    for (let attempt = 0; ; attempt++) {
      const loc = await this.mustLocate(sid);
      if (loc.root !== t.r || loc.rootPath !== t.root || loc.mainRel !== t.p)
        throw custodyErrors.pageSourceMoved(sid, `${loc.root} copy ${loc.main}`);
      assertPageable(loc);
      let handle;
      try {
        handle = (await openRead(loc.main)).handle;
      } catch (error) {
        // Pruned between locate and open: locate once more, keeping the pin.
        if (attempt === 0 && (await lstatOrNull(loc.main).catch(() => null)) === null) continue;
        throw error;
      }
      try {
        if (!(await tokenHolds(t, handle))) throw custodyErrors.pageSourceMoved(sid, `a different file at ${loc.main}`);
        return await readPage(loc, handle, t.o, limit, this.tuning);
      } finally {
        await handle.close();
      }
    }
  }

  /**
   * A sub-agent's sidechain, found by the launching tool_use id (or the sub-agent's id), from the
   * winning root, else from the kept copy when the vendor pruned only the sub-agent files.
   */
  async *subagentEntries(id: string, key: string): AsyncGenerator<Entry> {
    const sid = sessionId(id);
    const k = sessionId(key);
    const loc = await this.mustLocate(sid);
    const copies = [loc];
    if (loc.root === 'vendor') {
      const kept = await this.locate(sid, { only: 'kept' });
      if (kept !== null) copies.push(kept);
    }
    const found = await findSidechain(copies, k);
    const { handle, stat } = await openRead(found.sidechain.path);
    yield* streamEntries(handle, stat.size);
  }

  /**
   * Batches of new entries as the transcript grows, until `signal` aborts. With `from` (a page's
   * `newer` token) it starts there; else at the current end.
   */
  async *follow(id: string, opts: FollowOptions & { from?: string } = {}): AsyncGenerator<FollowBatch> {
    const sid = sessionId(id);
    const relocate = (): Promise<Located | null> => this.locate(sid);
    const loc = await this.mustLocate(sid);
    assertPageable(loc);
    let start: FollowStart;
    if (opts.from !== undefined) {
      const t = decodeToken(opts.from);
      if (t.s !== sid) throw custodyErrors.invalidPageToken(`it belongs to session ${t.s}`);
      const same = loc.root === t.r && loc.rootPath === t.root && loc.mainRel === t.p;
      start = {
        loc,
        offset: t.o,
        identity: same ? { dev: t.dev, ino: t.ino } : { dev: '', ino: '' },
        pin: t.h,
        reason: same ? 'replaced' : 'moved',
      };
    } else {
      const { handle } = await openRead(loc.main);
      try {
        const id = await identityOf(handle);
        const offset = await lastLineEnd(handle, id.size);
        start = { loc, offset, identity: { dev: id.dev, ino: id.ino }, pin: await offsetHash(handle, offset) };
      } finally {
        await handle.close();
      }
    }
    yield* followTranscript(start, relocate, opts);
  }

  /**
   * Keeps sessions: by id (a session already resolved from its kept copy is a no-op: custody only
   * flows from the vendor tree), or every session of every vendor home.
   */
  async keep(opts: KeepOptions = {}): Promise<KeepReport> {
    const now = this.opts.now ?? Date.now;
    // Before anything is stat'ed: a file written after this is never vouched for by the manifest.
    const observedAt = now();
    const work = new Map<Scope, DiscoveredSession[]>();
    const reports: SessionKeepReport[] = [];
    const problems: FileFailure[] = [];
    if (opts.ids !== undefined) {
      const ids = opts.ids.map(sessionId);
      for (const id of ids) {
        const loc = await this.mustLocate(id);
        if (loc.root === 'kept') {
          reports.push(emptySessionReport(loc.agent, loc.sessionId, 'kept', (loc.installation as Installation).key));
          continue;
        }
        const list = work.get(loc.scope) ?? [];
        if (!list.some((s) => s.sessionId === loc.sessionId)) list.push(await loc.session());
        work.set(loc.scope, list);
      }
    } else {
      // Folders unchanged since the last keep are not listed again (discovery-cache.ts); a keep racing
      // another on the cache file only loses the other's listings, each checked against the disk.
      const fs = await DiscoveryCache.open(discoveryCachePath(this.stateRoot, 'keep'), this.opts.version, now);
      for (const scope of this.scopes) {
        let there: boolean;
        try {
          there = lstatNow(scope.home) !== null;
        } catch {
          there = false;
        }
        if (!there) continue;
        const found = await scope.reader.discover(scope.home, fs);
        for (const p of found.problems) problems.push({ path: p.path, message: `${p.kind}: ${p.reason}`, code: null });
        if (found.sessions.length > 0) work.set(scope, found.sessions);
      }
      if (work.size > 0) await fs.save();
      for (const p of fs.problems) problems.push({ path: p.path, message: `${p.kind}: ${p.reason}`, code: null });
    }
    const total = [...work.values()].reduce((n, l) => n + l.length, 0);
    let done = 0;
    opts.onProgress?.(0, total);
    const installations: KeepReport['installations'] = [];
    if (work.size > 0) mkdirSync(this.stateRoot, { recursive: true, mode: 0o700 });
    const stateRoot = canonical(this.stateRoot);
    // Loaded here, not with the catalog: keeping brings the manifest's zod schema, which reading a
    // session (`tail`, `show`) never needs.
    const { stageHome, Publisher } = await import('./keep.js');
    // One publisher for every home: a home's copies wait in its batches while the next is copied, so
    // the run pays a barrier per batch, not per home. It is drained once the last home is staged.
    const publisher = new Publisher(stateRoot);
    if (opts.signal !== undefined) publisher.stopOn(opts.signal);
    const homes: { scope: Scope; done: Promise<KeepHomeReport> }[] = [];
    let stageError: { error: unknown } | null = null;
    try {
      for (const [scope, sessions] of work) {
        if (opts.signal?.aborted === true) break;
        const staged = await stageHome(
          {
            stateRoot,
            reader: scope.reader,
            home: scope.home,
            sessions,
            installationName: opts.installationName,
            version: this.opts.version,
            now,
            signal: opts.signal,
            lockWaitMs: opts.lockWaitMs,
            verify: opts.verify === true,
            onSession: () => opts.onProgress?.(++done, total),
            complete: opts.ids === undefined,
            observedAt,
          },
          publisher,
        );
        homes.push({ scope, done: staged.done });
      }
    } catch (error) {
      stageError = { error };
    }
    publisher.drain();
    // Every staged home is seen to its end (its copies in place, its lock let go) before any error is thrown.
    const ended = await Promise.allSettled(homes.map((h) => h.done));
    if (stageError !== null) throw stageError.error;
    for (const [i, e] of ended.entries()) {
      if (e.status === 'rejected') throw e.reason;
      const scope = (homes[i] as { scope: Scope }).scope;
      installations.push({ agent: scope.reader.id, home: scope.home, key: e.value.installation.key, root: e.value.installation.root });
      reports.push(...e.value.sessions);
      problems.push(...e.value.problems);
    }
    return { installations, sessions: reports, problems, totals: keepTotals(reports) };
  }

  /** The readers this catalog covers (for messages). */
  readers(): AgentReader[] {
    return [...new Set(this.scopes.map((s) => s.reader))];
  }
}
