// Claude Code tool calls: what a `tool_use` block becomes (format, path, input) and what its paired
// `tool_result` says (output, status, exit code).
import { asArray, isObject, num, str, text, type JsonObject } from '../../json/narrow.js';
import { clipInput, clipOutput } from '../../record/clip.js';
import type { ToolCall, ToolStatus } from '../../record/types.js';
import { interruptPrefix } from './user-text.js';

/** Both names Claude Code has given its subagent tool (`Task` in older builds, `Agent` in newer). */
export const launchToolNames: ReadonlySet<string> = new Set(['Task', 'Agent']);

function prefixLines(body: string, mark: string): string {
  return `${mark}${body.split('\n').join(`\n${mark}`)}`;
}

/** A unified-style diff of one replacement (the line numbers are not in the log, so the hunk has none). */
function replacement(oldText: string, newText: string): string {
  const parts = ['@@'];
  if (oldText !== '') parts.push(prefixLines(oldText, '-'));
  if (newText !== '') parts.push(prefixLines(newText, '+'));
  return parts.join('\n');
}

function editInput(name: string, input: JsonObject | undefined, path: string): string | undefined {
  if (name === 'write') {
    const content = str(input, 'content');
    return content === undefined ? undefined : `--- /dev/null\n+++ ${path}\n${replacement('', content)}`;
  }
  if (name === 'edit') {
    const oldText = str(input, 'old_string');
    const newText = str(input, 'new_string');
    if (oldText === undefined && newText === undefined) return undefined;
    return `--- ${path}\n+++ ${path}\n${replacement(oldText ?? '', newText ?? '')}`;
  }
  const edits = asArray(input?.edits);
  if (edits === undefined) return undefined;
  const hunks = edits.filter(isObject).map((e) => replacement(str(e, 'old_string') ?? '', str(e, 'new_string') ?? ''));
  return `--- ${path}\n+++ ${path}\n${hunks.join('\n')}`;
}

function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value ?? {}) ?? '';
  } catch {
    return '';
  }
}

/**
 * The call a `tool_use` block describes; at `full` detail with its input (Bash's command, an edit's
 * diff under its path, a subagent's prompt, else the arguments as compact JSON), clipped at 16 KiB.
 */
export function toolCallOf(block: JsonObject, withInput: boolean): ToolCall {
  const name = text(block, 'name') ?? 'unknown';
  const call: ToolCall = { name };
  if (!withInput) return call;
  const input = isObject(block.input) ? block.input : undefined;
  const lower = name.toLowerCase();
  const path = text(input, 'file_path') ?? text(input, 'notebook_path');
  if (lower === 'bash') {
    const command = str(input, 'command');
    if (command !== undefined) {
      call.format = 'shell';
      call.input = clipInput(command);
      return call;
    }
  }
  if (lower === 'edit' || lower === 'multiedit' || lower === 'write') {
    const diff = editInput(lower, input, path ?? '');
    if (diff !== undefined) {
      call.format = 'diff';
      if (path !== undefined) call.path = path;
      call.input = clipInput(diff);
      return call;
    }
  }
  if (launchToolNames.has(name)) {
    const prompt = str(input, 'prompt');
    if (prompt !== undefined) {
      call.format = 'text';
      call.input = clipInput(prompt);
      return call;
    }
  }
  call.format = 'json';
  if (path !== undefined) call.path = path;
  call.input = clipInput(compactJson(input));
  return call;
}

/** The text of a `tool_result`'s content: a string, or its text parts joined (images as `[image]`). */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  const blocks = asArray(content);
  if (blocks === undefined) return '';
  const parts: string[] = [];
  for (const b of blocks) {
    if (!isObject(b)) continue;
    const t = str(b, 'text');
    if (t !== undefined) parts.push(t);
    else if (b.type === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}

/** The first text of a result, enough to recognise markers without joining a large output. */
function leadingText(content: unknown): string {
  if (typeof content === 'string') return content;
  const first = asArray(content)?.find((b) => isObject(b) && typeof b.text === 'string');
  return isObject(first) ? (str(first, 'text') ?? '') : '';
}

export interface ResultFacts {
  status: ToolStatus;
  exitCode: number | undefined;
}

function exitCodeIn(lead: string): number | undefined {
  // Bash reports a failing command as an error result opening "Exit code N" (sometimes "Error: Exit code N").
  const at = lead.startsWith('Exit code ') ? 10 : lead.startsWith('Error: Exit code ') ? 17 : -1;
  if (at === -1) return undefined;
  let end = at;
  while (end < lead.length && lead.charCodeAt(end) >= 48 && lead.charCodeAt(end) <= 57) end++;
  return end > at ? Number(lead.slice(at, end)) : undefined;
}

/** Status and exit code of a result: interrupted when it says so, error when flagged, else ok. */
export function resultFacts(block: JsonObject, toolUseResult: unknown): ResultFacts {
  const tur = isObject(toolUseResult) ? toolUseResult : undefined;
  const lead = leadingText(block.content);
  const isError = block.is_error === true;
  // A refused or cut-off call's structured result is a short "Error: …" string.
  const turText = isError && typeof toolUseResult === 'string' && toolUseResult.length < 4096 ? toolUseResult : '';
  const interrupted = tur?.interrupted === true || lead.startsWith(interruptPrefix) || turText.includes(interruptPrefix);
  const status: ToolStatus = interrupted ? 'interrupted' : isError ? 'error' : 'ok';
  const exitCode = num(tur, 'exitCode') ?? num(tur, 'exit_code') ?? (isError ? exitCodeIn(lead) : undefined);
  return { status, exitCode };
}

/**
 * The unified diff Claude Code recorded for an edit (`toolUseResult.structuredPatch`: hunks with line
 * numbers), better than the one rebuilt from the call's strings; undefined when it recorded none.
 */
export function recordedPatch(path: string | undefined, toolUseResult: unknown): string | undefined {
  const hunks = isObject(toolUseResult) ? asArray(toolUseResult.structuredPatch) : undefined;
  if (hunks === undefined || hunks.length === 0) return undefined;
  const out: string[] = [`--- ${path ?? ''}`, `+++ ${path ?? ''}`];
  for (const h of hunks) {
    if (!isObject(h)) return undefined;
    const lines = asArray(h.lines);
    if (lines === undefined || !lines.every((l) => typeof l === 'string')) return undefined;
    out.push(
      `@@ -${num(h, 'oldStart') ?? 0},${num(h, 'oldLines') ?? 0} +${num(h, 'newStart') ?? 0},${num(h, 'newLines') ?? 0} @@`,
      ...(lines as string[]),
    );
  }
  return clipInput(out.join('\n'));
}

/** The output of a result at `full` detail, clipped to its first and last 2 KiB. */
export function resultOutput(block: JsonObject): string {
  return clipOutput(resultText(block.content));
}
