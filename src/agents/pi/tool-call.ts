// A Pi tool call in the record's shape (pi's built-in tools: bash, read, edit, write, ls, find,
// grep), paired with its result.
import { str, text } from '../../json/narrow.js';
import { clipInput } from '../../record/clip.js';
import type { ToolCall } from '../../record/types.js';
import type { PiBody, PiToolCall } from './entry.js';

type PiResult = Extract<PiBody, { type: 'toolResult' }>;

/** Old lines as `-`, new lines as `+`: enough for a reader to see what an edit replaced. */
export function lineDiff(oldText: string, newText: string): string {
  const minus = oldText === '' ? [] : oldText.split('\n').map((l) => `-${l}`);
  const plus = newText === '' ? [] : newText.split('\n').map((l) => `+${l}`);
  return [...minus, ...plus].join('\n');
}

function inputOf(call: PiToolCall): Pick<ToolCall, 'format' | 'path' | 'input'> {
  const args = call.args;
  const path = text(args, 'path') ?? text(args, 'file_path');
  const withPath = <T extends object>(o: T): T & { path?: string } => (path === undefined ? o : { ...o, path });
  const name = call.name.toLowerCase();
  const command = text(args, 'command');
  if (name === 'bash' && command !== undefined) return { format: 'shell', input: clipInput(command) };
  const oldText = str(args, 'oldText') ?? str(args, 'old_string');
  const newText = str(args, 'newText') ?? str(args, 'new_string');
  if (name === 'edit' && oldText !== undefined && newText !== undefined)
    return withPath({ format: 'diff' as const, input: clipInput(lineDiff(oldText, newText)) });
  const content = str(args, 'content');
  if (name === 'write' && content !== undefined) return withPath({ format: 'text' as const, input: clipInput(content) });
  if (args === undefined) return withPath({});
  return withPath({ format: 'json' as const, input: clipInput(JSON.stringify(args)) });
}

/**
 * `result` is the call's toolResult on the same branch; `cut` says the message ended early.
 * Without `full`, the input (which every lower detail level drops) is not built.
 */
export function toToolCall(call: PiToolCall, result: PiResult | undefined, cut: boolean, full = true): ToolCall {
  const out: ToolCall = full ? { name: call.name, ...inputOf(call) } : { name: call.name };
  if (result !== undefined) {
    out.output = result.output;
    out.status = result.isError ? 'error' : 'ok';
    if (call.name.toLowerCase() === 'bash' && result.exitCode !== undefined) out.exit_code = result.exitCode;
  } else if (cut) {
    out.status = 'interrupted';
  }
  return out;
}
