// One line of a Droid session file as `tail` shows it, read as the record reads it.
import { str, type JsonObject } from '../../json/narrow.js';
import type { EntryView } from '../types.js';
import { messageOf, saidText, startOf, typedText } from './line.js';

export function droidEntryView(o: JsonObject): EntryView {
  const start = startOf(o);
  if (start !== undefined) return { timestamp: null, role: null, text: start.title ?? '' };
  const m = messageOf(o, 0);
  if (m === undefined) return { timestamp: str(o, 'timestamp') ?? null, role: null, text: '' };
  if (m.role === 'user') {
    const said = typedText(m);
    if (said !== '') return { timestamp: m.at, role: 'user', text: said };
    const results = m.blocks.flatMap((b) => (b.kind === 'tool_result' ? [b.output] : []));
    return { timestamp: m.at, role: 'tool', text: results.join('\n') };
  }
  const calls = m.blocks.flatMap((b) => (b.kind === 'tool_use' ? [`[${b.name}]`] : []));
  const text = [saidText(m), ...calls].filter((t) => t !== '').join(' ');
  const thinking = m.blocks.flatMap((b) => (b.kind === 'thinking' ? [b.text] : []));
  return { timestamp: m.at, role: m.role, text: text === '' ? thinking.join(' ') : text };
}
