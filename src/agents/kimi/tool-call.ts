// A Kimi Code tool call in the record's shape: shell commands, edits as diffs, file writes as
// text, everything else as compact JSON arguments (seed 003 "tool calls of that step").
import { arr, asObject, str, text, type JsonObject } from '../../json/narrow.js';
import { clipInput, clipOutput } from '../../record/clip.js';
import type { ToolCall } from '../../record/types.js';
import type { WireToolCall } from './wire-entry.js';

const shellTools = new Set(['bash', 'shell', 'powershell']);
const editTools = new Set(['edit', 'multiedit', 'strreplacefile', 'str_replace', 'apply_patch']);
const writeTools = new Set(['write', 'writefile']);
const agentTools = new Set(['agent', 'task']);

function pathOf(args: JsonObject | undefined): string | undefined {
  return text(args, 'path') ?? text(args, 'file_path') ?? text(args, 'filePath');
}

/** Old lines as `-`, new lines as `+`: enough for a reader to see what an edit replaced. */
export function lineDiff(oldText: string, newText: string): string {
  const minus = oldText === '' ? [] : oldText.split('\n').map((l) => `-${l}`);
  const plus = newText === '' ? [] : newText.split('\n').map((l) => `+${l}`);
  return [...minus, ...plus].join('\n');
}

function editPairs(args: JsonObject | undefined): { old: string; new: string }[] {
  const pair = (o: JsonObject | undefined): { old: string; new: string } | undefined => {
    const oldText = str(o, 'old_string') ?? str(o, 'oldString') ?? str(o, 'old_str') ?? str(o, 'old');
    const newText = str(o, 'new_string') ?? str(o, 'newString') ?? str(o, 'new_str') ?? str(o, 'new');
    return oldText === undefined || newText === undefined ? undefined : { old: oldText, new: newText };
  };
  const one = pair(args);
  if (one !== undefined) return [one];
  const list = arr(args, 'edits') ?? arr(args, 'edit') ?? (asObject(args?.['edit']) !== undefined ? [args?.['edit']] : []);
  return list.map((e) => pair(asObject(e))).filter((p): p is { old: string; new: string } => p !== undefined);
}

/** The exit status Kimi's Bash tool states on failure ("Command failed with exit code: 1."). */
export function exitCodeOf(output: string): number | undefined {
  const m = /exit code:?\s*(-?\d+)/i.exec(output.slice(-512));
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

function inputOf(call: WireToolCall): Pick<ToolCall, 'format' | 'path' | 'input'> {
  const name = call.name.toLowerCase();
  const args = call.args;
  const path = pathOf(args);
  const withPath = <T extends object>(o: T): T & { path?: string } => (path === undefined ? o : { ...o, path });
  const command = text(args, 'command') ?? text(args, 'cmd');
  if (shellTools.has(name) && command !== undefined) return { format: 'shell', input: clipInput(command) };
  if (editTools.has(name)) {
    const pairs = editPairs(args);
    if (pairs.length > 0)
      return withPath({ format: 'diff' as const, input: clipInput(pairs.map((p) => lineDiff(p.old, p.new)).join('\n')) });
  }
  const content = str(args, 'content');
  if (writeTools.has(name) && content !== undefined) return withPath({ format: 'text' as const, input: clipInput(content) });
  const prompt = text(args, 'prompt');
  if (agentTools.has(name) && prompt !== undefined) return { format: 'text', input: clipInput(prompt) };
  if (args === undefined) return withPath({});
  return withPath({ format: 'json' as const, input: clipInput(JSON.stringify(args)) });
}

/**
 * The record's tool call for one wire call (its subagent, if any, is attached by the caller).
 * Without `full`, the input and output (which every lower detail level drops) are not built.
 */
export function toToolCall(call: WireToolCall, full = true): ToolCall {
  const out: ToolCall = full ? { name: call.name, ...inputOf(call) } : { name: call.name };
  if (call.output !== null) {
    if (full) out.output = clipOutput(call.output);
    out.status = call.isError ? 'error' : 'ok';
    if (full && shellTools.has(call.name.toLowerCase())) {
      const code = exitCodeOf(call.output);
      if (code !== undefined) out.exit_code = code;
    }
  } else if (call.interrupted) {
    out.status = 'interrupted';
  }
  return out;
}
