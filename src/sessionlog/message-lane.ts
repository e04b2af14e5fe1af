// The message lane: canonical `conversation_message` rows for what was actually said, the
// assistant side sharing one sidecar span with its diagnostic `model_response` row, plus the
// `conversation_rewound` cut and the `conversation_message_epoch` cutover marker (seed "The
// message lane (conversation_message)"; research §1.5).
import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../json/narrow.js';
import { userProvenances, type EpochRow, type ToolCallRef, type UserProvenance } from './conversation.js';
import { SessionLogError } from './errors.js';
import { preview } from './log-event.js';
import { turnFile } from './paths.js';
import type { SessionCore } from './session-core.js';
import { appendSpan, type Span } from './sidecar.js';

export interface Tokens {
  prompt: number;
  completion: number;
  total: number;
  cached: number;
  cache_creation: number;
}

export interface Attachment {
  upload_id: string;
  name: string;
  mime: string;
  url: string;
}

export interface UserMessageInput {
  provenance: UserProvenance;
  /** The RAW text the person wrote: no `[Session resumed]` wrapper, no attachment prelude. */
  text: string;
  /** What enters the conversation when it differs from `text` (the wrapped form). */
  content?: string;
  attachments?: Attachment[];
  /**
   * A projection: the text already entered the conversation inside another message (an askHuman
   * answer delivered as a tool result) whose seq this names, so rewind cuts cover it.
   */
  refSeq?: number;
}

export interface ModelResponseInput {
  content: string;
  tokens?: Partial<Tokens>;
  /** Tool calls that came with the text (kept in the conversation; names listed on the row). */
  toolCalls?: ToolCallRef[];
  model?: string;
}

export interface MirroredResponseInput {
  content: string;
  tokens?: Partial<Tokens>;
  /** The backend whose message this mirrors (`codex`, `claude-code`…). */
  source?: string;
  /** The session this row mirrors, when it is not this log's own. */
  sessionId?: string;
  model?: string;
}

export interface LaneResult {
  seq: number;
  messageId: string;
}

function fullTokens(t: Partial<Tokens> | undefined): Tokens {
  const prompt = t?.prompt ?? 0;
  const completion = t?.completion ?? 0;
  return { prompt, completion, total: t?.total ?? prompt + completion, cached: t?.cached ?? 0, cache_creation: t?.cache_creation ?? 0 };
}

function checkSeq(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 0)
    throw new SessionLogError('InvalidArgument', `${what} must be a whole number ≥ 0, got ${value}`);
}

/** Writes the sidecar span and the diagnostic `model_response` row; returns the span. */
function modelResponseRow(core: SessionCore, input: MirroredResponseInput & { toolNames?: string[] }): Span | null {
  const tokens = fullTokens(input.tokens);
  const rel = turnFile(core.turn, 'model.txt');
  const span = input.content === '' ? null : core.sidecar(rel, () => appendSpan(core.dir, rel, input.content));
  const data: Record<string, unknown> = { tokens, content_length: Buffer.byteLength(input.content, 'utf8') };
  if (span !== null) {
    data.model_offset = span.offset;
    data.model_bytes = span.bytes;
  }
  if (input.model !== undefined) data.model = input.model;
  if (input.toolNames !== undefined && input.toolNames.length > 0) data.tool_calls = input.toolNames;
  if (input.source !== undefined) data.source = input.source;
  if (input.sessionId !== undefined && input.sessionId.trim() !== '') data.session_id = input.sessionId.trim();
  const row = core.emit({
    event: 'model_response',
    level: 'info',
    message: preview(input.content),
    data,
    ...(span !== null ? { file: span.file } : {}),
  });
  core.stats.modelTurns++;
  core.stats.totalTokens += tokens.total;
  if (input.content !== '') {
    core.appendTranscript({
      ts: row.ts,
      ts_ms: row.ts_ms as number,
      role: 'model',
      text: input.content,
      ...(input.toolNames !== undefined && input.toolNames.length > 0 ? { tools_called: input.toolNames } : {}),
    });
  }
  return span;
}

/** A plain diagnostic response row (wrapper sessions mirroring a backend): never a lane row. */
export function writeModelResponse(core: SessionCore, input: MirroredResponseInput): Span | null {
  return modelResponseRow(core, input);
}

/**
 * The combined assistant op: appends the message to the conversation, writes the sidecar span,
 * the `model_response` row, then the canonical `conversation_message` referencing the same bytes.
 * With empty content only the diagnostic row is written (there is nothing said to record).
 */
export function writeModelResponseWithMessage(core: SessionCore, input: ModelResponseInput): LaneResult & { span: Span | null } {
  core.assertOpen();
  const seq = core.conversation.addAssistant(input.content, input.toolCalls);
  const toolNames = input.toolCalls?.map((c) => c.name);
  const span = modelResponseRow(core, {
    content: input.content,
    ...(input.tokens ? { tokens: input.tokens } : {}),
    ...(input.model ? { model: input.model } : {}),
    ...(toolNames ? { toolNames } : {}),
  });
  const messageId = randomUUID();
  if (span !== null) {
    core.emit({
      event: 'conversation_message',
      level: 'info',
      message: preview(input.content),
      data: {
        message_id: messageId,
        message_seq: seq,
        model_bytes: span.bytes,
        model_offset: span.offset,
        provenance: 'assistant',
        role: 'assistant',
      },
      file: span.file,
    });
  }
  return { seq, messageId, span };
}

function checkAttachment(a: Attachment, i: number): Attachment {
  for (const key of ['upload_id', 'name', 'mime', 'url'] as const) {
    if (typeof a[key] !== 'string') throw new SessionLogError('InvalidArgument', `attachments[${i}].${key} must be a string`);
  }
  return { upload_id: a.upload_id, name: a.name, mime: a.mime, url: a.url };
}

/** The user side: one canonical row per genuine entry (task, resume, follow-up, steer, askHuman answer). */
export function writeUserMessage(core: SessionCore, input: UserMessageInput): LaneResult {
  core.assertOpen();
  if (!(userProvenances as readonly string[]).includes(input.provenance)) {
    throw new SessionLogError(
      'InvalidArgument',
      `user message provenance must be one of ${userProvenances.join(', ')}, got ${JSON.stringify(input.provenance)}`,
    );
  }
  const attachments = (input.attachments ?? []).map(checkAttachment);
  let seq: number;
  if (input.refSeq !== undefined) {
    checkSeq(input.refSeq, 'refSeq');
    seq = core.conversation.reserveSeq();
  } else {
    seq = core.conversation.addUser(input.provenance, input.content ?? input.text);
  }
  const messageId = randomUUID();
  // Keys in alphabetical order, as the original's rows have them; `attachments` only when non-empty.
  const data: Record<string, unknown> = {};
  if (attachments.length > 0) data.attachments = attachments;
  data.message_id = messageId;
  data.message_seq = seq;
  data.provenance = input.provenance;
  if (input.refSeq !== undefined) data.ref_seq = input.refSeq;
  data.role = 'user';
  data.text = input.text;
  const row = core.emit({ event: 'conversation_message', level: 'info', message: preview(input.text), data });
  core.appendTranscript({ ts: row.ts, ts_ms: row.ts_ms as number, role: 'user', text: input.text });
  return { seq, messageId };
}

/**
 * Marks every message after `cutAfterSeq` superseded (a tail rollback) and drops them from the
 * owned conversation. The seq counter is not rewound, so the cut stays unambiguous.
 */
export function writeConversationRewound(core: SessionCore, cutAfterSeq: number, kind: string): number {
  core.assertOpen();
  checkSeq(cutAfterSeq, 'cutAfterSeq');
  const removed = core.conversation.truncateAfter(cutAfterSeq);
  const ms = core.now();
  const data: JsonObject = { cut_after_seq: cutAfterSeq, kind, superseded_at_ms: ms };
  core.emit(
    {
      event: 'conversation_rewound',
      level: 'info',
      message: `Conversation rewound (${kind}): messages after seq ${cutAfterSeq} superseded`,
      data,
    },
    ms,
  );
  return removed;
}

/** The cutover marker written once when a legacy conversation got its seqs on resume. */
export function writeEpoch(core: SessionCore, mapping: EpochRow[]): void {
  core.emit({
    event: 'conversation_message_epoch',
    level: 'info',
    message: `Assigned seqs to ${mapping.length} legacy conversation messages`,
    data: { mapping },
    turn: null,
  });
}
