// `scan`: discover every session under the given agent homes, summarise each (from the cache when
// its files are unchanged) and report what could not be read.
import type { AgentHomes, AgentReader, DiscoveredSession, DiscoveryFs, FileProblem } from '../agents/types.js';
import type { AgentId } from '../record/types.js';
import { linkOnPath } from '../fs/stat.js';
import { errorMessage } from '../fs/errors.js';
import { type Clock, systemClock } from '../fs/clock.js';
import { ParsePool, type ParsePoolOptions } from './parse-pool.js';
import { ScanCache, type CachedEntry } from './scan-cache.js';
import { sessionKey } from './session-key.js';
import { DiscoveryCache, discoveryCachePath } from './discovery-cache.js';
import { type SessionSummary, summariseSession } from './summarise.js';
import { mergedProjects, readKnownProjects, rememberProjects } from './known-projects.js';
import { writeSessionIndex } from './session-index.js';
import type { SessionRow } from './session-row.js';
import type { UsageBuckets } from '../usage/buckets.js';

export type { AgentHomes } from '../agents/types.js';

export interface ScanOptions {
  agents: AgentHomes[];
  /** The state root for the summary cache; null scans without one. */
  stateRoot: string | null;
  /** The user's home, elided to `~` in what is listed. */
  userHome: string | null;
  /** A tag that changes when any reader's output changes (the package version). */
  readerVersion: string;
  onProgress?: (done: number, total: number) => void;
  concurrency?: number;
  /** Worker threads for a cold scan (threshold, worker file, count); the defaults suit the CLI. */
  parsePool?: ParsePoolOptions;
  /** When things happen, for the discovery cache's racy rule (tests step it). Default: the system clock. */
  clock?: Clock;
  /**
   * The agents whose homes come from the projects scans learn (Aider), with their homes for this
   * list of projects: the scan looks in the homes it adds before it answers. None: homes as given.
   */
  learnedHomes?: (projects: readonly string[]) => Promise<AgentHomes[]>;
}

export interface RootReport {
  agent: AgentId;
  path: string;
  sessions: number;
}

export interface ScanReport {
  roots: RootReport[];
  sessions: SessionRow[];
  /** Files that could not be read at all, or broke a size bound. */
  unreadable: FileProblem[];
  /** Files that were read but held no session. */
  unparsed: FileProblem[];
  /** Lines that could not be parsed, per file. */
  bad_lines: { path: string; count: number }[];
  /** Working directories per session, for the opt-in decision; local only, never printed. */
  cwds: Map<string, string[]>;
  /** Tokens by quarter-hour and model per session (`agent:session_id`), for `agentlog usage`. */
  usage: Map<string, UsageBuckets>;
  /** agentlog's own scan cache: quarantined at load, or not saved (then every scan runs cold). */
  state_problems: FileProblem[];
}

/** Discovers sessions under every home, dropping a session a second home holds again. `fs`: see `AgentReader.discover`. */
export async function discoverAll(
  agents: AgentHomes[],
  fs?: DiscoveryFs,
): Promise<{ sessions: { reader: AgentReader; session: DiscoveredSession }[]; roots: RootReport[]; problems: FileProblem[] }> {
  const seen = new Set<string>();
  const sessions: { reader: AgentReader; session: DiscoveredSession }[] = [];
  const roots: RootReport[] = [];
  const problems: FileProblem[] = [];
  for (const { reader, homes, linkFree } of agents) {
    for (const home of homes) {
      let found = 0;
      try {
        const d = await reader.discover(home, fs);
        problems.push(...d.problems);
        const sessionsFound = linkFree?.includes(home) === true ? withoutLinks(home, d.sessions, problems) : d.sessions;
        for (const session of sessionsFound) {
          const id = `${session.agent}\u0000${session.sessionId}`;
          if (seen.has(id)) continue;
          seen.add(id);
          sessions.push({ reader, session });
          found++;
        }
      } catch (error) {
        problems.push({ path: home, kind: 'unreadable', reason: errorMessage(error) });
      }
      roots.push({ agent: reader.id, path: home, sessions: found });
    }
  }
  return { sessions, roots, problems };
}

/** Sessions of a kept copy with every file reached through a link dropped (and reported); a session whose main file is one goes. */
function withoutLinks(home: string, sessions: DiscoveredSession[], problems: FileProblem[]): DiscoveredSession[] {
  const kept: DiscoveredSession[] = [];
  for (const session of sessions) {
    const files = session.files.filter((f) => {
      const link = linkOnPath(home, f.path);
      if (link === null) return true;
      problems.push({ path: f.path, kind: 'unreadable', reason: `${link} is a link inside agentlog's kept copies: it is never followed` });
      return false;
    });
    if (files.length === session.files.length) kept.push(session);
    else if (files[0] !== undefined && files[0] === session.files[0]) kept.push({ ...session, files });
  }
  return kept;
}

/** A session the cache could not answer, to be read. */
interface Miss {
  reader: AgentReader;
  session: DiscoveredSession;
  id: string;
  key: string;
  bytes: number;
}

function newestFirst(a: SessionRow, b: SessionRow): number {
  const ta = a.ended_at ?? a.started_at ?? '';
  const tb = b.ended_at ?? b.started_at ?? '';
  if (ta !== tb) return ta < tb ? 1 : -1;
  return a.session_id < b.session_id ? -1 : a.session_id > b.session_id ? 1 : 0;
}

export async function scan(opts: ScanOptions): Promise<ScanReport> {
  // Folders and file headers unchanged since the last scan are not read again (discovery-cache.ts).
  const clock = opts.clock ?? systemClock;
  const cachePath = opts.stateRoot === null ? null : discoveryCachePath(opts.stateRoot, 'scan');
  const found = await DiscoveryCache.open(cachePath, opts.readerVersion, () => clock.now());
  const { sessions, roots, problems } = await discoverAll(opts.agents, found);
  const cache = await ScanCache.open(opts.stateRoot, opts.readerVersion);
  const rows: SessionRow[] = [];
  const badLines: { path: string; count: number }[] = [];
  const cwds = new Map<string, string[]>();
  const usage = new Map<string, UsageBuckets>();
  let done = 0;
  // Rows only grow (take): a list as long as when last sorted is still sorted.
  let sortedLength = -1;
  const sortRows = (): void => {
    if (rows.length === sortedLength) return;
    rows.sort(newestFirst);
    sortedLength = rows.length;
  };
  const tick = (): void => opts.onProgress?.(++done, sessions.length);

  const take = (entry: CachedEntry): void => {
    problems.push(...entry.problems);
    badLines.push(...entry.bad_lines);
    if (entry.row !== null) {
      rows.push(entry.row);
      const id = `${entry.row.agent}:${entry.row.session_id}`;
      cwds.set(id, entry.cwds);
      if (entry.usage !== null) usage.set(id, entry.usage);
    }
  };

  const keyed: { session: DiscoveredSession; key: string }[] = [];
  /** Keys the sessions, takes the cached ones and summarises the rest. */
  const summariseAll = async (list: readonly { reader: AgentReader; session: DiscoveredSession }[]): Promise<void> => {
    // Cached sessions first (cheap), then the misses, largest first so the work spreads evenly.
    const misses: Miss[] = [];
    for (const { reader, session } of list) {
      const id = `${session.agent}:${session.path}`;
      try {
        const key = await sessionKey(session, found);
        keyed.push({ session, key });
        const hit = cache.get(id, key);
        if (hit !== undefined) {
          take(hit);
          tick();
        } else {
          misses.push({ reader, session, id, key, bytes: session.files.reduce((n, f) => n + f.size, 0) });
        }
      } catch (error) {
        problems.push({ path: session.path, kind: 'unreadable', reason: errorMessage(error) });
        tick();
      }
    }
    misses.sort((a, b) => b.bytes - a.bytes);

    // The pool is sized by the bytes of files one session reads alone. Sessions kept in a shared
    // database (Goose, Crush) gain nothing from a worker, which opens that database again and costs
    // more CPU than it saves (measured: goose 1.5-1.7 s of CPU without the pool, 2.1-2.7 s with).
    const readers = new Map<string, { size: number; sessions: number }>();
    for (const m of misses)
      for (const f of m.session.files) {
        const seen = readers.get(f.path);
        readers.set(f.path, { size: f.size, sessions: (seen?.sessions ?? 0) + 1 });
      }
    let ownBytes = 0;
    for (const { size, sessions } of readers.values()) if (sessions === 1) ownBytes += size;
    const pool = ParsePool.create(ownBytes, opts.parsePool);
    const summarised = async (m: Miss, summary: Promise<SessionSummary>): Promise<void> => {
      try {
        const s = await summary;
        const entry: CachedEntry = { key: m.key, row: s.row, problems: s.problems, cwds: s.cwds, bad_lines: s.badLines, usage: s.usage };
        cache.put(m.id, entry);
        take(entry);
      } catch (error) {
        problems.push({ path: m.session.path, kind: 'unreadable', reason: errorMessage(error) });
      }
      tick();
    };
    // Workers take the largest sessions first; this thread takes the smallest, so it comes back to
    // the event loop often and a worker that answers is handed its next session at once.
    let head = 0;
    let tail = misses.length - 1;
    const fromHead = (): Miss | undefined => (head <= tail ? misses[head++] : undefined);
    const fromTail = (): Miss | undefined => (head <= tail ? misses[tail--] : undefined);
    const inProcess = async (next: () => Miss | undefined, yieldBetween: boolean): Promise<void> => {
      for (let m = next(); m !== undefined; m = next()) {
        await summarised(m, summariseSession(m.reader, m.session, opts.userHome));
        if (yieldBetween) await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const onWorker = async (p: ParsePool): Promise<void> => {
      for (;;) {
        // A worker first, then a session: none waits in a worker that is still loading.
        const w = await p.acquire();
        if (w === null) return inProcess(fromHead, false); // every worker gone (or nothing left)
        const m = fromHead();
        if (m === undefined) {
          p.release(w);
          return;
        }
        await summarised(m, p.summariseOn(w, m.reader, m.session, opts.userHome));
      }
    };
    try {
      if (pool === null) await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, () => inProcess(fromHead, false)));
      else {
        // Once this thread finds the list empty, no worker still loading is waited for.
        const here = inProcess(fromTail, true).then(() => pool.stopWaiting());
        await Promise.all([here, ...Array.from({ length: pool.size }, () => onWorker(pool))]);
      }
    } finally {
      await pool?.close();
    }
  };
  await summariseAll(sessions);

  // A cold scan learns the projects its sessions ran in only now: the agents that keep logs inside
  // projects (Aider) are looked for in them at once, so this scan lists what the next one will.
  if (opts.learnedHomes !== undefined && opts.stateRoot !== null) {
    sortRows();
    const ran = rows.flatMap((r) => cwds.get(`${r.agent}:${r.session_id}`) ?? []);
    for (const agent of await opts.learnedHomes(mergedProjects(ran, readKnownProjects(opts.stateRoot)))) {
      const scanned = opts.agents.find((a) => a.reader.id === agent.reader.id);
      if (scanned === undefined) continue;
      const added = agent.homes.filter((h) => !scanned.homes.includes(h));
      if (added.length === 0) continue;
      const more = await discoverAll(
        [{ ...agent, homes: added, linkFree: (agent.linkFree ?? []).filter((h) => added.includes(h)) }],
        found,
      );
      problems.push(...more.problems);
      sessions.push(...more.sessions);
      await summariseAll(more.sessions);
      // Its roots in the order its homes now have, as the next scan lists them.
      const counts = new Map<string, number>();
      for (const r of [...roots, ...more.roots]) if (r.agent === agent.reader.id) counts.set(r.path, r.sessions);
      const first = roots.findIndex((r) => r.agent === agent.reader.id);
      const mine = agent.homes.map((path) => ({ agent: agent.reader.id, path, sessions: counts.get(path) ?? 0 }));
      const others = roots.filter((r) => r.agent !== agent.reader.id);
      const at = first < 0 ? others.length : first;
      roots.splice(0, roots.length, ...others.slice(0, at), ...mine, ...others.slice(at));
    }
  }
  const looked = new Set(opts.agents.map((a) => a.reader.id));
  await cache.save(looked);
  const listed = found.listedCtimes();
  await found.save();
  cache.problems.push(...found.problems);
  if (opts.stateRoot !== null) {
    // Where sessions ran is where agents that keep logs inside projects (Aider) are looked for next
    // time, newest session first: an order that does not hang on which session a cold scan finished
    // first, so the next scan lists Aider's homes as the one after it does.
    sortRows();
    const ran = rows.flatMap((r) => cwds.get(`${r.agent}:${r.session_id}`) ?? []);
    const failed = await rememberProjects(opts.stateRoot, ran);
    if (failed !== null)
      cache.problems.push({ path: opts.stateRoot, kind: 'unreadable', reason: `could not save the known projects: ${failed}` });
    // `show`, `tail` and `rename` find a session by id through this index instead of walking every home.
    const indexProblem = await writeSessionIndex(
      opts.stateRoot,
      opts.readerVersion,
      roots,
      keyed,
      () => clock.now(),
      (dir) => listed.get(dir),
      looked,
    );
    if (indexProblem !== null) cache.problems.push(indexProblem);
  }

  sortRows();
  return {
    roots,
    sessions: rows,
    unreadable: problems.filter((p) => p.kind !== 'unparsed'),
    unparsed: problems.filter((p) => p.kind === 'unparsed'),
    bad_lines: badLines,
    cwds,
    usage,
    state_problems: cache.problems,
  };
}
