// The entries one agent's wire folds into, in source order: a person's prompts, model steps with
// their tool calls, and events, each tagged with the user turn it belongs to and, once undone,
// with its supersession. Shared by the record (active entries) and the message index (all).
import type { JsonObject } from '../../json/narrow.js';
import type { Totals, UsageApart } from '../../record/types.js';
import type { PromptOrigin } from './wire-line.js';

/** A real-user turn: its position among the active turns and how often that position was redone. */
export interface TurnRef {
  index: number;
  revision: number;
}

export interface Supersession {
  at: string | null;
  reason: 'context_undo';
}

export interface EntryBase {
  /** `<agent-id>:<uuid | toolCallId | line-N>`: unique across the agents of a session. */
  recordId: string;
  at: string | null;
  turn: TurnRef | null;
  superseded: Supersession | null;
}

export interface WireToolCall {
  id: string;
  name: string;
  args: JsonObject | undefined;
  at: string | null;
  output: string | null;
  isError: boolean;
  /** No result arrived before the turn ended, was cancelled or a new prompt came. */
  interrupted: boolean;
  /** The agent this call launched, when the wire links one. */
  childAgentId: string | null;
}

export interface StepPart {
  recordId: string;
  kind: 'text' | 'think';
  text: string;
  at: string | null;
}

export interface UserEntry extends EntryBase {
  kind: 'user';
  text: string;
  lane: 'prompt' | 'steer' | 'message';
  /** The trigger's name for machine-sent prompts (a subagent's task), null for a person's. */
  trigger: string | null;
}

/** One model call: its reasoning and text parts and the tools it called. */
export interface StepEntry extends EntryBase {
  kind: 'step';
  model: string | undefined;
  parts: StepPart[];
  calls: WireToolCall[];
  usage: Totals | undefined;
}

export interface EventEntry extends EntryBase {
  kind: 'event';
  event: 'compaction' | 'clear' | 'interrupted';
  text: string;
}

export type WireEntry = UserEntry | StepEntry | EventEntry;

export interface WireLog {
  agentId: string;
  entries: WireEntry[];
  /** Per-call usage summed once (usage.record lines, else step.end usage). */
  usage: Totals;
  /** The same calls one by one with the time each was written, undone ones included: `usage` is their sum. */
  usageLog: UsageApart[];
  models: string[];
  cwds: string[];
  profileName: string | undefined;
  span: { started_at: string | null; ended_at: string | null };
  records: number;
}

/** A person's prompt, as Kimi Code's replay decides it (origin absent, `user`, or a user slash command). */
export function isRealUser(origin: PromptOrigin): boolean {
  if (origin.kind === null || origin.kind === 'user') return true;
  if (origin.kind === 'skill_activation' || origin.kind === 'plugin_command') return origin.trigger === 'user-slash';
  return false;
}
