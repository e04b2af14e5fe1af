// A loaded OpenCode session tree as the record: the root session's turns, with each child session
// (`parentID`) nested as the subagent of the `task` call that launched it.
import { clipOutput } from '../../record/clip.js';
import { newRecord, newSubagent } from '../../record/draft.js';
import type { Detail, SessionRecord, Subagent, SubagentStatus, Turn } from '../../record/types.js';
import { isoTime, type OcSessionData, type OcTree } from './model.js';
import { sessionTurns, type SessionTurns, type TaskLaunch } from './session-turns.js';

export interface OpencodeBuild {
  record: SessionRecord;
  cwds: string[];
}

function pushAll(list: string[], values: readonly string[]): void {
  for (const v of values) if (!list.includes(v)) list.push(v);
}

function subagentStatus(launch: TaskLaunch | undefined, child: SessionTurns): SubagentStatus | null {
  switch (launch?.state) {
    case 'completed':
      return 'completed';
    case 'error':
      return child.ending === 'aborted' ? 'stopped' : 'failed';
    case 'pending':
    case 'running':
      return launch.call.status === 'interrupted' ? 'stopped' : 'running';
    default:
      break;
  }
  if (child.ending === 'aborted') return 'stopped';
  if (child.ending === 'error') return 'failed';
  return child.ending === 'completed' ? 'completed' : null;
}

/** Inserts a turn before the first later-dated one (turns without a time keep their place). */
function insertByTime(turns: Turn[], turn: Turn): void {
  const at = turn.at;
  const index = at === null ? -1 : turns.findIndex((t) => t.at !== null && t.at > at);
  if (index === -1) turns.push(turn);
  else turns.splice(index, 0, turn);
}

class TreeBuilder {
  /** Sessions already placed: a child is nested once, and a parent cycle cannot recurse. */
  private readonly placed = new Set<string>();

  /** `full`: tool calls carry input and output (the lower detail levels drop them unbuilt). */
  constructor(
    private readonly tree: OcTree,
    private readonly full: boolean,
  ) {}

  /** Builds one session's turns with its children nested; returns them and every cwd below. */
  build(data: OcSessionData): { turns: SessionTurns; cwds: string[] } {
    this.placed.add(data.session.id);
    const turns = sessionTurns(data, this.full);
    const cwds = [...turns.cwds];
    const children = [...this.tree.sessions.values()]
      .filter((d) => d.session.parentId === data.session.id && !this.placed.has(d.session.id))
      .sort((a, b) => (a.session.createdMs ?? 0) - (b.session.createdMs ?? 0));
    const byId = new Map(children.map((c) => [c.session.id, c]));
    const attach = (launch: TaskLaunch | undefined, child: OcSessionData): Subagent => {
      const built = this.build(child);
      pushAll(cwds, built.cwds);
      const sub = this.subagent(launch, child, built.turns);
      if (launch !== undefined) {
        launch.call.subagent = sub;
        if (built.turns.lastWords !== undefined && this.full) launch.call.output = clipOutput(built.turns.lastWords);
      }
      return sub;
    };

    // The part names its child session; launches that do not are paired with the remaining
    // children in launch order; a child no call accounts for still nests, as a call of its own.
    for (const launch of turns.launches) {
      const child = launch.childId === undefined ? undefined : byId.get(launch.childId);
      if (child !== undefined && !this.placed.has(child.session.id)) attach(launch, child);
    }
    const unnamed = turns.launches.filter((l) => l.childId === undefined);
    for (const child of children) {
      if (this.placed.has(child.session.id)) continue;
      const launch = unnamed.shift();
      if (launch !== undefined) {
        attach(launch, child);
        continue;
      }
      const sub = attach(undefined, child);
      const call = {
        name: 'task',
        format: 'text' as const,
        subagent: sub,
        ...(child.session.title === undefined ? {} : { input: child.session.title }),
      };
      const lastWords = lastWordsOf(sub);
      insertByTime(turns.turns, {
        role: 'assistant',
        at: isoTime(child.session.createdMs),
        text: '',
        tool_calls: [lastWords === undefined || !this.full ? call : { ...call, output: clipOutput(lastWords) }],
      });
    }
    return { turns, cwds };
  }

  private subagent(launch: TaskLaunch | undefined, child: OcSessionData, built: SessionTurns): Subagent {
    const sub = newSubagent(child.session.id);
    const input = launch?.input;
    sub.name = (input === undefined ? undefined : strOf(input.subagent_type)) ?? built.agent ?? null;
    sub.description = (input === undefined ? undefined : strOf(input.description)) ?? child.session.title ?? null;
    sub.models = built.models;
    sub.started_at = built.span.started_at;
    sub.ended_at = built.span.ended_at;
    sub.status = subagentStatus(launch, built);
    sub.totals = built.totals;
    if (built.usageApart.length > 0) sub.usage_apart = built.usageApart;
    sub.turns = built.turns;
    return sub;
  }
}

function strOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function lastWordsOf(sub: Subagent): string | undefined {
  for (let i = sub.turns.length - 1; i >= 0; i--) {
    const t = sub.turns[i];
    if (t?.role === 'assistant' && t.text !== '') return t.text;
  }
  return undefined;
}

export function buildOpencodeRecord(tree: OcTree, detail: Detail = 'full'): OpencodeBuild | null {
  const root = tree.sessions.get(tree.rootId);
  if (root === undefined) return null;
  const { turns, cwds } = new TreeBuilder(tree, detail === 'full').build(root);
  const record = newRecord('opencode', root.session.id);
  record.repo = root.session.directory ?? cwds[0] ?? '';
  record.models = turns.models;
  record.started_at = turns.span.started_at;
  record.ended_at = turns.span.ended_at;
  record.turns = turns.turns;
  record.totals = turns.totals;
  if (turns.usageApart.length > 0) record.usage_apart = turns.usageApart;
  return { record, cwds };
}
