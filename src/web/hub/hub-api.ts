// The hub web app's calls to the hub's /v1 routes on the same origin (issue 13); the session cookie
// rides along. Every answer is checked for the `{ok}` envelope before it is used.
import type { ProjectsBody, SearchBody, SessionBody, SourceBody, SourcesBody } from '../../hub/api-types.js';

export class HubError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      ...(signal !== undefined ? { signal } : {}),
      ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new HubError(0, 'The hub does not answer: is it running?');
  }
  const json = (await res.json().catch(() => null)) as { ok?: boolean; error?: { message?: string } } | null;
  if (!res.ok || json === null || json.ok !== true) {
    const message = json?.error?.message ?? `The hub answered ${res.status}.`;
    throw new HubError(res.status, res.status === 401 ? 'Not signed in, or the token was revoked.' : message);
  }
  return json as T;
}

export const whoAmI = (): Promise<SessionBody> => call('GET', '/v1/session');
export const signIn = (token: string): Promise<SessionBody> => call('POST', '/v1/session', { token });
export const signOut = (): Promise<{ ok: true }> => call('DELETE', '/v1/session');

export interface SourceFilter {
  project: string;
  agent: string;
}

export function listSessions(filter: SourceFilter, cursor: string | null, signal?: AbortSignal): Promise<SourcesBody> {
  const q = new URLSearchParams({ kind: 'agent_log', limit: '50' });
  if (filter.project !== '') q.set('project', filter.project);
  if (filter.agent !== '') q.set('agent', filter.agent);
  if (cursor !== null) q.set('cursor', cursor);
  return call('GET', `/v1/sources?${q}`, undefined, signal);
}

export const projects = (signal?: AbortSignal): Promise<ProjectsBody> =>
  call('GET', '/v1/sources/projects?kind=agent_log', undefined, signal);

export const readSource = (id: string, signal?: AbortSignal): Promise<SourceBody> =>
  call('GET', `/v1/sources/${encodeURIComponent(id)}`, undefined, signal);

export function searchNotes(q: string, project: string, signal?: AbortSignal): Promise<SearchBody> {
  const p = new URLSearchParams({ q, limit: '50' });
  if (project !== '') p.set('project', project);
  return call('GET', `/v1/search?${p}`, undefined, signal);
}
