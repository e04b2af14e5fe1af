// One rollout line as `tail` shows it, read as the record reads it: typed text of a user message
// (never the injected blocks), the assistant's text, a tool call by name and input, a result by output.
import { asArray, isObject, str, type JsonObject } from '../../json/narrow.js';
import type { EntryView } from '../types.js';
import { codexLine } from './codex-line.js';
import { userTextOfEvent, userTextOfMessage } from './user-text.js';

function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  const out: string[] = [];
  for (const p of asArray(content) ?? []) {
    const t = isObject(p) ? str(p, 'text') : undefined;
    if (t !== undefined && t.trim() !== '') out.push(t);
  }
  return out.join('\n');
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isObject(output)) return str(output, 'content') ?? str(output, 'output') ?? partsText(output.content);
  return partsText(output);
}

function itemView(p: JsonObject): { role: string | null; text: string } {
  switch (str(p, 'type')) {
    case 'message': {
      const role = str(p, 'role') ?? null;
      if (role === 'user') return { role, text: userTextOfMessage(p).text };
      return { role, text: partsText(p.content) };
    }
    case 'reasoning':
      return { role: 'reasoning', text: partsText(p.summary) };
    case 'function_call':
      return { role: 'assistant', text: `[${str(p, 'name') ?? 'tool'}] ${str(p, 'arguments') ?? ''}` };
    case 'custom_tool_call':
      return { role: 'assistant', text: `[${str(p, 'name') ?? 'tool'}] ${str(p, 'input') ?? ''}` };
    case 'local_shell_call':
      return { role: 'assistant', text: '[local_shell]' };
    case 'function_call_output':
    case 'custom_tool_call_output':
      return { role: 'tool', text: outputText(p.output) };
    default:
      return { role: null, text: '' };
  }
}

function eventView(p: JsonObject): { role: string | null; text: string } {
  switch (str(p, 'type')) {
    case 'user_message':
      return { role: 'user', text: userTextOfEvent(p).text };
    case 'agent_message':
      return { role: 'assistant', text: str(p, 'message') ?? '' };
    case 'agent_reasoning':
      return { role: 'reasoning', text: str(p, 'text') ?? '' };
    case 'turn_aborted':
      return { role: null, text: 'interrupted' };
    default:
      return { role: null, text: '' };
  }
}

export function codexEntryView(o: JsonObject): EntryView {
  const line = codexLine(o, true);
  if (line === undefined) return { timestamp: null, role: null, text: '' };
  const seen =
    line.type === 'response_item'
      ? itemView(line.payload)
      : line.type === 'event_msg'
        ? eventView(line.payload)
        : line.type === 'session_meta'
          ? { role: null, text: str(line.payload, 'cwd') ?? '' }
          : line.type === 'compacted'
            ? { role: null, text: 'context compacted' }
            : { role: null, text: '' };
  return { timestamp: line.at, ...seen };
}
