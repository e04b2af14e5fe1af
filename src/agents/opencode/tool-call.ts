// One OpenCode `tool` part (`{tool, callID, state: {status, input, output|error, metadata, time}}`)
// as a record tool call, plus what links a `task` call to the child session it launched.
import { num, obj, str, text, type JsonObject } from '../../json/narrow.js';
import { clipInput, clipOutput } from '../../record/clip.js';
import type { ToolCall, ToolFormat, ToolStatus } from '../../record/types.js';

export interface OcToolCall {
  call: ToolCall;
  /** The state OpenCode recorded (`pending`, `running`, `completed`, `error`). */
  state: string | undefined;
  /** For a `task` call: the child session id, where the part names it. */
  childId?: string;
  /** For a `task` call: the launch's arguments (`subagent_type`, `description`, `prompt`). */
  taskInput?: JsonObject;
}

const statusOf: Record<string, ToolStatus> = {
  completed: 'ok',
  success: 'ok',
  ok: 'ok',
  error: 'error',
  failed: 'error',
  cancelled: 'interrupted',
  canceled: 'interrupted',
  aborted: 'interrupted',
};

const pathTools = new Set(['read', 'list', 'glob', 'grep', 'multiedit', 'view', 'ls']);

function plusMinus(oldText: string | undefined, newText: string): string {
  const minus = oldText === undefined || oldText === '' ? [] : oldText.split('\n').map((l) => `-${l}`);
  return [...minus, ...newText.split('\n').map((l) => `+${l}`)].join('\n');
}

function shapeOf(tool: string, input: JsonObject, metadata: JsonObject | undefined): { format: ToolFormat; input?: string; path?: string } {
  const filePath = text(input, 'filePath') ?? text(input, 'path');
  switch (tool) {
    case 'bash': {
      const command = str(input, 'command');
      if (command !== undefined) return { format: 'shell', input: command };
      break;
    }
    case 'edit': {
      const diff = str(metadata, 'diff');
      const newString = str(input, 'newString');
      const patch = diff ?? (newString === undefined ? undefined : plusMinus(str(input, 'oldString'), newString));
      if (patch !== undefined) return { format: 'diff', input: patch, ...(filePath === undefined ? {} : { path: filePath }) };
      break;
    }
    case 'write': {
      const content = str(input, 'content');
      if (content !== undefined)
        return { format: 'diff', input: plusMinus(undefined, content), ...(filePath === undefined ? {} : { path: filePath }) };
      break;
    }
    case 'patch':
    case 'apply_patch': {
      const patch = str(input, 'patchText') ?? str(input, 'patch');
      if (patch !== undefined) return { format: 'diff', input: patch };
      break;
    }
    case 'task': {
      const prompt = str(input, 'prompt');
      if (prompt !== undefined) return { format: 'text', input: prompt };
      break;
    }
    default:
      break;
  }
  const json = Object.keys(input).length === 0 ? undefined : JSON.stringify(input);
  const path = pathTools.has(tool) ? filePath : undefined;
  return { format: 'json', ...(json === undefined ? {} : { input: json }), ...(path === undefined ? {} : { path }) };
}

/** The child session a `task` call ran: its metadata names it; older builds only print it. */
function childSession(state: JsonObject | undefined, output: string | undefined): string | undefined {
  const metadata = obj(state, 'metadata');
  const named = text(metadata, 'sessionId') ?? text(metadata, 'sessionID') ?? text(metadata, 'session_id');
  if (named !== undefined) return named;
  const m = output === undefined ? null : /(?:task_id|session_id|sessionID):\s*(ses_[A-Za-z0-9]+)/.exec(output);
  return m?.[1];
}

/**
 * Converts a `tool` part; undefined when it names no tool. `aborted`: the message was interrupted.
 * Without `full`, the input and output (which every lower detail level drops) are not built.
 */
export function opencodeToolCall(part: JsonObject, aborted: boolean, full = true): OcToolCall | undefined {
  const tool = text(part, 'tool');
  if (tool === undefined) return undefined;
  const state = obj(part, 'state');
  const input = obj(state, 'input') ?? {};
  const metadata = obj(state, 'metadata');
  const call: ToolCall = { name: tool };
  if (full) {
    const shape = shapeOf(tool, input, metadata);
    call.format = shape.format;
    if (shape.path !== undefined) call.path = shape.path;
    if (shape.input !== undefined) call.input = clipInput(shape.input);
  }
  const stateName = str(state, 'status');
  const output = stateName === 'error' ? (str(state, 'error') ?? str(state, 'output')) : (str(state, 'output') ?? str(metadata, 'output'));
  if (output !== undefined && full) call.output = clipOutput(output);
  const status = statusOf[stateName ?? ''] ?? (aborted ? 'interrupted' : undefined);
  if (status !== undefined) call.status = status;
  const exit = num(metadata, 'exit') ?? num(metadata, 'exitCode');
  if (tool === 'bash' && exit !== undefined && Number.isInteger(exit)) call.exit_code = exit;
  const result: OcToolCall = { call, state: stateName };
  if (tool === 'task') {
    result.taskInput = input;
    const child = childSession(state, output);
    if (child !== undefined) result.childId = child;
  }
  return result;
}
