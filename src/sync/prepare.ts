// One session from its files to what sync would send: the opt-in decided on what the session's
// header (or the scan cache) says before anything else is read — a session outside every allowed
// path is never read past its header — then parsed, decided again on every directory it records
// (its subagents' too), and built into its body.
import type { AgentReader, DiscoveredSession } from '../agents/types.js';
import { countToolCalls } from '../record/finalise.js';
import type { Detail, SessionRecord } from '../record/types.js';
import type { ScanCache } from '../scan/scan-cache.js';
import { sessionKey } from '../scan/session-key.js';
import { errorMessage } from '../fs/errors.js';
import type { Allowlist } from './allow/allow-file.js';
import { decideOptIn, type RealPath } from './allow/opt-in.js';
import { buildBody } from './body/build-body.js';
import { redactBeforeClip } from './body/pre-clip.js';
import { makeSyncElider } from './home-elide.js';
import { projectName } from './project.js';
import type { SessionReport } from './report.js';

export interface PrepareContext {
  allow: Allowlist;
  real: RealPath;
  /** The user's home and its real path, for elision. */
  homes: string[];
  /** The scan cache, when one is at hand: its entries name every directory of an unchanged session. */
  cache: ScanCache | null;
  /** Directories a header that names its directory only by a digest is matched against (`cwdCandidates`). */
  candidates: readonly string[];
}

export interface ReadySession {
  kind: 'ready';
  reader: AgentReader;
  report: SessionReport;
  record: SessionRecord;
  body: string;
  sha256: string;
  project: string | null;
  redactions: number;
}

export type Prepared =
  | ReadySession
  | { kind: 'skipped' | 'failed'; report: SessionReport; redactions: number }
  | { kind: 'unreadable'; path: string; reason: string }
  | { kind: 'unparsed'; path: string; reason: string };

export const unknownCwdReason = 'no working directory known without reading the session (agentlog scan learns it)';

function baseReport(session: DiscoveredSession, repo: string | null): SessionReport {
  return {
    agent: session.agent,
    session_id: session.sessionId,
    repo,
    models: [],
    turns: 0,
    tool_calls: 0,
    totals: null,
    truncated: false,
    detail: null,
    status: 'skipped',
    branch: null,
    started_at: null,
    ended_at: null,
    file: session.path,
  };
}

/**
 * What a header naming its directory only by a digest is matched against: the allowed paths (as
 * named and as they really are) and the projects scans saw inside them. A directory outside every
 * allowed path need not be recognised: not recognised, its session is left out unread.
 */
export function cwdCandidates(allow: Allowlist, projects: readonly string[], real: RealPath): string[] {
  const roots = [...allow.keys()];
  const out = new Set<string>();
  for (const r of roots) {
    out.add(r);
    const resolved = real(r);
    if (resolved !== null) out.add(resolved);
  }
  for (const p of projects) if (decideOptIn([p], allow, real).allowed) out.add(p);
  return [...out];
}

/** The directories the session's header (or the cache) names, and whether that is all of them. */
export async function knownCwds(
  reader: AgentReader,
  session: DiscoveredSession,
  cache: ScanCache | null,
  candidates: readonly string[],
): Promise<{ cwds: string[]; all: boolean } | null> {
  if (cache !== null) {
    try {
      const hit = cache.get(`${session.agent}:${session.path}`, await sessionKey(session));
      if (hit !== undefined && hit.cwds.length > 0) return { cwds: hit.cwds, all: true };
      // A cached session that named no directory but a repository: the repository, when a path.
      if (hit?.row?.repo.startsWith('/') === true) return { cwds: [hit.row.repo], all: false };
    } catch {
      // An unreadable prefix: the header route below says what it can.
    }
  }
  const head = session.cwd ?? (reader.cwd === undefined ? null : await reader.cwd(session, candidates));
  return head === null || head === '' ? null : { cwds: [head], all: false };
}

function recordReport(session: DiscoveredSession, record: SessionRecord, detail: Detail): SessionReport {
  return {
    ...baseReport(session, record.repo),
    models: record.models,
    turns: record.turns.length,
    tool_calls: countToolCalls(record.turns),
    totals: record.totals,
    truncated: record.truncated,
    detail,
    branch: record.branch,
    started_at: record.started_at,
    ended_at: record.ended_at,
  };
}

/** Builds the body a decided session would send (also what `show --as-sent` prints). */
export function buildReady(
  reader: AgentReader,
  session: DiscoveredSession,
  draft: SessionRecord,
  detail: Detail,
  homes: string[],
  /** Spans the parse's clips redacted before cutting (`redactBeforeClip`). */
  parseRedactions = 0,
): Prepared {
  const built = buildBody(draft, { detail, homes });
  const redactions = built.redactions + parseRedactions;
  if (!built.ok) {
    const elided = makeSyncElider(homes)(draft.repo);
    return {
      kind: 'failed',
      report: { ...baseReport(session, elided), detail, status: 'failed', reason: built.reason },
      redactions,
    };
  }
  return {
    kind: 'ready',
    reader,
    report: recordReport(session, built.record, detail),
    record: built.record,
    body: built.body,
    sha256: built.sha256,
    project: projectName(built.record.repo),
    redactions,
  };
}

export async function prepareSession(reader: AgentReader, session: DiscoveredSession, ctx: PrepareContext): Promise<Prepared> {
  const elide = makeSyncElider(ctx.homes);
  const known = await knownCwds(reader, session, ctx.cache, ctx.candidates);
  if (known === null) return { kind: 'skipped', report: { ...baseReport(session, null), reason: unknownCwdReason }, redactions: 0 };
  const early = decideOptIn(known.cwds, ctx.allow, ctx.real);
  if (!early.allowed)
    return { kind: 'skipped', report: { ...baseReport(session, elide(known.cwds[0] ?? '')), reason: early.reason }, redactions: 0 };
  let parsed;
  // Every text a clip cuts while reading is redacted whole before the cut.
  const pre = redactBeforeClip(ctx.homes);
  try {
    parsed = await pre.run(() => reader.parse(session, { detail: early.detail }));
  } catch (error) {
    return { kind: 'unreadable', path: session.path, reason: errorMessage(error) };
  }
  if (parsed.record === null) {
    const problem = parsed.problems[0];
    if (problem !== undefined && problem.kind !== 'unparsed') return { kind: 'unreadable', path: problem.path, reason: problem.reason };
    return { kind: 'unparsed', path: session.path, reason: problem?.reason ?? 'no session in this file' };
  }
  // Every directory now, subagents' included: one outside leaves the whole session out.
  const decided = decideOptIn([...new Set([...known.cwds, ...parsed.cwds])], ctx.allow, ctx.real);
  if (!decided.allowed)
    return { kind: 'skipped', report: { ...baseReport(session, elide(parsed.record.repo)), reason: decided.reason }, redactions: 0 };
  return buildReady(reader, session, parsed.record, decided.detail, ctx.homes, pre.redactions);
}
