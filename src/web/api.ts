// The dashboard's calls to `agentlog serve` on the same origin (issue 11 routes). The login cookie
// rides along; every answer is checked for the `{ok}` envelope before it is used.
import type {
  ErrorBody,
  LocateResult,
  MessageSearchBody,
  RecordBody,
  RenameBody,
  SessionDetailBody,
  SessionsBody,
  TurnsBody,
  UsageBody,
} from '../server/api-types.js';
import type { Locator } from '../record/message-index.js';
import type { LaneAnswer } from './message-lane.js';
import { gatherPages } from './search-pages.js';
import { sessionsUrl } from './sessions-url.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { ok?: unknown; error?: unknown };
  return v.ok === false && typeof v.error === 'object' && v.error !== null;
}

export async function getJson<T extends { ok: true } | object>(url: string, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'same-origin', ...init });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'offline', 'agentlog serve does not answer: is it still running?');
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok || isErrorBody(body)) {
    if (isErrorBody(body)) throw new ApiError(res.status, body.error.code, body.error.message);
    if (res.status === 401) throw new ApiError(401, 'unauthorized', 'Not logged in: open the link agentlog serve printed.');
    throw new ApiError(res.status, 'http', `The server answered ${res.status}.`);
  }
  if (typeof body !== 'object' || body === null) throw new ApiError(res.status, 'bad_body', 'The server sent something that is not JSON.');
  return body as T;
}

const enc = encodeURIComponent;

export function sessionPath(agent: string, id: string): string {
  return `/api/session/${enc(agent)}/${enc(id)}`;
}

export function listSessions(params: { cursor: string | null; limit: number }, signal?: AbortSignal): Promise<SessionsBody> {
  return getJson<SessionsBody>(sessionsUrl(params.limit, params.cursor), { signal });
}

export function fetchRecord(agent: string, id: string, signal?: AbortSignal): Promise<RecordBody> {
  return getJson<RecordBody>(`${sessionPath(agent, id)}/record?detail=full`, { signal });
}

export interface TurnsParams {
  limit?: number;
  before?: number;
  /** The page ending this many turns before the end (above a tail read's window). */
  before_end?: number;
  from?: number;
  around?: number;
  match?: { role: string; ts_ms: number; text: string };
  /** With `match`: a deep search hit's file line, so the window opens on the turn holding it. */
  line?: { file: string; offset: number };
}

/** A window of the record's turns (GET …/turns): the newest by default. */
export function fetchTurns(agent: string, id: string, params: TurnsParams, signal?: AbortSignal): Promise<TurnsBody> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  return getJson<TurnsBody>(`${sessionPath(agent, id)}/turns?${q}`, { signal });
}

/** Resolves a search hit's locator against the transcript (the page itself is not needed here). */
export async function locate(
  agent: string,
  id: string,
  locator: Locator,
  signal?: AbortSignal,
): Promise<{ result: LocateResult; body: SessionDetailBody }> {
  const q = new URLSearchParams({ limit: '3', locate: JSON.stringify(locator) });
  const body = await getJson<SessionDetailBody>(`${sessionPath(agent, id)}?${q}`, { signal });
  return { result: body.locate ?? { state: 'unavailable', reason: 'the server did not resolve the locator' }, body };
}

export function rename(agent: string, id: string, name: string): Promise<RenameBody> {
  return getJson<RenameBody>(`${sessionPath(agent, id)}/name`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
}

export function usage(days: number, signal?: AbortSignal): Promise<UsageBody> {
  return getJson<UsageBody>(`/api/usage?days=${days}`, { signal });
}

/** Sessions a message search shows at once, and the requests it may take to find them (see gatherPages). */
const searchPageSize = 50;
const searchMaxPages = 8;

/** One message-lane request, completed from its cursor when the server ran out of time (gatherPages). */
export function messageSearch(query: string, includeSuperseded: boolean, signal: AbortSignal): Promise<LaneAnswer<MessageSearchBody>> {
  return gatherPages((cursor) => messageSearchPage(query, includeSuperseded, cursor, signal), {
    limit: searchPageSize,
    maxPages: searchMaxPages,
  });
}

/** One page of a message search; a 429 becomes `busy` with the server's Retry-After. */
async function messageSearchPage(
  query: string,
  includeSuperseded: boolean,
  cursor: string | null,
  signal: AbortSignal,
): Promise<LaneAnswer<MessageSearchBody>> {
  const q = new URLSearchParams({ q: query, include_superseded: String(includeSuperseded), limit: String(searchPageSize) });
  if (cursor !== null) q.set('cursor', cursor);
  const res = await fetch(`/api/sessions/message-search?${q}`, { credentials: 'same-origin', signal });
  if (res.status === 429) {
    const after = Number(res.headers.get('retry-after') ?? '1');
    return { kind: 'busy', retryAfterMs: Number.isFinite(after) ? after * 1000 : 1000 };
  }
  const body: unknown = await res.json().catch(() => null);
  if (isErrorBody(body)) return { kind: 'error', message: body.error.message };
  if (!res.ok || typeof body !== 'object' || body === null) return { kind: 'error', message: `The search answered ${res.status}.` };
  return { kind: 'ok', body: body as MessageSearchBody };
}
