// The rows the session list shows: the loaded sessions filtered on metadata at once (local), with
// the message lane's hits attached to their sessions. Rows keep the list's order (newest first), so
// an answer arriving never reorders rows under the pointer (design brief "Search").
import type { SearchHit, SessionGroup, SessionSummary } from '../server/api-types.js';
import { activeDays } from './format.js';

export interface Filters {
  /** The search box's text: metadata filtering uses all of it. */
  query: string;
  agent: string;
  repo: string;
  /** YYYY-MM-DD: sessions active on that local day; "" for any day. */
  day: string;
}

export const noFilters: Filters = { query: '', agent: '', repo: '', day: '' };

export interface ListRow {
  key: string;
  session: SessionSummary;
  hits: SearchHit[];
  totalHits: number;
}

export function sessionKey(s: { agent: string; session_id: string }): string {
  return `${s.agent}:${s.session_id}`;
}

/** The session's title: its name, else the first ask, else its id. */
export function sessionTitle(s: SessionSummary): string {
  return s.name ?? s.first_ask ?? s.session_id;
}

/** The last folder of a repo path, as people call the project. */
export function projectName(repo: string): string {
  const parts = repo.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? repo;
}

/** True when every word of `query` appears in the session's name, first ask, repo, branch, agent or id prefix. */
export function matchesMetadata(s: SessionSummary, query: string): boolean {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (words.length === 0) return true;
  const hay = [s.name ?? '', s.first_ask ?? '', s.repo, s.branch ?? '', s.agent].join('\n').toLowerCase();
  const id = s.session_id.toLowerCase();
  return words.every((w) => hay.includes(w) || id.startsWith(w));
}

function passesFilters(s: SessionSummary, f: Filters): boolean {
  if (f.agent !== '' && s.agent !== f.agent) return false;
  if (f.repo !== '' && s.repo !== f.repo) return false;
  if (f.day !== '') {
    const days = activeDays(s.started_at, s.ended_at);
    if (days === null || f.day < days[0] || f.day > days[1]) return false;
  }
  return true;
}

/** A placeholder summary for a hit's session that the list has not loaded (yet). */
function stubSession(g: SessionGroup): SessionSummary {
  return {
    agent: g.agent,
    session_id: g.session_id,
    name: null,
    repo: '',
    branch: null,
    first_ask: null,
    started_at: new Date(g.best_ts_ms).toISOString(),
    ended_at: null,
    turns: 0,
    tool_calls: 0,
    totals: { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_creation_tokens: 0, reasoning_tokens: 0, cost_usd: null },
    subagents: 0,
    root: 'vendor',
    growing: false,
  };
}

/**
 * The rows for `sessions` under `filters`, with `groups` (the message lane's answer, or null) attached.
 * A session shows when its metadata matches the query or it has message hits; the other filters
 * apply to both. Hit sessions the list has not loaded come last, in the lane's order.
 */
export function buildRows(sessions: readonly SessionSummary[], filters: Filters, groups: readonly SessionGroup[] | null): ListRow[] {
  const byKey = new Map<string, SessionGroup>();
  for (const g of groups ?? []) byKey.set(g.session_key, g);
  const rows: ListRow[] = [];
  const seen = new Set<string>();
  for (const s of sessions) {
    const key = sessionKey(s);
    seen.add(key);
    if (!passesFilters(s, filters)) continue;
    const g = byKey.get(key);
    if (g === undefined && !matchesMetadata(s, filters.query)) continue;
    rows.push({ key, session: s, hits: g?.hits ?? [], totalHits: g?.total_hits ?? 0 });
  }
  for (const g of groups ?? []) {
    if (seen.has(g.session_key)) continue;
    const s = stubSession(g);
    if (filters.agent !== '' && s.agent !== filters.agent) continue;
    if (filters.repo !== '' || filters.day !== '') continue;
    rows.push({ key: g.session_key, session: s, hits: g.hits, totalHits: g.total_hits });
  }
  return rows;
}

/** Row heights in px (fixed per shape, so the virtual list needs no measuring). */
export const rowBase = 52;
export const hitLine = 20;
export const maxHitsShown = 2;

export function rowHeight(row: ListRow): number {
  return rowBase + Math.min(row.hits.length, maxHitsShown) * hitLine;
}
