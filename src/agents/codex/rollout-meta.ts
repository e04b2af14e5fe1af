// What a rollout's `session_meta` says about its thread: the id, where it ran, and whether another
// thread spawned it (seed 003 "Subagents": `source.subagent.thread_spawn` nests in its parent,
// `source.subagent.other` helpers stay sessions of their own).
import { asObject, num, obj, str, text, type JsonObject } from '../../json/narrow.js';
import { isoTime } from './codex-line.js';

export interface RolloutMeta {
  /** The thread id (`payload.id`; never `payload.session_id`, which on children names the parent). */
  id: string | undefined;
  cwd: string | undefined;
  branch: string | undefined;
  startedAt: string | undefined;
  /** The spawning thread, for a `thread_spawn` child only. */
  spawnParent: string | undefined;
  agentRole: string | undefined;
  agentNickname: string | undefined;
  /** Multi-agent v2 path (`/root/explorer_1`), which the spawn call's result names. */
  agentPath: string | undefined;
  /** Forked children carry a copy of the parent's history before this ordinal. */
  historyStartOrdinal: number | undefined;
}

/** Reads a `session_meta` payload (or the legacy flat first line). */
export function readMeta(payload: JsonObject): RolloutMeta {
  const spawn = obj(obj(obj(payload, 'source'), 'subagent'), 'thread_spawn');
  const spawnParent = spawn === undefined ? undefined : (text(spawn, 'parent_thread_id') ?? text(payload, 'parent_thread_id'));
  const id = text(payload, 'id');
  return {
    id,
    cwd: text(payload, 'cwd'),
    branch: text(obj(payload, 'git'), 'branch'),
    startedAt: isoTime(payload.timestamp) ?? undefined,
    spawnParent: spawnParent !== id ? spawnParent : undefined,
    agentRole: text(spawn, 'agent_role') ?? text(payload, 'agent_role'),
    agentNickname: text(spawn, 'agent_nickname') ?? text(payload, 'agent_nickname'),
    agentPath: text(spawn, 'agent_path') ?? text(payload, 'agent_path'),
    historyStartOrdinal: num(payload, 'subagent_history_start_ordinal'),
  };
}

const rolloutName = /^rollout-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-(.+)\.jsonl$/;

/** The thread id a rollout's file name carries (`rollout-<time>-<id>.jsonl`), else the file stem. */
export function idFromFileName(name: string): string {
  const m = rolloutName.exec(name);
  if (m?.[1] !== undefined) return m[1];
  return name.replace(/\.jsonl$/i, '');
}

/** A meta remembered as JSON (its absent fields dropped), or undefined when it is not one. */
export function decodeMeta(value: unknown): RolloutMeta | undefined {
  const o = asObject(value);
  if (o === undefined) return undefined;
  return {
    id: str(o, 'id'),
    cwd: str(o, 'cwd'),
    branch: str(o, 'branch'),
    startedAt: str(o, 'startedAt'),
    spawnParent: str(o, 'spawnParent'),
    agentRole: str(o, 'agentRole'),
    agentNickname: str(o, 'agentNickname'),
    agentPath: str(o, 'agentPath'),
    historyStartOrdinal: num(o, 'historyStartOrdinal'),
  };
}
