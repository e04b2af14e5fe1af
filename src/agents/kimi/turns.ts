// One agent's active (not undone) wire entries as record turns: a person's prompts as user turns,
// each model step as a reasoning turn (thinking in the clear) and an assistant turn with its tool
// calls, and compactions, clears and cancels as event turns.
import { clipMessage } from '../../record/clip.js';
import type { ToolCall, Turn } from '../../record/types.js';
import { toToolCall } from './tool-call.js';
import type { StepPart, WireLog, WireToolCall } from './wire-entry.js';

/** Kimi's own machinery inside prompt text: reminders, and the git context a subagent task opens with. */
const machineryBlocks = [/<system-reminder>[\s\S]*?<\/system-reminder>/g, /^\s*<git-context>[\s\S]*?<\/git-context>/];

export function stripMachinery(text: string): string {
  // Both blocks open with a tag: most prompts hold none and are not searched twice.
  if (!text.includes('<')) return text.trim();
  let out = text;
  for (const block of machineryBlocks) out = out.replace(block, '');
  return out.trim();
}

/** A step's parts of one kind joined by a blank line, with the time of the first. */
interface Joined {
  text: string;
  at: string | null;
}

/**
 * A step's reasoning and its text; null for a kind it has no part of. One loop, not filter, map
 * and find: their arrays changed map between empty and not, which threw away the optimised
 * `agentTurns` (recompiled three times in a cold scan of the bench home's Kimi sessions).
 */
function stepTexts(parts: readonly StepPart[]): { thinking: Joined | null; said: Joined | null } {
  let thinking: Joined | null = null;
  let said: Joined | null = null;
  for (const p of parts) {
    if (p.kind === 'think') {
      if (thinking === null) thinking = { text: p.text, at: p.at };
      else thinking.text = `${thinking.text}\n\n${p.text}`;
    } else if (said === null) said = { text: p.text, at: p.at };
    else said.text = `${said.text}\n\n${p.text}`;
  }
  return { thinking, said };
}

export interface Launch {
  wire: WireToolCall;
  call: ToolCall;
}

export interface AgentTurns {
  turns: Turn[];
  /** Calls that launched another agent of the session, for nesting. */
  launches: Launch[];
  /** Calls whose launch was undone: their agents are not part of the record. */
  undoneLaunches: Set<string>;
  /** The agent's last assistant text: a subagent's final answer. */
  lastWords: string | null;
}

/**
 * `withTasks` keeps machine-sent prompts: in a subagent's wire they carry the task it was given.
 * `full`: tool calls carry their input and output (the lower detail levels drop them unbuilt).
 */
export function agentTurns(log: WireLog, withTasks: boolean, full = true): AgentTurns {
  const turns: Turn[] = [];
  const launches: Launch[] = [];
  const undoneLaunches = new Set<string>();
  let lastWords: string | null = null;
  for (const entry of log.entries) {
    if (entry.superseded !== null) {
      if (entry.kind === 'step') for (const c of entry.calls) if (c.childAgentId !== null) undoneLaunches.add(c.childAgentId);
      continue;
    }
    if (entry.kind === 'user') {
      if (entry.trigger !== null && !withTasks) continue;
      const text = stripMachinery(entry.text);
      if (text !== '') turns.push({ role: 'user', at: entry.at, text: clipMessage(text) });
    } else if (entry.kind === 'event') {
      turns.push({ role: 'event', at: entry.at, text: entry.text });
    } else {
      const { thinking, said } = stepTexts(entry.parts);
      if (thinking !== null) turns.push({ role: 'reasoning', at: thinking.at ?? entry.at, text: clipMessage(thinking.text) });
      if (said === null && entry.calls.length === 0) continue;
      const calls: ToolCall[] = [];
      for (const wire of entry.calls) {
        const call = toToolCall(wire, full);
        if (wire.childAgentId !== null) launches.push({ wire, call });
        calls.push(call);
      }
      const text = said?.text ?? '';
      if (text.trim() !== '') lastWords = text;
      const turn: Turn = {
        role: 'assistant',
        at: said?.at ?? entry.calls[0]?.at ?? entry.at,
        text: clipMessage(text),
        tool_calls: calls,
      };
      if (entry.model !== undefined) turn.model = entry.model;
      turns.push(turn);
    }
  }
  return { turns, launches, undoneLaunches, lastWords };
}
