// A Droid `tool_use` block in the record's shape (a shell command, an edit as a diff, a created
// file as text, anything else as JSON), paired with its `tool_result` block.
import { str, text, type JsonObject } from '../../json/narrow.js';
import { clipInput, clipOutput } from '../../record/clip.js';
import type { ToolCall } from '../../record/types.js';

const pathArgs = ['file_path', 'path', 'filePath', 'directory_path'] as const;

function diffOf(oldText: string, newText: string): string {
  const minus = oldText === '' ? [] : oldText.split('\n').map((l) => `-${l}`);
  const plus = newText === '' ? [] : newText.split('\n').map((l) => `+${l}`);
  return [...minus, ...plus].join('\n');
}

/** A call's name, and with `full` its format, path and input. */
export function useCall(name: string, input: JsonObject, full: boolean): ToolCall {
  const call: ToolCall = { name };
  if (!full) return call;
  for (const key of pathArgs) {
    const p = text(input, key);
    if (p !== undefined) {
      call.path = p;
      break;
    }
  }
  const command = str(input, 'command');
  const oldText = str(input, 'old_str') ?? str(input, 'old_string');
  const newText = str(input, 'new_str') ?? str(input, 'new_string');
  const content = str(input, 'content');
  if (command !== undefined && /^(execute|bash|shell)$/i.test(name)) {
    call.format = 'shell';
    call.input = clipInput(command);
  } else if (oldText !== undefined || newText !== undefined) {
    call.format = 'diff';
    call.input = clipInput(diffOf(oldText ?? '', newText ?? ''));
  } else if (content !== undefined && /^create$/i.test(name)) {
    call.format = 'text';
    call.input = clipInput(content);
  } else if (Object.keys(input).length > 0) {
    call.format = 'json';
    call.input = clipInput(JSON.stringify(input));
  }
  return call;
}

export function completeCall(call: ToolCall, output: string, isError: boolean, full: boolean): void {
  call.status = isError ? 'error' : 'ok';
  if (full && output !== '') call.output = clipOutput(output);
}
