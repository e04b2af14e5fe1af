// Reads one Copilot CLI events file in file order. Bad lines are counted; a torn final line (the
// CLI still appending) is neither an event nor bad.
import { skimJsonl, startsWith, tail } from '../skim-jsonl.js';
import { eventOf, type CopilotEvent } from './event.js';

/** One event above this is skipped and counted (a huge tool result or binary asset). */
export const maxEventBytes = 32 * 1024 * 1024;

/**
 * Tool execution events carry the tool's whole output (twice: `content` and `detailedContent`); below
 * the full detail level the record keeps nothing of them but their time, so they are recognised by
 * their opening (the CLI writes `type` first) and their time read from the line's end, unparsed.
 */
const toolEventHead = Buffer.from('{"type":"tool.execution_');
const timeAtEnd = /"timestamp":"([^"]+)","parentId":(?:null|"[^"]*")(?:,"agentId":"[^"]*")?}\s*$/;

export interface EventsFile {
  events: CopilotEvent[];
  badLines: number;
  /** Times of the events read without parsing (tool executions, below the full detail level). */
  skippedTimes: string[];
}

/** Event types the record and the index never read: dropped as they are read, so they cost no memory. */
const unread = new Set(['session.binary_asset', 'session.usage_checkpoint', 'session.todos_changed', 'session.plan_changed']);

/**
 * Throws only for I/O (a missing or unreadable file). Without `full`, tool execution events are
 * not parsed: only their time is read.
 */
export async function readEvents(path: string, full = true): Promise<EventsFile> {
  const events: CopilotEvent[] = [];
  const skippedTimes: string[] = [];
  const skim = (buf: Buffer, start: number, end: number): boolean => {
    if (!startsWith(buf, start, end, toolEventHead)) return false;
    const m = timeAtEnd.exec(tail(buf, start, end, 300));
    if (m?.[1] === undefined) return false;
    skippedTimes.push(m[1]);
    return true;
  };
  const badLines = skimJsonl(
    path,
    {
      ...(full ? {} : { skim }),
      onObject: (o, info) => {
        const e = eventOf(o, info.line);
        if (e !== undefined && !unread.has(e.type)) events.push(e);
      },
    },
    { maxLineBytes: maxEventBytes },
  );
  return { events, badLines, skippedTimes };
}
