// Builds the record from a session's wire logs: the main agent's turns, and each child agent
// nested as the subagent of the call that launched it (its output replaced by the child's last
// words). A child the wires do not link to a call still appears, in a call of its own.
import { text } from '../../json/narrow.js';
import { clipOutput } from '../../record/clip.js';
import { newRecord, newSubagent, noteTime } from '../../record/draft.js';
import type { Detail, SessionRecord, Subagent, SubagentStatus, Turn } from '../../record/types.js';
import { mainAgentId } from './layout.js';
import type { KimiSessionLogs } from './session-read.js';
import { agentTurns } from './turns.js';
import type { WireLog, WireToolCall } from './wire-entry.js';

const statusWords: Record<string, SubagentStatus> = {
  completed: 'completed',
  succeeded: 'completed',
  failed: 'failed',
  error: 'failed',
  timeout: 'failed',
  cancelled: 'stopped',
  canceled: 'stopped',
  stopped: 'stopped',
  aborted: 'stopped',
  interrupted: 'stopped',
  running: 'running',
};

/** The status the Agent tool's result states ("status: completed"), else what the call shows. */
function subagentStatus(call: WireToolCall | null): SubagentStatus | null {
  if (call === null) return null;
  const word = /^status:\s*([A-Za-z_]+)/m.exec(call.output?.slice(0, 4096) ?? '')?.[1]?.toLowerCase();
  if (word !== undefined && statusWords[word] !== undefined) return statusWords[word];
  if (call.isError) return 'failed';
  if (call.interrupted) return 'stopped';
  return null;
}

/** Which agent launched each child: the wire that links it, else state.json, else main. */
function parentsOf(session: KimiSessionLogs): Map<string, string> {
  const parents = new Map<string, string>();
  for (const log of session.logs.values()) {
    for (const entry of log.entries) {
      if (entry.kind !== 'step') continue;
      for (const call of entry.calls) {
        const child = call.childAgentId;
        if (child !== null && child !== log.agentId && session.logs.has(child) && !parents.has(child)) parents.set(child, log.agentId);
      }
    }
  }
  for (const id of session.logs.keys()) {
    if (id === mainAgentId || parents.has(id)) continue;
    const declared = session.state?.agents.get(id)?.parentAgentId ?? null;
    parents.set(id, declared !== null && declared !== id && session.logs.has(declared) ? declared : mainAgentId);
  }
  return parents;
}

interface Built {
  turns: Turn[];
  lastWords: string | null;
}

class Nester {
  private readonly parents: Map<string, string>;
  private readonly placed = new Set<string>([mainAgentId]);

  /** `full`: tool calls carry input and output (the lower detail levels drop them unbuilt). */
  constructor(
    private readonly session: KimiSessionLogs,
    private readonly full: boolean,
  ) {
    this.parents = parentsOf(session);
  }

  build(agentId: string): Built {
    const log = this.session.logs.get(agentId) as WireLog;
    const own = agentTurns(log, agentId !== mainAgentId, this.full);
    const children = [...this.session.logs.keys()].filter((id) => this.parents.get(id) === agentId);
    for (const launch of own.launches) {
      const child = launch.wire.childAgentId;
      if (child === null || !children.includes(child) || this.placed.has(child)) continue;
      this.placed.add(child);
      const { subagent, lastWords } = this.subagent(child, launch.wire);
      launch.call.subagent = subagent;
      if (lastWords !== null && this.full) launch.call.output = clipOutput(lastWords);
    }
    // Agents no chain from main reaches (their declared parents form a loop) hang off main.
    if (agentId === mainAgentId)
      for (const id of this.session.logs.keys()) if (!children.includes(id) && !this.reachable(id)) children.push(id);
    for (const child of children) {
      // A child whose launch was undone went with it; an unlinked one gets a call of its own.
      if (this.placed.has(child) || own.undoneLaunches.has(child)) continue;
      this.placed.add(child);
      const { subagent, lastWords } = this.subagent(child, null);
      const turn: Turn = { role: 'assistant', at: subagent.started_at, text: '', tool_calls: [{ name: 'Agent', subagent }] };
      if (lastWords !== null && this.full && turn.tool_calls?.[0] !== undefined) turn.tool_calls[0].output = clipOutput(lastWords);
      insertByTime(own.turns, turn);
    }
    return { turns: own.turns, lastWords: own.lastWords };
  }

  private reachable(id: string): boolean {
    const seen = new Set<string>();
    let at: string | undefined = id;
    while (at !== undefined && !seen.has(at)) {
      if (at === mainAgentId) return true;
      seen.add(at);
      at = this.parents.get(at);
    }
    return false;
  }

  private subagent(id: string, call: WireToolCall | null): { subagent: Subagent; lastWords: string | null } {
    const log = this.session.logs.get(id) as WireLog;
    const built = this.build(id);
    const sub = newSubagent(id);
    sub.name = text(call?.args, 'subagent_type') ?? log.profileName ?? null;
    sub.description = text(call?.args, 'description') ?? null;
    sub.models = [...log.models];
    sub.started_at = log.span.started_at;
    sub.ended_at = log.span.ended_at;
    sub.status = subagentStatus(call);
    sub.totals = { ...log.usage };
    sub.usage_apart = log.usageLog;
    sub.turns = built.turns;
    return { subagent: sub, lastWords: built.lastWords };
  }
}

/** Places a turn after the last one at or before its time (turns without a time stay put). */
function insertByTime(turns: Turn[], turn: Turn): void {
  let at = turns.length;
  if (turn.at !== null) {
    at = 0;
    for (let i = 0; i < turns.length; i++) {
      const t = turns[i]?.at;
      if (t === null || t === undefined || t <= turn.at) at = i + 1;
    }
  }
  turns.splice(at, 0, turn);
}

function isEmpty(log: WireLog): boolean {
  const u = log.usage;
  return log.entries.length === 0 && u.input_tokens + u.output_tokens + u.cache_read_tokens + u.cache_creation_tokens === 0;
}

/** The record and every working directory, or null when the main wire holds no session. */
export function kimiRecord(
  sessionId: string,
  session: KimiSessionLogs,
  indexCwd?: string,
  detail: Detail = 'full',
): { record: SessionRecord; cwds: string[] } | null {
  const main = session.logs.get(mainAgentId);
  if (main === undefined || (isEmpty(main) && session.logs.size === 1)) return null;
  const record = newRecord('kimi', sessionId);
  record.turns = new Nester(session, detail === 'full').build(mainAgentId).turns;
  record.totals = { ...main.usage };
  // Kimi writes usage apart from the steps (undone ones included: they were billed), each with its time.
  record.usage_apart = main.usageLog;
  record.models = [...main.models];
  noteTime(record, main.span.started_at ?? session.state?.createdAt);
  noteTime(record, main.span.ended_at ?? session.state?.updatedAt);
  const cwds: string[] = [];
  const add = (dir: string | undefined): void => {
    if (dir !== undefined && dir !== '' && !cwds.includes(dir)) cwds.push(dir);
  };
  add(session.state?.workDir);
  add(indexCwd);
  for (const log of session.logs.values()) for (const dir of log.cwds) add(dir);
  record.repo = cwds[0] ?? '';
  return { record, cwds };
}
