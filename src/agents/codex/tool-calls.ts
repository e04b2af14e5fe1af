// Codex tool calls as record tool calls: the input a person would read (the shell command, the
// patch, else compact JSON arguments), and the output paired by `call_id` with its exit code and
// status (seed 003 "What a session becomes": tool calls).
import { clipInput, clipOutput } from '../../record/clip.js';
import type { ToolCall, ToolFormat } from '../../record/types.js';
import { arr, asArray, asObject, isObject, num, obj, str, text, type JsonObject } from '../../json/narrow.js';
import { shellInput } from './shell-command.js';

/** What the reader remembers about a call until its output arrives. */
export interface OpenCall {
  call: ToolCall;
  /** `spawn_agent` (any namespace), or the code-mode `exec` tool that can spawn from JavaScript. */
  spawn: 'direct' | 'exec' | undefined;
}

const shellTools = new Set(['shell', 'container.exec', 'shell_command', 'local_shell', 'exec_command']);

/** A function name with its namespace: MCP namespaces (`mcp__server__`) prefix the tool the way
 * older builds named it; grouping namespaces such as `collaboration` add nothing a reader needs. */
export function toolName(payload: JsonObject): string {
  const name = text(payload, 'name') ?? 'unknown';
  const namespace = text(payload, 'namespace');
  return namespace?.endsWith('__') && !name.startsWith(namespace) ? namespace + name : name;
}

export function isSpawnName(name: string): boolean {
  return name === 'spawn_agent' || name.endsWith('.spawn_agent') || name.endsWith('__spawn_agent');
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** Compact JSON of arguments that arrive as a JSON string, an object or anything else. */
function compactArgs(args: unknown): string {
  if (typeof args === 'string') {
    const parsed = parseJson(args);
    return parsed === undefined ? args : JSON.stringify(parsed);
  }
  return args === undefined || args === null ? '' : JSON.stringify(args);
}

function argsObject(args: unknown): JsonObject | undefined {
  return typeof args === 'string' ? asObject(parseJson(args)) : asObject(args);
}

/** The first file an apply_patch envelope names. */
export function patchPath(patch: string): string | undefined {
  const m = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/m.exec(patch);
  return m?.[1]?.trim() || undefined;
}

function withInput(call: ToolCall, format: ToolFormat, input: string): ToolCall {
  call.format = format;
  call.input = clipInput(input);
  if (format === 'diff') {
    const path = patchPath(input);
    if (path !== undefined) call.path = path;
  }
  return call;
}

/** The prompt a spawn call hands its agent (`message`, or v1's `items` of text). */
export function spawnPrompt(args: JsonObject | undefined): string | undefined {
  const message = text(args, 'message');
  if (message !== undefined) return message;
  const items = arr(args, 'items');
  if (items === undefined) return undefined;
  const texts = items.flatMap((i) => (isObject(i) && typeof i.text === 'string' ? [i.text] : []));
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/**
 * A `function_call`. `full` builds input strings; otherwise the call is its name alone (the
 * messages and summary levels drop inputs), except what spawn nesting needs.
 */
export function functionCall(payload: JsonObject, full: boolean): OpenCall {
  const name = toolName(payload);
  const call: ToolCall = { name };
  const spawn = isSpawnName(name) ? 'direct' : undefined;
  if (!full) return { call, spawn };
  const rawArgs = payload.arguments;
  const base = name.includes('.') && !name.startsWith('container.') ? name.slice(name.lastIndexOf('.') + 1) : name;
  if (shellTools.has(base)) {
    const shell = shellInput(argsObject(rawArgs));
    if (shell !== undefined) return { call: withInput(call, shell.format, shell.input), spawn };
  } else if (base === 'apply_patch') {
    const args = argsObject(rawArgs);
    const patch =
      text(args, 'input') ??
      text(args, 'patch') ??
      (typeof rawArgs === 'string' && rawArgs.startsWith('*** Begin Patch') ? rawArgs : undefined);
    if (patch !== undefined) return { call: withInput(call, 'diff', patch), spawn };
  } else if (spawn !== undefined) {
    const prompt = spawnPrompt(argsObject(rawArgs));
    if (prompt !== undefined) return { call: withInput(call, 'text', prompt), spawn };
  }
  const input = compactArgs(rawArgs);
  if (input !== '') withInput(call, 'json', input);
  return { call, spawn };
}

/** A `custom_tool_call` (freeform input: apply_patch's patch, code mode's JavaScript). */
export function customToolCall(payload: JsonObject, full: boolean): OpenCall {
  const name = toolName(payload);
  const input = str(payload, 'input') ?? '';
  const spawn = isSpawnName(name) ? 'direct' : name === 'exec' && input.includes('spawn_agent') ? 'exec' : undefined;
  const call: ToolCall = { name };
  if (!full || input === '') return { call, spawn };
  if (name === 'apply_patch') return { call: withInput(call, 'diff', input), spawn };
  if (shellTools.has(name)) {
    const shell = shellInput(argsObject(input));
    if (shell !== undefined) return { call: withInput(call, shell.format, shell.input), spawn };
  }
  return { call: withInput(call, 'text', input), spawn };
}

/** A `local_shell_call` (the Responses API's built-in shell): its command rides on the item. */
export function localShellCall(payload: JsonObject, full: boolean): OpenCall {
  const call: ToolCall = { name: 'local_shell' };
  if (!full) return { call, spawn: undefined };
  const shell = shellInput(obj(payload, 'action'));
  if (shell !== undefined) withInput(call, shell.format, shell.input);
  const status = str(payload, 'status');
  if (status === 'incomplete') call.status = 'interrupted';
  return { call, spawn: undefined };
}

/** A hosted web search (`web_search_call`): the query or page is its input; no output is logged. */
export function webSearchCall(payload: JsonObject, full: boolean): ToolCall {
  const call: ToolCall = { name: 'web_search' };
  if (!full) return call;
  const action = obj(payload, 'action');
  const queries = arr(action, 'queries')?.filter((q): q is string => typeof q === 'string');
  const input =
    text(action, 'query') ??
    (queries !== undefined && queries.length > 0 ? queries.join('\n') : undefined) ??
    text(action, 'url') ??
    text(payload, 'query');
  if (input !== undefined) withInput(call, 'text', input);
  const status = str(payload, 'status');
  if (status === 'completed') call.status = 'ok';
  else if (status === 'failed') call.status = 'error';
  return call;
}

/** An MCP call known only from its `mcp_tool_call_end` event. */
export function mcpCallFromEvent(payload: JsonObject, full: boolean): ToolCall {
  const invocation = obj(payload, 'invocation');
  const call: ToolCall = { name: `mcp__${str(invocation, 'server') ?? 'unknown'}__${str(invocation, 'tool') ?? 'unknown'}` };
  if (!full) return call;
  const args = invocation?.arguments;
  if (args !== undefined && args !== null) withInput(call, 'json', JSON.stringify(args));
  applyMcpResult(call, payload);
  return call;
}

/** Sets an MCP call's output and status from an `mcp_tool_call_end` result (`{Ok}` or `{Err}`). */
export function applyMcpResult(call: ToolCall, payload: JsonObject): void {
  const result = obj(payload, 'result');
  const err = result?.Err;
  if (err !== undefined) {
    call.output = clipOutput(typeof err === 'string' ? err : JSON.stringify(err));
    call.status = 'error';
    return;
  }
  const ok = obj(result, 'Ok') ?? result;
  if (ok === undefined) return;
  if (call.output === undefined) call.output = clipOutput(contentText(ok.content) ?? '');
  call.status = ok.isError === true ? 'error' : 'ok';
}

/** Text parts of a content array (`input_text`, `output_text`, MCP `text`); images are skipped. */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  const parts = asArray(content);
  if (parts === undefined) return undefined;
  const texts: string[] = [];
  for (const p of parts) {
    if (!isObject(p)) continue;
    const type = p.type;
    if ((type === 'input_text' || type === 'output_text' || type === 'text' || type === 'inputText') && typeof p.text === 'string')
      texts.push(p.text);
  }
  return texts.join('\n');
}

export interface CallOutput {
  text: string;
  exitCode: number | undefined;
  /** The output object said `success: false` or `isError: true`. */
  failed: boolean;
}

// exec_command and newer shell outputs open with a header: "Exit code: 0" or "Process exited with
// code 0", "Wall time: …", then "Output:" and the command's own output.
const headerLine =
  /^(?:Chunk ID|Wall time|Exit code|Process exited with code|Process running with session ID|Original token count|Total output lines)\b/;
const exitLine = /^(?:Exit code:|Process exited with code) (-?\d+)\s*$/m;

function splitHeader(textValue: string): { body: string; exitCode: number | undefined } {
  if (!headerLine.test(textValue)) return { body: textValue, exitCode: undefined };
  const marker = textValue.indexOf('\nOutput:\n');
  const head = marker === -1 ? textValue.slice(0, 512) : textValue.slice(0, marker);
  const m = exitLine.exec(head);
  const exitCode = m?.[1] === undefined ? undefined : Number(m[1]);
  return { body: marker === -1 ? textValue : textValue.slice(marker + '\nOutput:\n'.length), exitCode };
}

/**
 * Unwraps a call's output: a plain string, the older shell JSON `{output, metadata:{exit_code}}`,
 * an MCP-style `{content, isError}`, a `{content, success}` payload, or an array of text parts.
 */
export function readOutput(output: unknown): CallOutput {
  let textValue = '';
  let exitCode: number | undefined;
  let failed = false;
  let value = output;
  if (typeof value === 'string' && value.charCodeAt(0) === 123 /* { */) {
    const parsed = asObject(parseJson(value));
    if (parsed !== undefined && (typeof parsed.output === 'string' || parsed.content !== undefined || parsed.isError !== undefined))
      value = parsed;
  }
  if (typeof value === 'string') textValue = value;
  else if (Array.isArray(value)) textValue = contentText(value) ?? '';
  else if (isObject(value)) {
    if (typeof value.output === 'string') {
      textValue = value.output;
      exitCode = num(obj(value, 'metadata'), 'exit_code');
    } else if (typeof value.text === 'string') textValue = value.text;
    else textValue = contentText(value.content) ?? '';
    if (value.success === false || value.isError === true) failed = true;
  }
  const split = splitHeader(textValue);
  return { text: split.body, exitCode: exitCode ?? split.exitCode, failed };
}

// Codex writes "aborted" as the output of a call its turn was interrupted in.
const abortedOutput = /^aborted(?: by user)?\.?$/i;
const statedFailure = /^(?:apply_patch verification failed|execution error|failed to |error: |patch rejected)/i;

/** Pairs an output with its call: output text clipped, exit code, and status. */
export function applyOutput(call: ToolCall, output: unknown): void {
  const out = readOutput(output);
  call.output = clipOutput(out.text);
  // An `exec_command_end` or `patch_apply_end` event may have spoken first.
  const exitCode = out.exitCode ?? call.exit_code;
  if (exitCode !== undefined) call.exit_code = exitCode;
  const trimmed = out.text.trim();
  if (abortedOutput.test(trimmed)) call.status = 'interrupted';
  else if (out.failed || call.status === 'error') call.status = 'error';
  else if (exitCode !== undefined) call.status = exitCode === 0 ? 'ok' : 'error';
  else call.status = statedFailure.test(trimmed) ? 'error' : 'ok';
}
