// One line of a Qwen Code chat as `tail` shows it, read as the record reads it: prompts, replies
// with their tool calls by name, tool results by their output, injected prompts and compactions.
import { str, type JsonObject } from '../../json/narrow.js';
import type { EntryView } from '../types.js';
import { chatRecordOf } from './chat-record.js';
import { typedText, userKind } from './user-text.js';

export function qwenEntryView(o: JsonObject): EntryView {
  const r = chatRecordOf(o, 0);
  if (r === undefined) return { timestamp: str(o, 'timestamp') ?? null, role: null, text: '' };
  switch (r.type) {
    case 'user':
      return { timestamp: r.at, role: userKind(r) === 'prompt' ? 'user' : null, text: typedText(r) };
    case 'assistant': {
      const said = [r.texts.join('').trim(), ...r.calls.map((c) => `[${c.name}]`)].filter((t) => t !== '').join(' ');
      return { timestamp: r.at, role: 'assistant', text: said === '' ? r.thoughts.join(' ') : said };
    }
    case 'tool_result': {
      const response = r.responses[0]?.response;
      const out = str(response, 'output') ?? str(response, 'error') ?? '';
      return { timestamp: r.at, role: 'tool', text: out };
    }
    default:
      return { timestamp: r.at, role: null, text: r.subtype === 'chat_compression' ? 'context compacted' : '' };
  }
}
