// Rows about the work of a turn: reasoning in the clear, the commands sent to the runtime
// (`agent_input`, a pretty sidecar per turn), what the runtime printed (`agent_output`, stdout
// and stderr spans; a stderr file only when there was stderr) and approval decisions.
import { asObject, type JsonObject } from '../json/narrow.js';
import { preview } from './log-event.js';
import { turnFile } from './paths.js';
import type { SessionCore } from './session-core.js';
import { appendSpan, writeSidecar } from './sidecar.js';

export interface ReasoningInput {
  /** A short summary the provider gave (becomes the row's message). */
  summary?: string;
  /** The full reasoning text, appended to `turns/turn_NNN_reasoning.txt`. */
  content?: string;
}

export function writeReasoning(core: SessionCore, input: ReasoningInput): void {
  const data: Record<string, unknown> = {
    has_summary: input.summary !== undefined,
    has_full_content: input.content !== undefined,
    full_content_length: input.content === undefined ? 0 : Buffer.byteLength(input.content, 'utf8'),
  };
  let file: string | undefined;
  if (input.content !== undefined && input.content !== '') {
    const rel = turnFile(core.turn, 'reasoning.txt');
    const content = input.content;
    const span = core.sidecar(rel, () => appendSpan(core.dir, rel, content));
    // The original kept no span here; with several reasoning blocks per turn the span is what
    // lets a reader return exactly this one.
    data.reasoning_offset = span.offset;
    data.reasoning_bytes = span.bytes;
    file = rel;
  }
  core.emit({
    event: 'reasoning',
    level: 'info',
    ...(input.summary !== undefined ? { message: input.summary } : {}),
    data,
    ...(file !== undefined ? { file } : {}),
  });
}

/** Function names of a `{commands: [{function: …}]}` batch. */
function functionNames(parsed: unknown): string[] {
  const commands = asObject(parsed)?.commands;
  if (!Array.isArray(commands)) return [];
  return commands.map((c) => asObject(c)?.function).filter((f): f is string => typeof f === 'string');
}

/** The commands sent to the runtime this turn: `turns/turn_NNN_agent_in.json`, pretty-printed. */
export function writeAgentInput(core: SessionCore, commands: string | JsonObject): void {
  const json = typeof commands === 'string' ? commands : JSON.stringify(commands);
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    parsed = undefined;
  }
  const pretty = parsed === undefined ? json : JSON.stringify(parsed, null, 2);
  const rel = turnFile(core.turn, 'agent_in.json');
  core.sidecar(rel, () => writeSidecar(core.dir, rel, pretty));
  const functions = functionNames(parsed);
  core.emit({
    event: 'agent_input',
    level: 'info',
    message: `Commands: ${functions.join(', ')}`,
    data: { functions, json_length: Buffer.byteLength(json, 'utf8') },
    file: rel,
  });
}

export interface AgentOutputInput {
  stdout: string;
  stderr?: string;
  source?: string;
  outputId?: string;
  itemId?: string;
  /** The session this output belongs to when the row mirrors another session. */
  sessionId?: string;
}

export function writeAgentOutput(core: SessionCore, input: AgentOutputInput): void {
  const stderr = input.stderr ?? '';
  const outRel = turnFile(core.turn, 'stdout.txt');
  const errRel = turnFile(core.turn, 'stderr.txt');
  const out = input.stdout === '' ? null : core.sidecar(outRel, () => appendSpan(core.dir, outRel, input.stdout));
  const err = stderr === '' ? null : core.sidecar(errRel, () => appendSpan(core.dir, errRel, stderr));
  const data: Record<string, unknown> = {
    stdout_length: Buffer.byteLength(input.stdout, 'utf8'),
    stderr_length: Buffer.byteLength(stderr, 'utf8'),
  };
  if (input.outputId !== undefined) data.output_id = input.outputId;
  if (input.itemId !== undefined && input.itemId.trim() !== '') data.item_id = input.itemId.trim();
  if (input.source !== undefined) data.source = input.source;
  if (input.sessionId !== undefined && input.sessionId.trim() !== '') data.session_id = input.sessionId.trim();
  if (out !== null) {
    data.stdout_offset = out.offset;
    data.stdout_bytes = out.bytes;
  }
  if (err !== null) {
    data.stderr_offset = err.offset;
    data.stderr_bytes = err.bytes;
  }
  core.emit({
    event: 'agent_output',
    level: stderr === '' ? 'info' : 'warn',
    message: input.stdout === '' && stderr === '' ? '(no output)' : preview(input.stdout),
    data,
    ...(out !== null ? { file: out.file } : {}),
    ...(err !== null ? { file2: err.file } : {}),
  });
}

/** An approval decision (`approved`, `denied`, `waiting`…) on an action of a category. */
export function writeApproval(core: SessionCore, category: string, actionPreview: string, decision: string): void {
  core.emit({
    event: 'approval',
    level: 'warn',
    message: `${actionPreview} -> ${decision}`,
    data: { category, decision, preview: actionPreview },
  });
}
