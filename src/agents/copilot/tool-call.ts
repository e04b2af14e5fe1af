// A Copilot CLI tool request in the record's shape (built-in tools `bash`, `view`, `edit`, `create`,
// `str_replace_editor`, …; anything else as JSON), and its `tool.execution_complete` result.
import { asObject, str, text, type JsonObject } from '../../json/narrow.js';
import { clipInput, clipOutput } from '../../record/clip.js';
import type { ToolCall } from '../../record/types.js';

const shellTools = new Set(['bash', 'shell', 'powershell']);
const pathArgs = ['path', 'file_path', 'filePath'] as const;

function diffOf(oldText: string, newText: string): string {
  const minus = oldText === '' ? [] : oldText.split('\n').map((l) => `-${l}`);
  const plus = newText === '' ? [] : newText.split('\n').map((l) => `+${l}`);
  return [...minus, ...plus].join('\n');
}

/** A request's name, and with `full` its format, path and input. */
export function requestCall(name: string, args: unknown, full: boolean): ToolCall {
  const call: ToolCall = { name };
  if (!full) return call;
  const a = asObject(args);
  if (a === undefined) {
    if (typeof args === 'string' && args !== '') {
      call.format = 'text';
      call.input = clipInput(args);
    }
    return call;
  }
  for (const key of pathArgs) {
    const p = text(a, key);
    if (p !== undefined) {
      call.path = p;
      break;
    }
  }
  const command = str(a, 'command');
  const oldText = str(a, 'old_str');
  const newText = str(a, 'new_str');
  const fileText = str(a, 'file_text');
  if (shellTools.has(name) && command !== undefined) {
    call.format = 'shell';
    call.input = clipInput(command);
  } else if (oldText !== undefined || newText !== undefined) {
    call.format = 'diff';
    call.input = clipInput(diffOf(oldText ?? '', newText ?? ''));
  } else if (fileText !== undefined) {
    call.format = 'text';
    call.input = clipInput(fileText);
  } else if (Object.keys(a).length > 0) {
    call.format = 'json';
    call.input = clipInput(JSON.stringify(a));
  }
  return call;
}

/** Fills a call from its `tool.execution_complete` payload: the text the model saw, or the error. */
export function completeCall(call: ToolCall, data: JsonObject, full: boolean): void {
  const ok = data['success'] === true;
  call.status = ok ? 'ok' : 'error';
  if (!full) return;
  const result = asObject(data['result']);
  const out = str(result, 'content') ?? str(result, 'detailedContent') ?? str(asObject(data['error']), 'message');
  if (out !== undefined) call.output = clipOutput(out);
}
