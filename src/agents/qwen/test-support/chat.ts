// Builds small Qwen Code chat files for tests, in the shape Qwen Code's ChatRecordingService writes:
// one `ChatRecord` per line, chained by uuid/parentUuid, `message` as Gemini `Content`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type QwenLine = Record<string, unknown>;

export const t0 = Date.parse('2026-05-02T10:00:00.000Z');
export const iso = (s: number): string => new Date(t0 + s * 1000).toISOString();

/** Writes records in order, each chained to the one before unless it names its own parent. */
export class Chat {
  readonly lines: QwenLine[] = [];
  private tail: string | null = null;

  constructor(
    readonly sessionId: string,
    readonly cwd = '/work/app',
    public version = '0.2.1',
  ) {}

  /** The uuid of the last record on the active tail. */
  get last(): string | null {
    return this.tail;
  }

  /** Appends a record; `parent` overrides the chain (a rewind), `keepTail` leaves the tail where it was (anchors). */
  add(uuid: string, s: number, type: string, body: QwenLine, opts: { parent?: string | null; keepTail?: boolean } = {}): this {
    const parentUuid = opts.parent === undefined ? this.tail : opts.parent;
    this.lines.push({
      uuid,
      parentUuid,
      sessionId: this.sessionId,
      timestamp: iso(s),
      type,
      cwd: this.cwd,
      version: this.version,
      gitBranch: 'main',
      ...body,
    });
    if (opts.keepTail !== true) this.tail = uuid;
    return this;
  }

  user(uuid: string, s: number, text: string, opts: { display?: string; parent?: string | null; subtype?: string } = {}): this {
    const body: QwenLine = { message: { role: 'user', parts: [{ text }] } };
    if (opts.display !== undefined) body['systemPayload'] = { displayText: opts.display, hookContext: '' };
    if (opts.subtype !== undefined) body['subtype'] = opts.subtype;
    return this.add(uuid, s, 'user', body, opts.parent === undefined ? {} : { parent: opts.parent });
  }

  assistant(
    uuid: string,
    s: number,
    parts: QwenLine[],
    usage: QwenLine = {
      promptTokenCount: 1000,
      candidatesTokenCount: 50,
      totalTokenCount: 1050,
      cachedContentTokenCount: 400,
      thoughtsTokenCount: 0,
    },
    model = 'qwen3-coder-plus',
  ): this {
    return this.add(uuid, s, 'assistant', { model, message: { role: 'model', parts }, usageMetadata: usage, contextWindowSize: 1_000_000 });
  }

  toolResult(uuid: string, s: number, callId: string, name: string, response: QwenLine, status: string, resultDisplay?: unknown): this {
    const toolCallResult: QwenLine = { callId, status, responseParts: [{ functionResponse: { id: callId, name, response } }] };
    if (resultDisplay !== undefined) toolCallResult['resultDisplay'] = resultDisplay;
    return this.add(uuid, s, 'tool_result', {
      message: { role: 'user', parts: [{ functionResponse: { id: callId, name, response } }] },
      toolCallResult,
    });
  }

  system(uuid: string, s: number, subtype: string, payload: QwenLine, opts: { keepTail?: boolean; parent?: string | null } = {}): this {
    return this.add(uuid, s, 'system', { subtype, systemPayload: payload }, opts);
  }

  text(): string {
    return this.lines.map((l) => `${JSON.stringify(l)}\n`).join('');
  }
}

export const say = (text: string): QwenLine => ({ text });
export const think = (text: string): QwenLine => ({ text, thought: true });
export const callPart = (id: string, name: string, args: QwenLine): QwenLine => ({ functionCall: { id, name, args } });

/** The chats folder of a working directory under a Qwen Code home, as Qwen Code names it. */
export function chatsDir(home: string, cwd = '/work/app'): string {
  return join(home, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'), 'chats');
}

/** Writes `<home>/projects/<cwd>/chats/<session id>.jsonl` and returns its path. */
export async function writeChat(home: string, chat: Chat): Promise<string> {
  const dir = chatsDir(home, chat.cwd);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${chat.sessionId}.jsonl`);
  await writeFile(path, chat.text());
  return path;
}
