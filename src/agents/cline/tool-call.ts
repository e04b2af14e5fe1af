// One Cline / Roo Code tool call as a record tool call: its input shaped by what the tool does, and
// its result's text and status as the extensions word them.
import { asObject, str, type JsonObject } from '../../json/narrow.js';
import { clipInput, clipOutput } from '../../record/clip.js';
import type { ToolCall, ToolStatus } from '../../record/types.js';

const shellTools = new Set(['execute_command']);
/** Tools whose input is a diff or a patch, by the parameter that carries it. */
const diffParams: Record<string, string> = {
  replace_in_file: 'diff',
  apply_diff: 'diff',
  apply_patch: 'input',
  search_and_replace: 'diff',
};
const writeTools = new Set(['write_to_file', 'insert_content']);
/** How Roo Code's JSON tool statuses begin (src/core/prompts/responses.ts). */
const statusStart = '{"status"';

function plusLines(content: string): string {
  return content
    .split('\n')
    .map((l) => `+${l}`)
    .join('\n');
}

/** The first `<path>` inside Roo Code's nested `args` parameter (read_file of several files). */
function nestedPath(args: unknown): string | undefined {
  return typeof args === 'string' ? /<path>([^<\n]+)<\/path>/.exec(args)?.[1] : undefined;
}

/** A call from its tool name and arguments (XML parameters or a native `tool_use` input). */
export function toolCall(name: string, args: JsonObject, full: boolean): ToolCall {
  const call: ToolCall = { name };
  if (!full) return call;
  const path = str(args, 'path') ?? str(args, 'absolutePath') ?? str(args, 'file_path') ?? nestedPath(args.args);
  if (path !== undefined && path !== '' && !shellTools.has(name)) call.path = path;
  const command = str(args, 'command');
  const diffKey = diffParams[name];
  const diff = diffKey === undefined ? undefined : str(args, diffKey);
  const content = str(args, 'content');
  if (shellTools.has(name) && command !== undefined) {
    call.format = 'shell';
    call.input = clipInput(command);
  } else if (diff !== undefined) {
    call.format = 'diff';
    call.input = clipInput(diff);
  } else if (writeTools.has(name) && content !== undefined) {
    call.format = 'diff';
    call.input = clipInput(plusLines(content));
  } else {
    call.format = 'json';
    if (Object.keys(args).length > 0) call.input = clipInput(JSON.stringify(args));
  }
  return call;
}

/**
 * How a result reads: Cline's "The tool execution failed…" / "The user denied this operation.",
 * Roo Code's JSON `{"status":"error"|"denied",…}`, or an `is_error` tool result.
 */
export function resultStatus(output: string, isError: boolean): ToolStatus {
  if (isError) return 'error';
  const t = output.trimStart();
  if (t.startsWith('The tool execution failed') || t.startsWith('<error>')) return 'error';
  if (t.startsWith('The user denied this operation')) return 'interrupted';
  if (t.startsWith(statusStart)) {
    try {
      const status = str(asObject(JSON.parse(t)), 'status');
      if (status === 'error') return 'error';
      if (status === 'denied') return 'interrupted';
    } catch {
      // Not Roo Code's JSON status after all: an ordinary output.
    }
  }
  return 'ok';
}

/** Whether an output's head (at least its first non-blank characters) may be Roo Code's JSON status. */
export function mayBeStatus(head: string): boolean {
  const t = head.trimStart();
  return t.length < statusStart.length || t.startsWith(statusStart);
}

/** The feedback Roo Code's JSON status carries (`{"status":"denied","feedback":"…"}`). */
export function statusFeedback(output: string): string | undefined {
  const t = output.trimStart();
  if (!t.startsWith(statusStart)) return undefined;
  try {
    const feedback = str(asObject(JSON.parse(t)), 'feedback')?.trim();
    return feedback === '' ? undefined : feedback;
  } catch {
    return undefined;
  }
}

export function setResult(call: ToolCall, output: string, isError: boolean, full: boolean): void {
  if (!full) return;
  call.output = clipOutput(output);
  call.status = resultStatus(output, isError);
}
