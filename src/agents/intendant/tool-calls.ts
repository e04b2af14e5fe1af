// Runtime commands as tool calls: `turn_NNN_agent_in.json` holds the batch the model asked for
// (`{"commands":[{"function","nonce",…}]}`), and the runtime answers one protocol line per command
// (`{"type":"result","nonce":N,"data":"<JSON string>"}`) in the agent-output sidecar.
import { clipInput } from '../../record/clip.js';
import type { ToolCall, ToolFormat } from '../../record/types.js';
import { asObject, num, parseObjectLine, str, type JsonObject } from '../../json/narrow.js';

/** A call being built: the wire call plus what pairs it with its output. */
export interface DraftCall {
  call: ToolCall;
  nonce?: number;
  /** An output row was paired with it (first-in, first-out; the same at every detail level). */
  fed: boolean;
}

const shellFunctions: ReadonlySet<string> = new Set(['execAsAgent', 'execPty', 'exec_command', 'exec_pty']);
const editFunctions: ReadonlySet<string> = new Set(['editFile', 'writeFile', 'edit_file', 'write_file']);
const textField: Readonly<Record<string, string>> = { browse: 'url', browse_url: 'url', askHuman: 'question', ask_human: 'question' };
/** Fields that identify or authenticate a command rather than say what it does. */
const plumbing: ReadonlySet<string> = new Set(['function', 'nonce', 'human_response_token', 'runtime_protocol_token']);

export function callFromName(name: string): DraftCall {
  const call: ToolCall = { name };
  if (shellFunctions.has(name)) call.format = 'shell';
  return { call, fed: false };
}

function restAsJson(cmd: JsonObject): string | undefined {
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(cmd)) if (!plumbing.has(k)) rest[k] = v;
  return Object.keys(rest).length === 0 ? undefined : JSON.stringify(rest);
}

function callFromCommand(cmd: JsonObject): DraftCall {
  const name = str(cmd, 'function') ?? 'command';
  const draft = callFromName(name);
  const nonce = num(cmd, 'nonce');
  if (nonce !== undefined) draft.nonce = nonce;
  const call = draft.call;
  let format: ToolFormat | undefined;
  let input: string | undefined;
  const field = textField[name];
  if (shellFunctions.has(name)) {
    format = 'shell';
    input = str(cmd, 'command');
  } else if (field !== undefined) {
    format = 'text';
    input = str(cmd, field);
  } else {
    format = 'json';
    input = restAsJson(cmd);
  }
  const path = editFunctions.has(name) ? str(cmd, 'file_path') : str(cmd, 'path');
  if (path !== undefined) call.path = path;
  if (input !== undefined) {
    call.format = format;
    call.input = clipInput(input);
  }
  return draft;
}

/** The commands of an agent-input document, or undefined when it is not one. */
export function callsFromInput(textDoc: string): DraftCall[] | undefined {
  const doc = parseObjectLine(textDoc);
  const commands = doc === undefined ? undefined : doc.commands;
  if (!Array.isArray(commands)) return undefined;
  const out: DraftCall[] = [];
  for (const c of commands) {
    const cmd = asObject(c);
    if (cmd !== undefined) out.push(callFromCommand(cmd));
  }
  return out;
}

export interface RuntimeResult {
  nonce?: number;
  text: string;
  exitCode?: number;
  error: boolean;
}

function resultText(inner: JsonObject): string | undefined {
  const out = str(inner, 'stdout') ?? str(inner, 'stdout_tail') ?? str(inner, 'output') ?? str(inner, 'content') ?? str(inner, 'result');
  const err = str(inner, 'stderr') ?? str(inner, 'stderr_tail');
  if (out === undefined && err === undefined) return undefined;
  return [out, err].filter((s): s is string => s !== undefined && s !== '').join('\n');
}

/**
 * The runtime's protocol lines in an output chunk, or undefined when the chunk is plain text
 * (every non-empty line must be a JSON object with a `type`, at least one a `result`).
 */
export function runtimeResults(stdout: string): RuntimeResult[] | undefined {
  const results: RuntimeResult[] = [];
  for (const line of stdout.split('\n')) {
    if (line.trim() === '') continue;
    const env = parseObjectLine(line);
    const type = str(env, 'type');
    if (env === undefined || type === undefined) return undefined;
    if (type !== 'result') continue;
    const raw = env.data;
    const inner = typeof raw === 'string' ? parseObjectLine(raw) : asObject(raw);
    const rawText = typeof raw === 'string' ? raw : JSON.stringify(raw ?? null);
    const r: RuntimeResult = {
      text: (inner === undefined ? undefined : resultText(inner)) ?? rawText,
      error: rawText.startsWith('Error:') || (inner !== undefined && str(inner, 'error') !== undefined),
    };
    const nonce = num(env, 'nonce');
    if (nonce !== undefined) r.nonce = nonce;
    const exit = inner === undefined ? undefined : (num(inner, 'exit_code') ?? num(inner, 'exitCode'));
    if (exit !== undefined) r.exitCode = exit;
    results.push(r);
  }
  return results.length > 0 ? results : undefined;
}
