// Nests spawned agents' threads in the calls that launched them (seed 003 "Subagents"): by the
// thread id the spawn result or spawn-end event names, by the agent path a v2 result names, then
// by order among the parent's remaining launches. A child no launch accounts for (a code-mode
// script spawned it, or the call was lost) gets a `spawn_agent` call of its own, placed in time.
import { cutChars } from '../../record/clip.js';
import { newSubagent } from '../../record/draft.js';
import type { Subagent, ToolCall, Turn } from '../../record/types.js';
import type { SpawnLaunch } from './spawn-launch.js';
import type { DetailNeeds, RolloutThread } from './thread-builder.js';

/** The launch description is a label, not the prompt (which is the call's input). */
const descriptionChars = 200;

function startOf(t: RolloutThread): string {
  return t.meta?.startedAt ?? t.span.started_at ?? '';
}

class Nester {
  private readonly byParent = new Map<RolloutThread, RolloutThread[]>();
  private readonly done = new Set<RolloutThread>();

  constructor(
    root: RolloutThread,
    children: readonly RolloutThread[],
    private readonly needs: DetailNeeds,
    private readonly cwds: string[],
  ) {
    const byId = new Map<string, RolloutThread>();
    for (const t of [root, ...children]) {
      const id = t.meta?.id;
      if (id !== undefined && !byId.has(id)) byId.set(id, t);
    }
    for (const child of children) {
      const parentId = child.meta?.spawnParent;
      const found = parentId === undefined ? undefined : byId.get(parentId);
      // A child whose parent is not among the session's threads still belongs to this session.
      const parent = found === undefined || found === child ? root : found;
      const list = this.byParent.get(parent) ?? [];
      list.push(child);
      this.byParent.set(parent, list);
    }
  }

  /** Nests every child of `parent` (and theirs, depth first) into `parent`'s turns. */
  nest(parent: RolloutThread): void {
    this.done.add(parent);
    const kids = (this.byParent.get(parent) ?? []).filter((k) => !this.done.has(k));
    if (kids.length === 0) return;
    const left = new Set(kids);
    const placed = new Set<SpawnLaunch>();
    const take = (launch: SpawnLaunch, kid: RolloutThread): void => {
      left.delete(kid);
      placed.add(launch);
      this.place(launch.call, kid, launch);
    };
    for (const launch of parent.launches) {
      const kid = kids.find(
        (k) =>
          left.has(k) &&
          ((launch.childId !== undefined && k.meta?.id === launch.childId) ||
            (launch.childPath !== undefined && k.meta?.agentPath === launch.childPath)),
      );
      if (kid !== undefined) take(launch, kid);
    }
    const unnamed = parent.launches.filter((l) => !placed.has(l) && !l.failed && l.childId === undefined && l.childPath === undefined);
    const waiting = [...left].sort((a, b) => (startOf(a) < startOf(b) ? -1 : startOf(a) > startOf(b) ? 1 : 0));
    for (const kid of waiting) {
      const launch = unnamed.shift();
      if (launch !== undefined) take(launch, kid);
      else this.placeAlone(parent.turns, kid);
    }
  }

  private subagent(kid: RolloutThread, launch: SpawnLaunch | undefined): Subagent {
    this.nest(kid);
    for (const cwd of kid.cwds) if (!this.cwds.includes(cwd)) this.cwds.push(cwd);
    const sub = newSubagent(kid.meta?.id ?? 'unknown');
    // The subagent's name is the kind of agent: Codex's agent role.
    sub.name = kid.meta?.agentRole ?? launch?.agentType ?? null;
    sub.description = launch?.description === undefined ? null : cutChars(launch.description, descriptionChars);
    sub.models = kid.models;
    sub.started_at = kid.span.started_at;
    sub.ended_at = kid.span.ended_at;
    sub.status = kid.status;
    sub.totals = kid.totals;
    if (kid.usageApart.length > 0) sub.usage_apart = kid.usageApart;
    sub.turns = kid.turns;
    return sub;
  }

  private place(call: ToolCall, kid: RolloutThread, launch: SpawnLaunch | undefined): void {
    call.subagent = this.subagent(kid, launch);
    // The launching call's output is the subagent's last words, not the spawn receipt.
    if (this.needs.tools && kid.lastWords !== undefined) call.output = kid.lastWords;
  }

  private placeAlone(turns: Turn[], kid: RolloutThread): void {
    const call: ToolCall = { name: 'spawn_agent' };
    this.place(call, kid, undefined);
    const at = kid.span.started_at;
    let index = turns.length;
    if (at !== null) {
      const later = turns.findIndex((t) => t.at !== null && t.at > at);
      if (later !== -1) index = later;
    }
    turns.splice(index, 0, { role: 'assistant', at, text: '', tool_calls: [call] });
  }
}

/** Nests `children` (every other thread of the session) under `root`; their cwds join `cwds`. */
export function nestSpawned(root: RolloutThread, children: readonly RolloutThread[], needs: DetailNeeds, cwds: string[]): void {
  new Nester(root, children, needs, cwds).nest(root);
}
