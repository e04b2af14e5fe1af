// Where Kimi Code keeps a session: `<home>/sessions/<workdir-key>/session_<uuid>/` holding
// state.json and one `agents/<agent-id>/wire.jsonl` per agent (research intendant.md §3.4).
import { basename, dirname, join } from 'node:path';
import type { HomeLookup } from '../types.js';

export const sessionsDirName = 'sessions';
export const indexFileName = 'session_index.jsonl';
export const stateFileName = 'state.json';
export const agentsDirName = 'agents';
export const wireFileName = 'wire.jsonl';
export const mainAgentId = 'main';

/** A session folder's name as Kimi Code writes it. */
export const sessionDirPattern = /^session_[A-Za-z0-9_-]+$/;
/** Agent ids Kimi Code writes (`main`, `agent-0`, …); anything else is not read. */
export const agentIdPattern = /^[A-Za-z0-9._-]{1,128}$/;

/** `KIMI_CODE_HOME` else `~/.kimi-code`, plus the legacy `~/.kimi`. */
export function kimiHomes(lookup: HomeLookup): string[] {
  const primary = lookup.env('KIMI_CODE_HOME') ?? join(lookup.homedir, '.kimi-code');
  const legacy = join(lookup.homedir, '.kimi');
  return primary === legacy ? [primary] : [primary, legacy];
}

export function wirePath(sessionDir: string, agentId: string): string {
  return join(sessionDir, agentsDirName, agentId, wireFileName);
}

export function statePath(sessionDir: string): string {
  return join(sessionDir, stateFileName);
}

/** The home a session folder belongs to: the parent of `sessions/` when it sits in one. */
export function homeOfSessionDir(sessionDir: string): string {
  const keyDir = dirname(sessionDir);
  const sessionsDir = dirname(keyDir);
  if (basename(sessionsDir) === sessionsDirName) return dirname(sessionsDir);
  if (basename(keyDir) === sessionsDirName) return dirname(keyDir);
  return dirname(sessionDir);
}

/** Main first, then the others in code-point order (the order bounds count agents in). */
export function orderAgentIds(ids: Iterable<string>): string[] {
  const unique = [...new Set(ids)].filter((id) => agentIdPattern.test(id));
  const rest = unique.filter((id) => id !== mainAgentId).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return unique.includes(mainAgentId) ? [mainAgentId, ...rest] : rest;
}
