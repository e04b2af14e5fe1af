// Writes Intendant session folders for tests, in the documented shapes (research/intendant.md §1):
// pretty meta, one compact LogEvent per line, sidecars appended with a "\n" separator and
// referenced by byte span. There are no real Intendant logs in the corpus, so these are the fixtures.
import { appendFile, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface Span {
  file: string;
  offset: number;
  len: number;
}

function pad3(n: number): string {
  return String(n).padStart(3, '0');
}

/** `HH:MM:SS.mmm` of an epoch ms, in UTC (tests run with TZ=UTC semantics). */
export function tod(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}`;
}

export class FixtureSession {
  private readonly lines: string[] = [];
  private messageIds = 0;

  private constructor(
    readonly home: string,
    readonly id: string,
    readonly dir: string,
  ) {}

  /** Creates `<home>/logs/<id>/turns/` and, unless `meta` is null, a pretty `session_meta.json`. */
  static async create(home: string, id: string, meta: Record<string, unknown> | null = {}): Promise<FixtureSession> {
    const dir = join(home, 'logs', id);
    await mkdir(join(dir, 'turns'), { recursive: true });
    if (meta !== null) await writeFile(join(dir, 'session_meta.json'), JSON.stringify({ session_id: id, ...meta }, null, 2));
    return new FixtureSession(home, id, dir);
  }

  /** A line exactly as given (the notes' example lines, torn tails, garbage). */
  raw(line: string): this {
    this.lines.push(line);
    return this;
  }

  /** One LogEvent; pass fields in wire order (`ts`, `ts_ms`, `turn`, `event`, …). */
  row(event: Record<string, unknown>): this {
    this.lines.push(JSON.stringify(event));
    return this;
  }

  /** Appends to a sidecar as the writer does and returns the span of the content. */
  async sidecar(rel: string, content: string): Promise<Span> {
    const path = join(this.dir, rel);
    let size = 0;
    try {
      size = (await stat(path)).size;
    } catch {
      size = 0;
    }
    const sep = size > 0 ? '\n' : '';
    await appendFile(path, sep + content);
    return { file: rel, offset: size + sep.length, len: Buffer.byteLength(content) };
  }

  nextMessageId(): string {
    this.messageIds++;
    return `00000000-0000-4000-8000-${String(this.messageIds).padStart(12, '0')}`;
  }

  /** A user row of the message lane. */
  laneUser(ms: number, seq: number, text: string, opts: { turn?: number; provenance?: string; refSeq?: number } = {}): this {
    const data: Record<string, unknown> = {
      message_id: this.nextMessageId(),
      message_seq: seq,
      provenance: opts.provenance ?? 'task',
      role: 'user',
      text,
    };
    if (opts.refSeq !== undefined) data.ref_seq = opts.refSeq;
    return this.row({
      ts: tod(ms),
      ts_ms: ms,
      ...(opts.turn !== undefined ? { turn: opts.turn } : {}),
      event: 'conversation_message',
      level: 'info',
      message: text.slice(0, 200),
      data,
    });
  }

  /** `model_response_with_message`: the sidecar span, the diagnostic row, the canonical row. */
  async laneAssistant(
    ms: number,
    turn: number,
    seq: number,
    text: string,
    tokens = { prompt: 100, completion: 10, cached: 0, cache_creation: 0 },
  ): Promise<Span> {
    const span = await this.sidecar(`turns/turn_${pad3(turn)}_model.txt`, text);
    const total = tokens.prompt + tokens.completion;
    this.row({
      ts: tod(ms),
      ts_ms: ms,
      turn,
      event: 'model_response',
      level: 'info',
      message: text.slice(0, 200),
      data: { content_length: span.len, model_bytes: span.len, model_offset: span.offset, tokens: { ...tokens, total } },
      file: span.file,
    });
    this.row({
      ts: tod(ms + 1),
      ts_ms: ms + 1,
      turn,
      event: 'conversation_message',
      level: 'info',
      message: text.slice(0, 200),
      data: {
        message_id: this.nextMessageId(),
        message_seq: seq,
        model_bytes: span.len,
        model_offset: span.offset,
        provenance: 'assistant',
        role: 'assistant',
      },
      file: span.file,
    });
    return span;
  }

  /** A pre-lane `model_response` (with a span unless `spanless`); `ts_ms` omitted when `ms` is a string. */
  async legacyModel(
    when: number | string,
    turn: number,
    text: string,
    opts: { spanless?: boolean; tokens?: Record<string, number> } = {},
  ): Promise<Span> {
    const span = await this.sidecar(`turns/turn_${pad3(turn)}_model.txt`, text);
    const data: Record<string, unknown> = {
      content_length: span.len,
      tokens: opts.tokens ?? { cache_creation: 0, cached: 0, completion: 5, prompt: 50, total: 55 },
    };
    if (opts.spanless !== true) {
      data.model_bytes = span.len;
      data.model_offset = span.offset;
    }
    this.row({ ...stamp(when), turn, event: 'model_response', level: 'info', message: text.slice(0, 200), data, file: span.file });
    return span;
  }

  /** `agent_input`: the pretty batch in `turn_NNN_agent_in.json` and the row naming its functions. */
  async agentInput(ms: number, turn: number, commands: Record<string, unknown>[]): Promise<void> {
    const json = JSON.stringify({ commands });
    const file = `turns/turn_${pad3(turn)}_agent_in.json`;
    await writeFile(join(this.dir, file), JSON.stringify({ commands }, null, 2));
    const functions = commands.map((c) => c.function);
    this.row({
      ts: tod(ms),
      ts_ms: ms,
      turn,
      event: 'agent_input',
      level: 'info',
      message: `Commands: ${functions.join(', ')}`,
      data: { functions, json_length: json.length },
      file,
    });
  }

  /** `agent_output`: stdout/stderr appended to the turn's sidecars, referenced by span. */
  async agentOutput(ms: number, turn: number, stdout: string, stderr = '', extra: Record<string, unknown> = {}): Promise<void> {
    const data: Record<string, unknown> = { stdout_length: Buffer.byteLength(stdout), stderr_length: Buffer.byteLength(stderr), ...extra };
    const row: Record<string, unknown> = {
      ts: tod(ms),
      ts_ms: ms,
      turn,
      event: 'agent_output',
      level: stderr === '' ? 'info' : 'warn',
      message: stdout === '' && stderr === '' ? '(no output)' : stdout.slice(0, 200),
    };
    let file: string | undefined;
    let file2: string | undefined;
    if (stdout !== '') {
      const s = await this.sidecar(`turns/turn_${pad3(turn)}_stdout.txt`, stdout);
      data.stdout_offset = s.offset;
      data.stdout_bytes = s.len;
      file = s.file;
    }
    if (stderr !== '') {
      const s = await this.sidecar(`turns/turn_${pad3(turn)}_stderr.txt`, stderr);
      data.stderr_offset = s.offset;
      data.stderr_bytes = s.len;
      file2 = s.file;
    }
    row.data = data;
    if (file !== undefined) row.file = file;
    if (file2 !== undefined) row.file2 = file2;
    this.row(row);
  }

  relationship(ms: number, parent: string, child: string, relationship = 'subagent'): this {
    return this.row({
      ts: tod(ms),
      ts_ms: ms,
      event: 'session_relationship',
      level: 'info',
      message: `Session relationship: ${parent} -> ${child} (${relationship})`,
      data: { parent_session_id: parent, child_session_id: child, relationship, ephemeral: false },
    });
  }

  async save(tail = ''): Promise<string> {
    const path = join(this.dir, 'session.jsonl');
    await writeFile(path, this.lines.map((l) => `${l}\n`).join('') + tail);
    return path;
  }
}

/** `ts` + `ts_ms` for a number; `ts` alone for a legacy time-of-day string. */
export function stamp(when: number | string): Record<string, unknown> {
  return typeof when === 'string' ? { ts: when } : { ts: tod(when), ts_ms: when };
}

/** The runtime's protocol line for one command's result (its `data` is a JSON string). */
export function runtimeLine(nonce: number, result: Record<string, unknown>): string {
  return JSON.stringify({ type: 'result', nonce, data: JSON.stringify(result) });
}
