// A Qwen Code function call in the record's shape, paired with its tool_result record, and the
// subagent a `task` call ran (its `resultDisplay` of type `task_execution`) nested in it.
import { arr, asObject, num, str, text, type JsonObject } from '../../json/narrow.js';
import { newSubagent } from '../../record/draft.js';
import { clipInput, clipMessage, clipOutput } from '../../record/clip.js';
import type { Subagent, SubagentStatus, ToolCall, ToolFormat, ToolStatus, Turn } from '../../record/types.js';
import type { FunctionCall, FunctionResponse, QwenRecord } from './chat-record.js';

const shellTools = new Set(['run_shell_command', 'shell']);
const editTools = new Set(['edit', 'replace', 'write_file']);
const pathArgs = ['file_path', 'absolute_path', 'path', 'filePath', 'notebook_path'] as const;

const statusOf: Record<string, ToolStatus> = { success: 'ok', error: 'error', cancelled: 'interrupted' };
const subagentStatusOf: Record<string, SubagentStatus> = {
  completed: 'completed',
  failed: 'failed',
  cancelled: 'stopped',
  running: 'running',
  background: 'running',
};

/** A call's result: the function response the model saw, and the tool_result record it came in. */
export interface CallResult {
  response: FunctionResponse | undefined;
  record: QwenRecord;
}

function responseText(response: JsonObject | undefined): string | undefined {
  if (response === undefined) return undefined;
  const output = str(response, 'output');
  if (output !== undefined) return output;
  const error = response['error'];
  if (typeof error === 'string') return error;
  const message = str(asObject(error), 'message');
  if (message !== undefined) return message;
  return JSON.stringify(response);
}

function outputOf(result: CallResult): string | undefined {
  const fromModel = responseText(result.response?.response);
  if (fromModel !== undefined) return fromModel;
  const display = result.record.toolResult?.['resultDisplay'];
  return typeof display === 'string' ? display : undefined;
}

function statusOfResult(result: CallResult): ToolStatus {
  const stated = statusOf[str(result.record.toolResult, 'status') ?? ''];
  if (stated !== undefined) return stated;
  return result.response?.response?.['error'] !== undefined ? 'error' : 'ok';
}

function diffOf(args: JsonObject, result: CallResult | undefined): string | undefined {
  const fileDiff = str(asObject(result?.record.toolResult?.['resultDisplay']), 'fileDiff');
  if (fileDiff !== undefined) return fileDiff;
  const newText = str(args, 'new_string') ?? str(args, 'content');
  if (newText === undefined) return undefined;
  const oldText = str(args, 'old_string') ?? '';
  return [...(oldText === '' ? [] : oldText.split('\n').map((l) => `-${l}`)), ...newText.split('\n').map((l) => `+${l}`)].join('\n');
}

function fillInput(call: ToolCall, fc: FunctionCall, result: CallResult | undefined): void {
  let format: ToolFormat = 'json';
  let input: string | undefined;
  const command = str(fc.args, 'command');
  if (shellTools.has(fc.name) && command !== undefined) {
    format = 'shell';
    input = command;
  } else if (editTools.has(fc.name)) {
    input = diffOf(fc.args, result);
    format = 'diff';
  }
  if (input === undefined) {
    format = 'json';
    input = Object.keys(fc.args).length === 0 ? undefined : JSON.stringify(fc.args);
  }
  call.format = format;
  if (!shellTools.has(fc.name)) {
    for (const key of pathArgs) {
      const p = text(fc.args, key);
      if (p !== undefined) {
        call.path = p;
        break;
      }
    }
  }
  if (input !== undefined) call.input = clipInput(input);
}

/** The subagent a `task` call ran, from the `task_execution` display Qwen Code recorded as its result. */
export function subagentOf(callId: string, display: JsonObject, at: string | null, full: boolean): Subagent {
  const sub = newSubagent(callId);
  sub.name = text(display, 'subagentName') ?? null;
  sub.description = text(display, 'taskDescription') ?? null;
  sub.status = subagentStatusOf[str(display, 'status') ?? ''] ?? null;
  sub.started_at = at;
  sub.ended_at = at;
  const summary = asObject(display['executionSummary']);
  sub.totals.input_tokens = num(summary, 'inputTokens') ?? 0;
  sub.totals.output_tokens = num(summary, 'outputTokens') ?? 0;
  const prompt = str(display, 'taskPrompt');
  if (prompt !== undefined && prompt.trim() !== '') sub.turns.push({ role: 'user', at, text: clipMessage(prompt.trim()) });
  const calls: ToolCall[] = [];
  for (const raw of arr(display, 'toolCalls') ?? []) {
    const c = asObject(raw);
    const name = text(c, 'name');
    if (c === undefined || name === undefined) continue;
    const call: ToolCall = { name };
    if (full) {
      const args = asObject(c['args']);
      if (args !== undefined) fillInput(call, { id: text(c, 'callId'), name, args }, undefined);
      const out = str(c, 'result') ?? str(c, 'error');
      if (out !== undefined) call.output = clipOutput(out);
      const st = str(c, 'status');
      if (st === 'success') call.status = 'ok';
      else if (st === 'failed') call.status = 'error';
    }
    calls.push(call);
  }
  const result = str(display, 'result') ?? '';
  if (calls.length > 0 || result.trim() !== '') {
    const turn: Turn = { role: 'assistant', at, text: clipMessage(result.trim()), tool_calls: calls };
    sub.turns.push(turn);
  }
  return sub;
}

/** Converts one function call; without `full`, the call carries its name (and subagent) only. */
export function toToolCall(fc: FunctionCall, result: CallResult | undefined, full: boolean): ToolCall {
  const call: ToolCall = { name: fc.name };
  if (full) fillInput(call, fc, result);
  if (result !== undefined) {
    if (full) {
      const out = outputOf(result);
      if (out !== undefined) call.output = clipOutput(out);
      if (shellTools.has(fc.name)) {
        const m = out === undefined ? null : /Exit Code: (-?\d+)/.exec(out);
        if (m !== null) call.exit_code = Number(m[1]);
      }
    }
    call.status = statusOfResult(result);
    const display = asObject(result.record.toolResult?.['resultDisplay']);
    if (display !== undefined && display['type'] === 'task_execution') {
      call.subagent = subagentOf(fc.id ?? `line-${result.record.line}`, display, result.record.at, full);
    }
  }
  return call;
}
