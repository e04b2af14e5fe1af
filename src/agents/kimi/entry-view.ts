// One wire line as `tail` shows it, read as the record reads it: `time` (epoch ms) as ISO, prompts
// and assistant text as said, tool calls by name and results by their output.
import { str, type JsonObject } from '../../json/narrow.js';
import type { EntryView } from '../types.js';
import { contentText as messageText, wireLine } from './wire-line.js';

export function kimiEntryView(o: JsonObject): EntryView {
  const { event, at } = wireLine(o);
  switch (event.type) {
    case 'prompt':
    case 'steer':
      return {
        timestamp: at,
        role: event.origin.kind === 'user' || event.origin.kind === null ? 'user' : event.origin.kind,
        text: event.text,
      };
    case 'message':
      return { timestamp: at, role: str(event.message, 'role') ?? null, text: messageText(event.message['content']) };
    case 'part':
      return { timestamp: at, role: event.kind === 'think' ? 'reasoning' : 'assistant', text: event.text };
    case 'tool.call':
      return {
        timestamp: at,
        role: 'assistant',
        text: `[tool ${event.name}] ${event.args === undefined ? '' : JSON.stringify(event.args)}`,
      };
    case 'tool.result':
      return { timestamp: at, role: 'tool', text: event.output };
    case 'llm.request':
    case 'usage':
      return { timestamp: at, role: null, text: event.model ?? '' };
    case 'compaction':
      return { timestamp: at, role: null, text: str(o, 'summary') ?? 'context compacted' };
    default:
      return { timestamp: at, role: null, text: '' };
  }
}
