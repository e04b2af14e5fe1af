// Small Codex rollouts for tests, written line by line the way Codex writes them, into a temporary
// home laid out as Codex lays out its own (`.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

type Json = Record<string, unknown>;

export class Rollout {
  private readonly lines: string[] = [];
  private clock: number;

  constructor(
    readonly id: string,
    start = '2026-10-01T09:00:00.000Z',
  ) {
    this.clock = Date.parse(start);
  }

  /** The next line's timestamp: one second after the last. */
  private tick(): string {
    const at = new Date(this.clock).toISOString();
    this.clock += 1000;
    return at;
  }

  line(type: string, payload: Json, extra: Json = {}): this {
    this.lines.push(JSON.stringify({ timestamp: this.tick(), ...extra, type, payload }));
    return this;
  }

  raw(text: string): this {
    this.lines.push(text);
    return this;
  }

  meta(extra: Json = {}): this {
    return this.line('session_meta', {
      id: this.id,
      timestamp: new Date(this.clock).toISOString(),
      cwd: '/work/demo',
      originator: 'codex_cli_rs',
      cli_version: '0.104.0',
      source: 'cli',
      git: { branch: 'main', commit_hash: 'abc' },
      ...extra,
    });
  }

  turnContext(model = 'gpt-5-codex', cwd = '/work/demo'): this {
    return this.line('turn_context', { cwd, model, approval_policy: 'on-request' });
  }

  user(...texts: string[]): this {
    return this.line('response_item', { type: 'message', role: 'user', content: texts.map((text) => ({ type: 'input_text', text })) });
  }

  userWithKinds(parts: { text: string; kind: string }[]): this {
    return this.line('response_item', {
      type: 'message',
      role: 'user',
      content: parts.map((p) => ({ type: 'input_text', text: p.text })),
      internal_chat_message_metadata_passthrough: { turn_id: 't1', content_item_kinds: parts.map((p) => p.kind) },
    });
  }

  userEvent(message: string): this {
    return this.line('event_msg', { type: 'user_message', message, images: [], local_images: [], text_elements: [] });
  }

  developer(text: string): this {
    return this.line('response_item', { type: 'message', role: 'developer', content: [{ type: 'input_text', text }] });
  }

  assistant(text: string, phase = 'final_answer'): this {
    return this.line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }], phase });
  }

  agentMessageEvent(message: string): this {
    return this.line('event_msg', { type: 'agent_message', message });
  }

  reasoning(summary: string[], encrypted = 'gAAAAABsecret'): this {
    return this.line('response_item', {
      type: 'reasoning',
      summary: summary.map((text) => ({ type: 'summary_text', text })),
      content: null,
      encrypted_content: encrypted,
    });
  }

  reasoningEvent(text: string): this {
    return this.line('event_msg', { type: 'agent_reasoning', text });
  }

  functionCall(name: string, args: unknown, callId: string, extra: Json = {}): this {
    return this.line('response_item', {
      type: 'function_call',
      name,
      arguments: typeof args === 'string' ? args : JSON.stringify(args),
      call_id: callId,
      ...extra,
    });
  }

  functionOutput(callId: string, output: unknown): this {
    return this.line('response_item', { type: 'function_call_output', call_id: callId, output });
  }

  customCall(name: string, input: string, callId: string): this {
    return this.line('response_item', { type: 'custom_tool_call', status: 'completed', call_id: callId, name, input });
  }

  customOutput(callId: string, output: unknown): this {
    return this.line('response_item', { type: 'custom_tool_call_output', call_id: callId, output });
  }

  tokens(input: number, cached: number, output: number, reasoning: number): this {
    const usage = {
      input_tokens: input,
      cached_input_tokens: cached,
      output_tokens: output,
      reasoning_output_tokens: reasoning,
      total_tokens: input + output,
    };
    return this.line('event_msg', {
      type: 'token_count',
      info: { total_token_usage: usage, last_token_usage: usage, model_context_window: 258400 },
      rate_limits: null,
    });
  }

  event(type: string, payload: Json = {}): this {
    return this.line('event_msg', { type, ...payload });
  }

  text(): string {
    return this.lines.length === 0 ? '' : `${this.lines.join('\n')}\n`;
  }
}

/** The file name Codex gives a rollout started at `start` (`2026-10-01T09:00:00`). */
export function rolloutName(id: string, start = '2026-10-01T09-00-00'): string {
  return `rollout-${start}-${id}.jsonl`;
}

/** Writes `body` as `<codexHome>/<dir>/2026/10/01/rollout-…-<id>.jsonl` and returns its path. */
export async function writeRollout(
  codexHome: string,
  id: string,
  body: string | Rollout,
  dir: 'sessions' | 'archived_sessions' = 'sessions',
  day = '2026/10/01',
): Promise<string> {
  const folder = join(codexHome, dir, ...day.split('/'));
  await mkdir(folder, { recursive: true });
  const path = join(folder, rolloutName(id));
  await writeFile(path, typeof body === 'string' ? body : body.text());
  return path;
}
