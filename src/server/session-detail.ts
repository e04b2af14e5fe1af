// GET /api/session/{agent}/{id}: one page of a transcript's entries by position (the newest page by
// default, older ones with `before`), from the vendor tree or the kept copy; with `locate=` the page
// is centred on the located message (research §7.5 "Paging on resolve").
import { assertPageable } from '../custody/transcript.js';
import { openRead } from '../custody/safe-fs.js';
import { isVanished } from '../custody/errors.js';
import type { Locator } from '../record/message-index.js';
import type { AgentId } from '../record/types.js';
import type { DetailEntry, LocateResult, SessionDetailBody } from './api-types.js';
import { lineIndexOf, readEntries } from './line-index.js';
import { anchorEntry, planLocate } from './locate-hit.js';
import { threadPath, threadsOf, type SessionSources } from './session-source.js';

export interface DetailRequest {
  agent: AgentId;
  id: string;
  limit: number;
  before?: number;
  thread?: string;
  locate?: Locator;
}

/** A transcript written to within this long is `growing`. */
export const growingMs = 2 * 60_000;

export async function readDetail(sources: SessionSources, req: DetailRequest, now: number): Promise<SessionDetailBody> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await readOnce(sources, req, now);
    } catch (error) {
      // Pruned between locate and open: locate again (usually the kept copy answers).
      if (attempt > 0 || !isVanished(error)) throw error;
      sources.forget(req.agent, req.id);
    }
  }
}

async function readOnce(sources: SessionSources, req: DetailRequest, now: number): Promise<SessionDetailBody> {
  const loc = await sources.locate(req.agent, req.id);
  const plan = req.locate === undefined ? null : await planLocate(loc, req.locate);
  const thread = plan?.state === 'found' ? plan.thread : (req.thread ?? null);
  if (thread === null) assertPageable(loc);
  const path = thread === null ? loc.main : await threadPath(loc, thread);
  const { handle, stat } = await openRead(path);
  try {
    const index = await lineIndexOf(path, handle);
    const total = index.count;
    let before = Math.min(req.before ?? total, total);
    let located: { totalIndex: number; anchor: 'exact' | 'nearest' } | null = null;
    let locate: LocateResult | undefined;
    if (plan !== null && plan.state !== 'found') locate = { state: plan.state, reason: plan.reason };
    if (plan?.state === 'found') {
      located = await anchorEntry(handle, index, plan);
      if (located === null) locate = { state: 'unavailable', reason: 'the transcript has no entries to anchor on' };
      else before = Math.min(located.totalIndex + 1 + Math.floor(req.limit / 2), total);
    }
    const start = Math.max(0, before - req.limit);
    const entries: DetailEntry[] = (await readEntries(handle, index, start, before)).map((e, i) => ({ ...e, index: start + i }));
    if (located !== null) {
      const at = located.totalIndex - start;
      locate =
        at >= 0 && at < entries.length
          ? { state: 'resolved', entry_index: at, total_index: located.totalIndex, anchor: located.anchor }
          : { state: 'unavailable', reason: 'the located entry fell outside the served page' };
    }
    return {
      ok: true,
      agent: loc.agent,
      session_id: loc.sessionId,
      root: loc.root,
      thread,
      threads: await threadsOf(loc).catch(() => []),
      entries,
      total,
      page_start: start,
      page_end: before,
      has_older: start > 0,
      growing: now - stat.mtimeMs < growingMs,
      ...(locate !== undefined ? { locate } : {}),
    };
  } finally {
    await handle.close();
  }
}
