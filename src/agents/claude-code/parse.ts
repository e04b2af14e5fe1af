// Reads one Claude Code session's files (main transcript, subagent transcripts and their meta files)
// into the record, streaming every transcript line by line.
import { forEachJsonObject } from '../../fs/read-jsonl.js';
import { errorMessage } from '../../fs/errors.js';
import { text, type JsonObject } from '../../json/narrow.js';
import { newRecord, noteTime } from '../../record/draft.js';
import type { DiscoveredSession, FileProblem, LineTally, ParseContext, ParsedSession } from '../types.js';
import { agentIdOfFile, jsonlExt, metaExt } from './layout.js';
import { SessionState } from './session-state.js';
import { forEachSummaryObject } from './summary-read.js';
import { assembleSubagents, type FileSubagent, type SubagentMeta } from './subagents.js';
import { SubagentMetas } from './subagent-meta.js';
import { Transcript } from './transcript.js';

/** A subagent transcript file, with its place among the session's subagent files. */
interface SubagentLog {
  id: string;
  path: string;
  index: number;
  mtimeMs: number;
}

/** Longer lines are not decoded whole: a binary file with no newline must not be read whole. */
export const maxLineBytes = 32 * 1024 * 1024;
/**
 * A longer line is read clipped instead (a 200 MB pasted log is still one valid message): each string
 * keeps its first 512 KiB, above the record's 256 KiB message clip, so the record clips it as usual;
 * only a line whose clipped copy passes 16 MiB (all structure, or not JSON at all) is counted bad.
 */
export const clipLongLines = { keepStringBytes: 512 * 1024, maxOutputBytes: 16 * 1024 * 1024 } as const;

/** Line types read into the record. */
const recordTypes: ReadonlySet<unknown> = new Set(['user', 'assistant', 'system', 'summary', 'attachment', 'queue-operation']);
/** Line types Claude Code writes for itself (file snapshots, titles, modes, links): known, and not read. */
const machineryTypes: ReadonlySet<unknown> = new Set([
  'file-history-snapshot',
  'progress',
  'custom-title',
  'ai-title',
  'agent-name',
  'last-prompt',
  'tag',
  'worktree-state',
  'permission-mode',
  'mode',
  'pr-link',
  'frame-link',
  'relocated',
]);

/** Line types that may sit on a sidechain (`isSidechain: true`) inside the main file. */
const sidechainTypes: ReadonlySet<unknown> = new Set(['user', 'assistant', 'system', 'attachment']);

/** Groups a main file's inline sidechain lines (older builds) into one transcript per subagent. */
class InlineSidechains {
  readonly groups: Transcript[] = [];
  private readonly byAgent = new Map<string, Transcript>();
  private readonly byUuid = new Map<string, Transcript>();
  private current: Transcript | undefined;

  constructor(private readonly state: SessionState) {}

  /**
   * The group a line belongs to: by `agentId` where the line has one; else the group of its
   * `parentUuid`; a line with no parent starts a new group (each subagent's prompt line has none).
   */
  groupFor(o: JsonObject): Transcript {
    const agentId = text(o, 'agentId');
    let group: Transcript | undefined;
    if (agentId !== undefined) group = this.byAgent.get(agentId);
    else {
      const parent = o.parentUuid;
      if (typeof parent === 'string') group = this.byUuid.get(parent) ?? this.current;
    }
    if (group === undefined) {
      group = new Transcript(this.state, agentId);
      this.groups.push(group);
      if (agentId !== undefined) this.byAgent.set(agentId, group);
    }
    const uuid = agentId === undefined ? text(o, 'uuid') : undefined;
    if (uuid !== undefined) this.byUuid.set(uuid, group);
    this.current = group;
    return group;
  }
}

function feed(state: SessionState, t: Transcript, o: JsonObject): void {
  state.seq++;
  const type = o.type;
  if (type === 'assistant' || type === 'user' || type === 'system') state.noteEnv(o);
  t.feed(o, type);
}

/**
 * Streams a transcript's objects (summary detail reads the bytes itself) and counts every line by
 * what it was: a record, known machinery, an unknown type, not a record, or unparseable.
 */
async function readObjects(
  path: string,
  onObject: (o: JsonObject) => void,
  summary: boolean,
  start = 0,
): Promise<{ bad: number; clipped: number; tally: LineTally }> {
  const tally: LineTally = { path, parsed: 0, machinery: 0, unknown: 0, notRecord: 0, unparseable: 0, clipped: 0 };
  const counted = (o: JsonObject): void => {
    if (recordTypes.has(o.type)) tally.parsed++;
    else if (machineryTypes.has(o.type)) tally.machinery++;
    else tally.unknown++;
    onObject(o);
  };
  const r = summary
    ? forEachSummaryObject(path, counted, maxLineBytes, clipLongLines)
    : await forEachJsonObject(path, counted, { maxLineBytes, clipLongLines, start }).then((j) => ({
        bad: j.badLines,
        notObjects: j.notObjectLines,
        clipped: j.clippedLines,
      }));
  tally.notRecord = r.notObjects;
  tally.unparseable = r.bad - r.notObjects;
  tally.clipped = r.clipped;
  return { bad: r.bad, clipped: r.clipped, tally };
}

/**
 * Parses a discovered session. The main file's read errors throw (the caller reports the session
 * unreadable); a subagent file that cannot be read is reported in `problems` and the rest is kept.
 */
export async function parseClaude(session: DiscoveredSession, ctx: ParseContext): Promise<ParsedSession> {
  const state = new SessionState(ctx.detail);
  const main = new Transcript(state, undefined);
  const sidechains = new InlineSidechains(state);
  const badLines: { path: string; count: number }[] = [];
  const problems: FileProblem[] = [];
  const [mainFile, ...extra] = session.files;
  if (mainFile === undefined) return { record: null, cwds: [], badLines, problems };

  const summary = ctx.detail === 'summary';
  // The summary reader reads whole files only; a tail view is a full-detail read.
  const from = !summary && ctx.mainFrom !== undefined && ctx.mainFrom > 0 ? ctx.mainFrom : undefined;
  const clippedLines: { path: string; count: number }[] = [];
  const lineTally: LineTally[] = [];
  const mainRead = await readObjects(
    mainFile.path,
    (o) => {
      const t = o.isSidechain === true && sidechainTypes.has(o.type) ? sidechains.groupFor(o) : main;
      feed(state, t, o);
    },
    summary,
    from,
  );
  if (mainRead.bad > 0) badLines.push({ path: mainFile.path, count: mainRead.bad });
  if (mainRead.clipped > 0) clippedLines.push({ path: mainFile.path, count: mainRead.clipped });
  lineTally.push(mainRead.tally);

  // Meta files' problems come before those of the subagent transcripts, in file order.
  const metas = new SubagentMetas();
  const metaPaths = new Map<string, string>();
  const allMetas: (readonly [string | undefined, string])[] = [];
  for (const f of extra) {
    if (!f.path.endsWith(metaExt)) continue;
    const id = agentIdOfFile(f.path);
    allMetas.push([id, f.path]);
    if (id !== undefined) metaPaths.set(id, f.path);
  }
  const metaOf = (logs: readonly SubagentLog[]): (readonly [string, string])[] =>
    logs.flatMap((l) => {
      const path = metaPaths.get(l.id);
      return path === undefined ? [] : [[l.id, path] as const];
    });
  const logs: SubagentLog[] = extra
    .filter((f) => f.path.endsWith(jsonlExt))
    .map((f, index) => ({ id: agentIdOfFile(f.path) ?? f.path, path: f.path, index, mtimeMs: f.mtimeMs }));
  const logBad: { path: string; count: number }[] = [];
  const logProblems: FileProblem[] = [];
  const files: (FileSubagent & { index: number })[] = [];
  const readLog = async (log: SubagentLog): Promise<void> => {
    const t = new Transcript(state, log.id);
    try {
      const read = await readObjects(log.path, (o) => feed(state, t, o), summary);
      if (read.bad > 0) logBad.push({ path: log.path, count: read.bad });
      if (read.clipped > 0) clippedLines.push({ path: log.path, count: read.clipped });
      lineTally.push(read.tally);
    } catch (error) {
      logProblems.push({ path: log.path, kind: 'unreadable', reason: errorMessage(error) });
      return;
    }
    files.push({ id: log.id, transcript: t, meta: metas.byId.get(log.id), index: log.index });
  };
  if (from === undefined) {
    metas.read(allMetas);
    for (const log of logs) await readLog(log);
  } else {
    // A tail view reads only the subagents its own lines launched (a huge session holds hundreds),
    // and the ones those launched in turn, whatever order their files come in.
    let pending = logs;
    for (;;) {
      // A launch with no agent id yet (a subagent still running) is found only by its meta's tool use id.
      const since = awaitingMetaSince(state, metas);
      if (since !== undefined) metas.read(metaOf(pending.filter((l) => l.mtimeMs >= since - launchClockSlackMs)));
      const chosen = pending.filter((l) => launchedInTail(state, l.id, metas.byId.get(l.id)));
      if (chosen.length === 0) break;
      metas.read(metaOf(chosen));
      pending = pending.filter((l) => !chosen.includes(l));
      for (const log of chosen) await readLog(log);
    }
    files.sort((a, b) => a.index - b.index);
  }
  problems.push(...metas.problems, ...logProblems);
  badLines.push(...metas.bad.map((path) => ({ path, count: 1 })), ...logBad);

  main.finish();
  for (const g of sidechains.groups) g.finish();
  for (const f of files) f.transcript.finish();
  const { subagents } = assembleSubagents(state, main, sidechains.groups, files);

  if (!state.sawSession) return { record: null, cwds: state.cwds, badLines, problems, clippedLines, lineTally };
  const record = newRecord('claude_code', session.sessionId);
  record.repo = state.cwds[0] ?? '';
  record.branch = state.branch;
  record.models = main.models;
  record.turns = main.turns;
  main.usage.settle(record);
  record.started_at = main.span.started_at;
  record.ended_at = main.span.ended_at;
  for (const s of subagents) {
    noteTime(record, s.started_at ?? undefined);
    noteTime(record, s.ended_at ?? undefined);
  }
  return { record, cwds: state.cwds, badLines, problems, clippedLines, lineTally, ...(from !== undefined ? { readFrom: from } : {}) };
}

/** Writes to a file may carry an mtime this much older than the line that announced them (clocks, rounding). */
const launchClockSlackMs = 60_000;

/**
 * When a launch read so far has neither an agent id nor a meta file naming its tool use id (a
 * subagent still running), the earliest time such a launch was made: only a file written since can
 * be its subagent's. Undefined when no launch waits for its meta.
 */
function awaitingMetaSince(state: SessionState, metas: SubagentMetas): number | undefined {
  const named = new Set<string>();
  for (const m of metas.byId.values()) if (m.toolUseId !== undefined) named.add(m.toolUseId);
  let since: number | undefined;
  for (const l of state.launches) {
    if (l.agentId !== undefined || l.toolUseId === undefined || named.has(l.toolUseId)) continue;
    const t = l.at === null ? Number.NEGATIVE_INFINITY : Date.parse(l.at);
    const at = Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
    since = since === undefined ? at : Math.min(since, at);
  }
  return since;
}

/** Whether a call read so far launched subagent `id` (by its meta's tool use id, or by its agent id). */
function launchedInTail(state: SessionState, id: string, meta: SubagentMeta | undefined): boolean {
  return (meta?.toolUseId !== undefined && state.launchById.has(meta.toolUseId)) || state.launchByAgentId.has(id);
}
