// GET /api/session/{agent}/{id}/events: replay then live (research §1.8). `replay_start` goes out at
// once (nothing is parsed first), then every entry streamed forward from the start (or from the
// `Last-Event-ID` offset), `replay_end`, then new entries as custody's follow sees them land. Each
// entry's id is the byte offset just past its line, so a reconnect resumes with no gap and no repeat.
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { maxLineBytes } from '../custody/entry.js';
import { followTranscript } from '../custody/follow.js';
import { forwardLines } from '../custody/lines.js';
import { identityOf, offsetHash } from '../custody/page-token.js';
import { lineEntry } from '../custody/pages.js';
import { openRead, readFull } from '../custody/safe-fs.js';
import { assertPageable } from '../custody/transcript.js';
import type { Entry } from '../custody/entry.js';
import type { AgentId } from '../record/types.js';
import type { EventStreamTypes, EventType } from './api-types.js';
import { badRequest } from './http-error.js';
import type { SessionSources } from './session-source.js';

export interface EventsOptions {
  /** How often the follower polls besides watching the folder (ms). */
  pollMs?: number;
}

function send<T extends EventType>(stream: SSEStreamingApi, event: T, data: EventStreamTypes[T], id?: string): Promise<void> {
  return stream.writeSSE({ event, data: JSON.stringify(data), ...(id !== undefined ? { id } : {}) });
}

const entryId = (e: Entry): string => String(e.offset + e.bytes + 1);

/** The resume offset in `Last-Event-ID` (a decimal byte offset); a 400 for anything else. */
export function resumeOffset(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === '') return null;
  if (!/^\d{1,15}$/.test(raw.trim()))
    throw badRequest('invalid_last_event_id', 'Last-Event-ID must be the id of an event this stream sent');
  return Number(raw.trim());
}

export async function sessionEvents(
  c: Context,
  sources: SessionSources,
  agent: AgentId,
  id: string,
  opts: EventsOptions = {},
): Promise<Response> {
  const from = resumeOffset(c.req.header('last-event-id') ?? c.req.query('last_event_id'));
  const loc = await sources.locate(agent, id);
  assertPageable(loc);
  const { handle, stat } = await openRead(loc.main);
  return streamSSE(c, async (stream) => {
    const stop = new AbortController();
    stream.onAbort(() => stop.abort());
    let offset = 0;
    let identity: { dev: string; ino: string };
    let pin: string;
    try {
      const size = stat.size;
      const fileId = await identityOf(handle);
      identity = { dev: fileId.dev, ino: fileId.ino };
      offset = from ?? 0;
      if (offset > 0) {
        // The id must still be a line start of this file; else the file changed under the client.
        const before = Buffer.alloc(1);
        const fits = offset <= size && (await readFull(handle, before, 1, offset - 1)) === 1 && before[0] === 0x0a;
        if (!fits) {
          await send(stream, 'restart', { reason: 'the transcript changed since that event: replaying from the start', offset: 0 });
          offset = 0;
        }
      }
      await send(stream, 'replay_start', { agent: loc.agent, session_id: loc.sessionId, root: loc.root, from_offset: offset, size });
      let count = 0;
      let lineNo: number | null = offset === 0 ? 0 : null;
      for await (const line of forwardLines(handle, offset, size, { maxLineBytes })) {
        if (stop.signal.aborted) return;
        if (lineNo !== null) lineNo++;
        const entry = lineEntry(line, lineNo);
        offset = line.offset + line.bytes + 1;
        if (entry === null) continue;
        await send(stream, 'entry', entry, entryId(entry));
        count++;
      }
      await send(stream, 'replay_end', { entries: count, offset });
      pin = await offsetHash(handle, offset);
    } finally {
      await handle.close();
    }
    const batches = followTranscript(
      { loc, offset, identity, pin, reason: 'replaced' },
      () => sources.catalog(agent).then((cat) => cat.locate(id)),
      { signal: stop.signal, pollMs: opts.pollMs ?? 250 },
    );
    try {
      for await (const batch of batches) {
        if (batch.restart !== null) await send(stream, 'restart', { reason: batch.restart.reason, offset: batch.restart.resumed_at });
        for (const entry of batch.entries) await send(stream, 'entry', entry, entryId(entry));
      }
    } catch (error) {
      if (!stop.signal.aborted)
        await send(stream, 'error', {
          code: (error as { code?: string }).code ?? 'failed',
          message: 'the transcript can no longer be followed',
        }).catch(() => undefined);
    }
  });
}
