// One session-file line as `tail` shows it, read as the record reads it: prompts, `!` commands,
// the assistant's text and tool calls, tool results by their output.
import type { JsonObject } from '../../json/narrow.js';
import type { EntryView } from '../types.js';
import { bashTurnText, entryOf, headerOf } from './entry.js';

export function piEntryView(o: JsonObject): EntryView {
  const header = headerOf(o);
  if (header !== undefined) return { timestamp: header.at, role: null, text: header.cwd ?? '' };
  const e = entryOf(o, 0);
  const b = e.body;
  switch (b.type) {
    case 'user':
      return { timestamp: e.at, role: 'user', text: b.text };
    case 'bash':
      return { timestamp: e.at, role: 'user', text: bashTurnText(b.command) };
    case 'assistant': {
      const said = b.parts.filter((p) => p.kind === 'text').map((p) => p.text);
      const calls = b.calls.map((c) => `[${c.name}]`);
      const thinking = b.parts.filter((p) => p.kind === 'thinking').map((p) => p.text);
      const text = [...said, ...calls].join(' ');
      return { timestamp: e.at, role: 'assistant', text: text === '' ? thinking.join(' ') : text };
    }
    case 'toolResult':
      return { timestamp: e.at, role: 'tool', text: b.output };
    case 'compaction':
      return { timestamp: e.at, role: null, text: 'context compacted' };
    case 'branch_summary':
      return { timestamp: e.at, role: null, text: b.summary };
    default:
      return { timestamp: e.at, role: null, text: '' };
  }
}
