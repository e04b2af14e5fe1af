// One recorded Gemini CLI tool call (`toolCalls[]` of a `gemini` message) as a record tool call.
import { asObject, str, type JsonObject } from '../../json/narrow.js';
import { clipInput, clipOutput } from '../../record/clip.js';
import type { ToolCall, ToolFormat, ToolStatus } from '../../record/types.js';
import { contentText } from './content.js';

const shellTools = new Set(['run_shell_command', 'shell']);
const editTools = new Set(['replace', 'edit', 'write_file', 'smart_edit']);
/** Argument names Gemini CLI's file tools give a path under (it changed from `path` to `file_path`). */
const pathArgs = ['file_path', 'absolute_path', 'path', 'dir_path'] as const;
/** Argument names that name a directory a command ran in. */
const dirArgs = ['cwd', 'dir_path', 'directory'] as const;

const statusOf: Record<string, ToolStatus> = {
  success: 'ok',
  error: 'error',
  cancelled: 'interrupted',
  canceled: 'interrupted',
};

export interface GeminiToolCall {
  call: ToolCall;
  /** Absolute paths the call's arguments name: candidates for the project root. */
  paths: string[];
  /** Directories a shell command ran in, as written (absolute or relative to the project). */
  shellDirs: string[];
}

function responseText(response: JsonObject | undefined): string | undefined {
  if (response === undefined) return undefined;
  const output = str(response, 'output');
  if (output !== undefined) return output;
  const error = response.error;
  if (typeof error === 'string') return error;
  const message = str(asObject(error), 'message');
  if (message !== undefined) return message;
  const content = response.content;
  if (content !== undefined) return contentText(content);
  return JSON.stringify(response);
}

/** The tool's result as the model saw it: the function responses, else the text shown to the person. */
function resultText(raw: JsonObject): string | undefined {
  const result = raw.result;
  if (Array.isArray(result) || asObject(result) !== undefined) {
    const parts = Array.isArray(result) ? result : [result];
    const pieces: string[] = [];
    for (const p of parts) {
      const part = asObject(p);
      if (part === undefined) continue;
      const fr = asObject(part.functionResponse);
      if (fr !== undefined) {
        const t = responseText(asObject(fr.response));
        if (t !== undefined) pieces.push(t);
      } else {
        const t = str(part, 'text');
        if (t !== undefined) pieces.push(t);
      }
    }
    if (pieces.length > 0) return pieces.join('\n');
  } else if (typeof result === 'string') {
    return result;
  }
  const display = raw.resultDisplay;
  return typeof display === 'string' ? display : undefined;
}

/** Gemini CLI's shell tool reports its exit status inside the output text ("Exit Code: 1"). */
function exitCode(output: string | undefined): number | undefined {
  if (output === undefined) return undefined;
  const m = /Exit Code: (-?\d+)/.exec(output);
  return m === null ? undefined : Number(m[1]);
}

function diffOf(args: JsonObject, raw: JsonObject): string | undefined {
  const fileDiff = str(asObject(raw.resultDisplay), 'fileDiff');
  if (fileDiff !== undefined) return fileDiff;
  const oldText = str(args, 'old_string');
  const newText = str(args, 'new_string') ?? str(args, 'content');
  if (newText === undefined) return undefined;
  const minus = oldText === undefined || oldText === '' ? [] : oldText.split('\n').map((l) => `-${l}`);
  const plus = newText.split('\n').map((l) => `+${l}`);
  return [...minus, ...plus].join('\n');
}

function isAbsolute(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);
}

/** The call's format, path, input, output and exit code: what only the full detail level shows. */
function fillDetail(call: ToolCall, name: string, args: JsonObject, raw: JsonObject): void {
  let format: ToolFormat = 'json';
  let input: string | undefined;
  if (shellTools.has(name) && str(args, 'command') !== undefined) {
    format = 'shell';
    input = str(args, 'command');
  } else if (editTools.has(name)) {
    input = diffOf(args, raw);
    format = 'diff';
  }
  if (input === undefined) {
    format = 'json';
    input = Object.keys(args).length === 0 ? undefined : JSON.stringify(args);
  }
  call.format = format;
  if (!shellTools.has(name)) {
    for (const key of pathArgs) {
      const p = str(args, key);
      if (p !== undefined && p !== '') {
        call.path = p;
        break;
      }
    }
  }
  if (input !== undefined) call.input = clipInput(input);
  const output = resultText(raw);
  if (output !== undefined) call.output = clipOutput(output);
  const status = statusOf[str(raw, 'status') ?? ''];
  if (status !== undefined) call.status = status;
  if (shellTools.has(name)) {
    const code = exitCode(output);
    if (code !== undefined) call.exit_code = code;
  }
}

/**
 * Converts one `toolCalls[]` entry; undefined when it is not an object with a name. Without
 * `full`, the call carries its name only (every lower detail level drops the rest unbuilt).
 */
export function geminiToolCall(value: unknown, full = true): GeminiToolCall | undefined {
  const raw = asObject(value);
  const name = str(raw, 'name');
  if (raw === undefined || name === undefined) return undefined;
  const args = asObject(raw.args) ?? {};
  const call: ToolCall = { name };
  if (full) fillDetail(call, name, args, raw);

  const paths: string[] = [];
  const shellDirs: string[] = [];
  for (const key of new Set<string>([...pathArgs, ...dirArgs])) {
    const p = str(args, key);
    if (p !== undefined && isAbsolute(p)) paths.push(p);
  }
  if (shellTools.has(name)) {
    for (const key of dirArgs) {
      const d = str(args, key);
      if (d !== undefined && d !== '') shellDirs.push(d);
    }
  }
  return { call, paths, shellDirs };
}
