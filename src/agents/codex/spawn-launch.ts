// A `spawn_agent` call seen in a parent thread and what it says about the child it launched: v1
// results name the child's thread (`{agent_id, nickname}`), multi-agent v2 results its path
// (`{task_name: "/root/explorer"}`), and `collab_agent_spawn_end` events name the thread too.
import type { ToolCall } from '../../record/types.js';
import { asObject, text, type JsonObject } from '../../json/narrow.js';
import { contentText, spawnPrompt } from './tool-calls.js';

export interface SpawnLaunch {
  call: ToolCall;
  callId: string | undefined;
  /** `direct` for spawn_agent; `exec` for a code-mode script that calls spawn_agent. */
  kind: 'direct' | 'exec';
  at: string | null;
  /** The child's thread id, once the result or the spawn-end event names it. */
  childId?: string;
  /** The child's agent path (v2), once the result names it. */
  childPath?: string;
  /** The role the launch asked for (`agent_type`). */
  agentType?: string;
  /** What the launch said it was for: v2's task name, else the prompt's first line. */
  description?: string;
  /** The result said no agent was started (depth limit, bad arguments…). */
  failed: boolean;
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** Reads a spawn call's arguments (always, at every level: the subagent's name and description need them). */
export function readSpawnArgs(launch: SpawnLaunch, rawArgs: unknown): void {
  const args = typeof rawArgs === 'string' ? asObject(parseJson(rawArgs)) : asObject(rawArgs);
  if (args === undefined) return;
  const agentType = text(args, 'agent_type');
  if (agentType !== undefined) launch.agentType = agentType;
  const taskName = text(args, 'task_name');
  const prompt = spawnPrompt(args);
  const firstLine = prompt
    ?.split('\n')
    .find((l) => l.trim() !== '')
    ?.trim();
  const description = taskName ?? firstLine;
  if (description !== undefined) launch.description = description;
}

/** Reads a spawn call's output: the child it names, or that it failed. */
export function parseSpawnResult(launch: SpawnLaunch, output: unknown): void {
  let value: unknown = output;
  if (typeof value !== 'string' && !Array.isArray(value)) value = asObject(value)?.content ?? value;
  if (Array.isArray(value)) value = contentText(value);
  const result: JsonObject | undefined = typeof value === 'string' ? asObject(parseJson(value.trim())) : asObject(value);
  const agentId = text(result, 'agent_id');
  const taskName = text(result, 'task_name') ?? text(result, 'agent_path');
  if (agentId !== undefined) launch.childId ??= agentId;
  if (taskName !== undefined) launch.childPath = taskName;
  if (agentId === undefined && taskName === undefined && launch.kind === 'direct') launch.failed = true;
}

/** Reads a `collab_agent_spawn_end` event for the launch with its call id. */
export function applySpawnEnd(launch: SpawnLaunch, payload: JsonObject): void {
  const thread = text(payload, 'new_thread_id');
  if (thread !== undefined) {
    launch.childId = thread;
    launch.failed = false;
  } else if (launch.childId === undefined && launch.kind === 'direct') launch.failed = true;
  const role = text(payload, 'new_agent_role');
  if (role !== undefined) launch.agentType ??= role;
}
