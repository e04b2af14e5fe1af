// One line of a Gemini CLI JSONL chat as `tail` shows it, read as the record reads it: the header's
// start, a message's time, speaker and text (tool calls by name), an injected prompt as an event.
import { str, type JsonObject } from '../../json/narrow.js';
import type { EntryView } from '../types.js';
import { geminiMessage } from './message.js';

export function geminiEntryView(o: JsonObject): EntryView {
  const msg = geminiMessage(o, '', false);
  if (msg === undefined) return { timestamp: str(o, 'startTime') ?? null, role: null, text: '' };
  const calls = msg.toolCalls.map((c) => `[${c.name}]`);
  const text = [msg.text, ...calls].filter((t) => t !== '').join(' ');
  return { timestamp: msg.at, role: msg.kind, text: text === '' ? msg.thoughts.map((t) => t.text).join(' ') : text };
}
