// The native conversation serialised to `conversation.jsonl` for resume: one message per line,
// each with a per-conversation `seq` handed out at append time, monotonic and never reused (a
// rewind drops messages but never rewinds the counter).
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { forEachLine } from '../fs/read-lines.js';
import { hash16 } from '../fs/hash.js';
import { SessionLogError } from './errors.js';
import { jsonErrorOffset } from './json-error.js';
import { describeProblem, type LineProblem } from './line-problem.js';
import { files } from './paths.js';
import { writeFileAtomicSync } from '../fs/atomic-write.js';

/** Where a message came from; decides whether it enters the message lane (seed "The message lane"). */
export const provenances = [
  'task',
  'resume_task',
  'follow_up',
  'steer',
  'ask_human_answer',
  'system_injection',
  'tool_output',
  'context_summary',
  'assistant',
  'unknown',
] as const;
export type Provenance = (typeof provenances)[number];

/** The provenances a person authored: the only user-side messages the lane records. */
export const userProvenances = ['task', 'resume_task', 'follow_up', 'steer', 'ask_human_answer'] as const;
export type UserProvenance = (typeof userProvenances)[number];

const toolCallSchema = z.looseObject({ id: z.string(), call_id: z.string().optional(), name: z.string(), arguments: z.string() });

export const messageSchema = z.looseObject({
  role: z.string(),
  content: z.string(),
  tool_calls: z.array(toolCallSchema).optional(),
  tool_call_id: z.string().optional(),
  tool_name: z.string().optional(),
  /** Omitted for `unknown` (legacy files). */
  provenance: z.string().optional(),
  /** Omitted (or 0) in legacy files written before seqs existed. */
  seq: z.number().int().nonnegative().optional(),
});
export type Message = z.infer<typeof messageSchema>;
export type ToolCallRef = z.infer<typeof toolCallSchema>;

/** One `[seq, role, hash16(content)]` row of a `conversation_message_epoch` mapping. */
export type EpochRow = [number, string, string];

export class Conversation {
  private items: Message[];
  private next: number;

  constructor(messages: Message[] = [], nextSeq?: number) {
    this.items = messages;
    const highest = messages.reduce((m, msg) => Math.max(m, msg.seq ?? 0), 0);
    this.next = Math.max(highest + 1, nextSeq ?? 1);
  }

  get messages(): readonly Message[] {
    return this.items;
  }

  /** The seq the next appended message gets. */
  get nextSeq(): number {
    return this.next;
  }

  /** Hands out a seq without a message (a projection row that references another message). */
  reserveSeq(): number {
    return this.next++;
  }

  /** Never lowers the counter: used on resume with high-water marks the file may not show. */
  raiseNextSeq(atLeast: number): void {
    if (atLeast > this.next) this.next = atLeast;
  }

  private push(msg: {
    role: string;
    content: string;
    provenance: Provenance;
    tool_calls?: ToolCallRef[];
    tool_call_id?: string;
    tool_name?: string;
  }): number {
    const seq = this.reserveSeq();
    this.items.push({ ...msg, seq });
    return seq;
  }

  addSystem(content: string): number {
    return this.push({ role: 'system', content, provenance: 'system_injection' });
  }

  addUser(provenance: Provenance, content: string): number {
    return this.push({ role: 'user', content, provenance });
  }

  addAssistant(content: string, toolCalls?: ToolCallRef[]): number {
    return this.push(
      toolCalls !== undefined && toolCalls.length > 0
        ? { role: 'assistant', content, tool_calls: toolCalls, provenance: 'assistant' }
        : { role: 'assistant', content, provenance: 'assistant' },
    );
  }

  addToolResult(callId: string, name: string, output: string): number {
    return this.push({ role: 'tool', content: output, tool_call_id: callId, tool_name: name, provenance: 'tool_output' });
  }

  /** Drops every message with seq > `cutAfterSeq`; returns how many went. The counter stays. */
  truncateAfter(cutAfterSeq: number): number {
    const before = this.items.length;
    this.items = this.items.filter((m) => (m.seq ?? 0) <= cutAfterSeq);
    return before - this.items.length;
  }

  /**
   * The resume-time epoch pass: when any message has no seq (a legacy file), renumbers every
   * message 1..N and returns the mapping for the epoch marker. Null (no change) when all are
   * assigned: renumbering a new-era file would break the log's references to its seqs.
   */
  ensureSeqsAssigned(): EpochRow[] | null {
    if (this.items.every((m) => (m.seq ?? 0) > 0)) return null;
    this.items = this.items.map((m, i) => ({ ...m, seq: i + 1 }));
    this.next = this.items.length + 1;
    return this.items.map((m) => [m.seq as number, m.role, hash16(m.content)]);
  }

  /** The file body: one compact message per line; `seq` 0 and provenance `unknown` omitted. */
  serialise(): string {
    return this.items
      .map((m) => {
        const out: Record<string, unknown> = { ...m };
        if (out.provenance === 'unknown') delete out.provenance;
        if (out.seq === 0) delete out.seq;
        return `${JSON.stringify(out)}\n`;
      })
      .join('');
  }
}

export interface LoadedConversation {
  conversation: Conversation;
  /** Lines that were skipped (only in tolerant mode; otherwise the first one is thrown). */
  problems: LineProblem[];
}

/**
 * Reads `conversation.jsonl` (a session folder names its own). A line that is not a message is a CorruptConversation error naming
 * file and line, unless `tolerant` is set, when it is skipped and listed in `problems`.
 */
export async function loadConversation(
  pathOrDir: string,
  opts: { tolerant?: boolean; nextSeq?: number } = {},
): Promise<LoadedConversation> {
  let path: string;
  try {
    path = (await stat(pathOrDir)).isDirectory() ? join(pathOrDir, files.conversation) : pathOrDir;
  } catch (error) {
    throw new SessionLogError('SessionNotFound', `${pathOrDir} does not exist; there is no conversation to resume`, { cause: error });
  }
  const messages: Message[] = [];
  const problems: LineProblem[] = [];
  let line = 0;
  await forEachLine(path, (text) => {
    line++;
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      problems.push({ file: path, line, reason: `not valid JSON at column ${(jsonErrorOffset(text) ?? 0) + 1}` });
      return;
    }
    const parsed = messageSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      problems.push({ file: path, line, reason: `not a message (${issue?.path.join('.') || 'line'}: ${issue?.message ?? 'invalid'})` });
      return;
    }
    messages.push(parsed.data);
  });
  const first = problems[0];
  if (first !== undefined && opts.tolerant !== true) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more bad lines)` : '';
    throw new SessionLogError(
      'CorruptConversation',
      `${describeProblem(first)}${more}; repair or remove the line, or load with { tolerant: true } to skip it`,
    );
  }
  return { conversation: new Conversation(messages, opts.nextSeq), problems };
}

/** Writes the conversation atomically (a crash mid-save leaves the previous file whole). */
export function saveConversation(path: string, conversation: Conversation): void {
  writeFileAtomicSync(path, conversation.serialise());
}
