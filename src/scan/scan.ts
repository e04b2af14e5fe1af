// `scan`: discover every session under the given agent homes, summarise each (from the cache when
// its files are unchanged) and report what could not be read.
import type { AgentReader, DiscoveredSession, FileProblem } from '../agents/types.js';
import { finaliseRecord } from '../record/finalise.js';
import { makeHomeElider } from '../record/home-elide.js';
import type { AgentId } from '../record/types.js';
import { errorMessage } from '../fs/stat.js';
import { ScanCache, sessionKey } from './scan-cache.js';
import { rowFromRecord, type SessionRow } from './session-row.js';

export interface AgentHomes {
  reader: AgentReader;
  homes: string[];
}

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
}

/** Discovers sessions under every home, dropping a session a second home holds again. */
export async function discoverAll(agents: AgentHomes[]): Promise<{ sessions: { reader: AgentReader; session: DiscoveredSession }[]; roots: RootReport[]; problems: FileProblem[] }> {
  const seen = new Set<string>();
  const sessions: { reader: AgentReader; session: DiscoveredSession }[] = [];
  const roots: RootReport[] = [];
  const problems: FileProblem[] = [];
  for (const { reader, homes } of agents) {
    for (const home of homes) {
      let found = 0;
      try {
        const d = await reader.discover(home);
        problems.push(...d.problems);
        for (const session of d.sessions) {
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

function newestFirst(a: SessionRow, b: SessionRow): number {
  const ta = a.ended_at ?? a.started_at ?? '';
  const tb = b.ended_at ?? b.started_at ?? '';
  if (ta !== tb) return ta < tb ? 1 : -1;
  return a.session_id < b.session_id ? -1 : a.session_id > b.session_id ? 1 : 0;
}

export async function scan(opts: ScanOptions): Promise<ScanReport> {
  const { sessions, roots, problems } = await discoverAll(opts.agents);
  const cache = await ScanCache.open(opts.stateRoot, opts.readerVersion);
  const elide = makeHomeElider(opts.userHome);
  const rows: SessionRow[] = [];
  const badLines: { path: string; count: number }[] = [];
  const cwds = new Map<string, string[]>();
  let done = 0;
  let next = 0;

  const work = async (): Promise<void> => {
    while (next < sessions.length) {
      const item = sessions[next++];
      if (item === undefined) break;
      const { reader, session } = item;
      const id = `${session.agent}:${session.path}`;
      try {
        const key = await sessionKey(session);
        let entry = cache.get(id, key);
        if (entry === undefined) {
          const parsed = await reader.parse(session, { detail: 'summary' });
          const bad = parsed.badLines.reduce((n, b) => n + b.count, 0);
          const record = parsed.record === null ? null : finaliseRecord(parsed.record, { detail: 'summary', elide });
          const row = record === null ? null : rowFromRecord(record, session.path, session.home, bad);
          const fileProblems = [...parsed.problems];
          if (record === null) fileProblems.push({ path: session.path, kind: 'unparsed', reason: 'no session in this file' });
          entry = { key, row, problems: fileProblems, cwds: parsed.cwds };
          for (const b of parsed.badLines) badLines.push(b);
          cache.put(id, entry);
        } else if (entry.row !== null && entry.row.bad_lines > 0) {
          badLines.push({ path: session.path, count: entry.row.bad_lines });
        }
        problems.push(...entry.problems);
        if (entry.row !== null) {
          rows.push(entry.row);
          cwds.set(`${entry.row.agent}:${entry.row.session_id}`, entry.cwds);
        }
      } catch (error) {
        problems.push({ path: session.path, kind: 'unreadable', reason: errorMessage(error) });
      }
      done++;
      opts.onProgress?.(done, sessions.length);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, work));
  await cache.save().catch(() => undefined);

  rows.sort(newestFirst);
  return {
    roots,
    sessions: rows,
    unreadable: problems.filter((p) => p.kind !== 'unparsed'),
    unparsed: problems.filter((p) => p.kind === 'unparsed'),
    bad_lines: badLines,
    cwds,
  };
}
