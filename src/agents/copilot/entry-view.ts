// One line of a Copilot CLI events file as `tail` shows it, read as the record reads it.
import { asObject, str, text, type JsonObject } from '../../json/narrow.js';
import type { EntryView } from '../types.js';
import { eventOf } from './event.js';
import { isTyped } from './record.js';

export function copilotEntryView(o: JsonObject): EntryView {
  const e = eventOf(o, 0);
  if (e === undefined) return { timestamp: null, role: null, text: '' };
  const d = e.data;
  switch (e.type) {
    case 'user.message':
      return { timestamp: e.at, role: isTyped(d) ? 'user' : null, text: str(d, 'content') ?? '' };
    case 'assistant.message': {
      const calls = (Array.isArray(d['toolRequests']) ? d['toolRequests'] : []).map((r) => `[${text(asObject(r), 'name') ?? 'tool'}]`);
      const said = [(str(d, 'content') ?? '').trim(), ...calls].filter((t) => t !== '').join(' ');
      return { timestamp: e.at, role: 'assistant', text: said === '' ? (str(d, 'reasoningText') ?? '') : said };
    }
    case 'assistant.reasoning':
      return { timestamp: e.at, role: 'assistant', text: str(d, 'content') ?? '' };
    case 'tool.execution_complete':
      return { timestamp: e.at, role: 'tool', text: str(asObject(d['result']), 'content') ?? str(asObject(d['error']), 'message') ?? '' };
    case 'session.compaction_complete':
      return { timestamp: e.at, role: null, text: 'context compacted' };
    default:
      return { timestamp: e.at, role: null, text: '' };
  }
}
