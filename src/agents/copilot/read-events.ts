// Reads one Copilot CLI events file in file order. Bad lines are counted; a torn final line (the
// CLI still appending) is neither an event nor bad.
import { statSync } from 'node:fs';
import { forEachJsonObject } from '../../fs/read-jsonl.js';
import { eventOf, type CopilotEvent } from './event.js';

/** One event above this is skipped and counted (a huge tool result or binary asset). */
export const maxEventBytes = 32 * 1024 * 1024;

export interface EventsFile {
  events: CopilotEvent[];
  badLines: number;
}

/** Event types the record and the index never read: dropped as they are read, so they cost no memory. */
const unread = new Set(['session.binary_asset', 'session.usage_checkpoint', 'session.todos_changed', 'session.plan_changed']);

/** Throws only for I/O (a missing or unreadable file). */
export async function readEvents(path: string): Promise<EventsFile> {
  const events: CopilotEvent[] = [];
  const size = statSync(path).size;
  const r = await forEachJsonObject(
    path,
    (o, info) => {
      const e = eventOf(o, info.line);
      if (e !== undefined && !unread.has(e.type)) events.push(e);
    },
    { maxLineBytes: maxEventBytes, chunkBytes: Math.min(2 << 20, Math.max(64 * 1024, size + 1)) },
  );
  return { events, badLines: r.badLines };
}
