// A Goose `toolRequest` (`{id, toolCall: {status: "success", value: {name, arguments}} | {status:
// "error", error}}`) as a record tool call. Tool names are `<extension>__<tool>`: the developer
// extension's `shell` (`command`) and `text_editor` (`command`, `path`, `file_text`, `old_str`,
// `new_str`) are shaped; the rest keep their arguments as JSON.
import { asObject, obj, str, text, type JsonObject } from '../../json/narrow.js';
import { clipInput } from '../../record/clip.js';
import type { ToolCall, ToolFormat } from '../../record/types.js';

function plusMinus(oldText: string | undefined, newText: string): string {
  const minus = oldText === undefined || oldText === '' ? [] : oldText.split('\n').map((l) => `-${l}`);
  return [...minus, ...newText.split('\n').map((l) => `+${l}`)].join('\n');
}

function shapeOf(tool: string, args: JsonObject): { format: ToolFormat; input?: string; path?: string } {
  const path = text(args, 'path');
  const withPath = (shape: { format: ToolFormat; input?: string }) => (path === undefined ? shape : { ...shape, path });
  if (tool === 'shell') {
    const command = str(args, 'command');
    if (command !== undefined) return { format: 'shell', input: command };
  }
  if (tool === 'text_editor') {
    const command = str(args, 'command');
    const fileText = str(args, 'file_text');
    const next = str(args, 'new_str');
    if (command === 'write' && fileText !== undefined) return withPath({ format: 'diff', input: plusMinus(undefined, fileText) });
    if (command === 'str_replace' && next !== undefined) return withPath({ format: 'diff', input: plusMinus(str(args, 'old_str'), next) });
  }
  const json = Object.keys(args).length === 0 ? undefined : JSON.stringify(args);
  return withPath(json === undefined ? { format: 'json' } : { format: 'json', input: json });
}

/** The call of a `toolRequest` or `frontendToolRequest` item; its input only at `full` detail. */
export function gooseToolCall(item: JsonObject, full: boolean): ToolCall {
  const request = obj(item, 'toolCall');
  const value = obj(request, 'value');
  const name = text(value, 'name') ?? 'tool';
  const call: ToolCall = { name };
  if (str(request, 'status') === 'error') {
    call.status = 'error';
    if (full) call.output = str(request, 'error') ?? 'invalid tool call';
    return call;
  }
  if (!full) return call;
  const tool = name.includes('__') ? name.slice(name.lastIndexOf('__') + 2) : name;
  const shape = shapeOf(tool, asObject(value?.arguments) ?? {});
  call.format = shape.format;
  if (shape.path !== undefined) call.path = shape.path;
  if (shape.input !== undefined) call.input = clipInput(shape.input);
  return call;
}
