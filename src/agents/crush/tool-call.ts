// A Crush `tool_call` part (`{id, name, input: <JSON text>, finished}`) as a record tool call,
// shaped by the tool's arguments (internal/agent/tools: bash `command`, edit `file_path`
// `old_string` `new_string`, write `file_path` `content`, agent `prompt`).
import { asObject, str, text, type JsonObject } from '../../json/narrow.js';
import { clipInput } from '../../record/clip.js';
import type { ToolCall, ToolFormat } from '../../record/types.js';

const pathTools = new Set(['view', 'ls', 'glob', 'grep', 'multiedit', 'download', 'lsp_diagnostics']);
/** Tools that run a sub-agent in a session of their own (internal/agent/coordinator.go runSubAgent). */
export const subagentTools = new Set(['agent', 'agentic_fetch']);

function plusMinus(oldText: string | undefined, newText: string): string {
  const minus = oldText === undefined || oldText === '' ? [] : oldText.split('\n').map((l) => `-${l}`);
  return [...minus, ...newText.split('\n').map((l) => `+${l}`)].join('\n');
}

function argumentsOf(input: string | undefined): JsonObject | undefined {
  if (input === undefined || input === '') return undefined;
  try {
    return asObject(JSON.parse(input));
  } catch {
    return undefined;
  }
}

function shapeOf(
  name: string,
  raw: string | undefined,
  args: JsonObject | undefined,
): { format: ToolFormat; input?: string; path?: string } {
  const filePath = text(args, 'file_path') ?? text(args, 'path');
  const withPath = <T extends object>(shape: T): T & { path?: string } => (filePath === undefined ? shape : { ...shape, path: filePath });
  switch (name) {
    case 'bash': {
      const command = str(args, 'command');
      if (command !== undefined) return { format: 'shell', input: command };
      break;
    }
    case 'edit': {
      const next = str(args, 'new_string');
      if (next !== undefined) return withPath({ format: 'diff' as const, input: plusMinus(str(args, 'old_string'), next) });
      break;
    }
    case 'write': {
      const content = str(args, 'content');
      if (content !== undefined) return withPath({ format: 'diff' as const, input: plusMinus(undefined, content) });
      break;
    }
    default: {
      const prompt = subagentTools.has(name) ? str(args, 'prompt') : undefined;
      if (prompt !== undefined) return { format: 'text', input: prompt };
    }
  }
  const input = args === undefined ? raw : JSON.stringify(args);
  const shape: { format: ToolFormat; input?: string } =
    input === undefined || input === '' || input === '{}' ? { format: 'json' } : { format: 'json', input };
  return pathTools.has(name) ? withPath(shape) : shape;
}

/** The call, its input built only at `full` detail (the lower levels drop it). */
export function crushToolCall(data: JsonObject, full: boolean): ToolCall {
  const name = text(data, 'name') ?? 'tool';
  const call: ToolCall = { name };
  if (!full) return call;
  const raw = str(data, 'input');
  const shape = shapeOf(name, raw, argumentsOf(raw));
  call.format = shape.format;
  if (shape.path !== undefined) call.path = shape.path;
  if (shape.input !== undefined) call.input = clipInput(shape.input);
  return call;
}
