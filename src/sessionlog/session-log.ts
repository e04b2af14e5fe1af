// SessionLog: one session's self-contained log folder, written through typed methods (seed
// "Session Logging"). Open it, call the writers as the agent works, then `writeSummary` and
// `close`. Every write is one line flushed to the kernel before the method returns.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { JsonObject } from '../json/narrow.js';
import { localDateTime, parseLocalDateTime, systemClock, type Clock } from './clock.js';
import { writeContextSnapshot, type ContextSnapshotInput } from './context-snapshot.js';
import { Conversation, loadConversation, saveConversation } from './conversation.js';
import type { HeldLock } from '../fs/lock.js';
import { SessionLogError } from './errors.js';
import type { Level } from './log-event.js';
import {
  writeConversationRewound,
  writeEpoch,
  writeModelResponse,
  writeModelResponseWithMessage,
  writeUserMessage,
  type LaneResult,
  type MirroredResponseInput,
  type ModelResponseInput,
  type UserMessageInput,
} from './message-lane.js';
import { updateMetaSync, type SessionMeta } from './meta.js';
import { openSessionDir, type Fallback } from './open-dir.js';
import { files, logsRoot } from './paths.js';
import { readResumeState } from './resume-state.js';
import { RuntimeLog, type RuntimeStream } from './runtime-log.js';
import {
  writeAgentInput,
  writeAgentOutput,
  writeApproval,
  writeReasoning,
  type AgentOutputInput,
  type ReasoningInput,
} from './runtime-writers.js';
import { SessionCore } from './session-core.js';
import { normaliseName } from './session-name.js';
import type { Span } from './sidecar.js';
import { writeSummary, type SummaryInput } from './summary.js';
import { rebuildTranscript } from './transcript.js';

export interface Worktree {
  branch: string;
  path: string;
  base_root: string;
  base_branch?: string;
  base_sha?: string;
}

export interface OpenOptions {
  /** The state root: the session goes to `<stateRoot>/logs/<new uuid>/`. Give this or `dir`. */
  stateRoot?: string;
  /** An exact folder (new, or an existing session to resume). Give this or `stateRoot`. */
  dir?: string;
  projectRoot: string;
  task: string;
  /** A sub-agent role (`orchestrator`, `research`, `implementation`, `testing`); kept across reopenings unless given again. */
  role?: string | null;
  name?: string;
  clock?: Clock;
  /** Fail with OpenFailed instead of falling back to a private temporary folder. */
  strict?: boolean;
  /** Written as the `Provider:`/`Model:`/`Autonomy:` rows replay seeds its status from. */
  provider?: string;
  model?: string;
  autonomy?: string;
  worktree?: Worktree;
  /** Keep every context-snapshot sidecar instead of the latest per stream. */
  keepAllContextSnapshots?: boolean;
  /** Where a fallback folder is made (default: the OS temporary folder). */
  tmpRoot?: string;
}

export class SessionLog {
  private constructor(
    private readonly core: SessionCore,
    private readonly lock: HeldLock,
    /** Non-null when the requested folder failed and this session lives in a private temporary one. */
    readonly fallback: Fallback | null,
  ) {}

  /** Opens a new session, or reopens (resumes) the one in `dir`. */
  static async open(opts: OpenOptions): Promise<SessionLog> {
    if ((opts.stateRoot === undefined) === (opts.dir === undefined))
      throw new SessionLogError('InvalidArgument', 'SessionLog.open needs exactly one of stateRoot (new session) or dir (a given folder)');
    if (typeof opts.projectRoot !== 'string' || typeof opts.task !== 'string')
      throw new SessionLogError('InvalidArgument', 'SessionLog.open needs projectRoot and task strings');
    const clock = opts.clock ?? systemClock;
    const requested = opts.dir !== undefined ? resolve(opts.dir) : join(logsRoot(resolve(opts.stateRoot as string)), randomUUID());
    const { opened, fallback } = openSessionDir(requested, {
      ...(opts.strict !== undefined ? { strict: opts.strict } : {}),
      ...(opts.tmpRoot !== undefined ? { tmpRoot: opts.tmpRoot } : {}),
    });
    const { dir } = opened;
    const sessionId = opened.meta?.session_id ?? basename(requested);
    try {
      const state = await readResumeState(dir);
      const conversationPath = join(dir, files.conversation);
      const nextSeq = Math.max(opened.meta?.next_message_seq ?? 1, state.maxMessageSeq + 1);
      const conversation = existsSync(conversationPath)
        ? (await loadConversation(conversationPath, { nextSeq })).conversation
        : new Conversation([], nextSeq);
      const core = new SessionCore(
        dir,
        sessionId,
        opened.events,
        opened.transcript,
        clock,
        conversation,
        state.stats,
        state.snapshots,
        opts.keepAllContextSnapshots === true,
      );
      core.turn = state.lastTurn;
      const log = new SessionLog(core, opened.lock, fallback);
      const now = clock.now();
      updateMetaSync(
        dir,
        (current) => {
          const createdMs =
            current?.created_at_ms ?? (current?.created_at !== undefined ? parseLocalDateTime(current.created_at) : undefined) ?? now;
          const next: SessionMeta = {
            ...(current ?? {}),
            session_id: sessionId,
            created_at: localDateTime(now),
            created_at_ms: createdMs,
            project_root: opts.projectRoot,
            task: opts.task,
            status: 'running',
          };
          if (opts.name !== undefined) next.name = normaliseName(opts.name);
          if (opts.role !== undefined) next.role = opts.role;
          if (opts.worktree !== undefined) next.worktree = { ...opts.worktree };
          if (fallback !== null) next.fallback = { requested_dir: fallback.requestedDir, reason: fallback.reason, at_ms: now };
          return next;
        },
        now,
      );
      const resumed = state.rows > 0;
      core.emit(
        {
          event: 'session_start',
          level: 'info',
          message: `Session started at ${localDateTime(now, ' ')}`,
          data: resumed ? { session_id: sessionId, resumed: true } : { session_id: sessionId },
          turn: null,
        },
        now,
      );
      if (fallback !== null)
        core.emit({
          event: 'warn',
          level: 'warn',
          message: `Session log folder ${fallback.requestedDir} could not be opened (${fallback.reason}); this session is logged in ${dir}`,
        });
      if (opts.provider !== undefined) core.emit({ event: 'debug', level: 'debug', message: `Provider: ${opts.provider}` });
      if (opts.model !== undefined) core.emit({ event: 'debug', level: 'debug', message: `Model: ${opts.model}` });
      if (opts.autonomy !== undefined) core.emit({ event: 'debug', level: 'debug', message: `Autonomy: ${opts.autonomy}` });
      const mapping = conversation.ensureSeqsAssigned();
      if (mapping !== null) {
        writeEpoch(core, mapping);
        log.saveConversation();
      }
      return log;
    } catch (error) {
      opened.events.close();
      opened.transcript.close();
      opened.lock.release();
      throw error;
    }
  }

  get dir(): string {
    return this.core.dir;
  }

  get sessionId(): string {
    return this.core.sessionId;
  }

  get currentTurn(): number {
    return this.core.turn;
  }

  /** The conversation this log serialises to `conversation.jsonl` (seqs assigned on append). */
  get conversation(): Conversation {
    return this.core.conversation;
  }

  /** Environment for a runtime subprocess, naming the folder it must write its logs to. */
  runtimeEnv(): Record<string, string> {
    return { INTENDANT_LOG_DIR: this.core.dir };
  }

  turnStart(turn: number, opts: { budgetPct?: number; remainingTokens?: number } = {}): void {
    if (!Number.isInteger(turn) || turn < 0) throw new SessionLogError('InvalidArgument', `turn must be a whole number ≥ 0, got ${turn}`);
    this.core.assertOpen();
    this.core.turn = turn;
    const data: Record<string, unknown> = { budget_pct: opts.budgetPct ?? 0 };
    if (opts.remainingTokens !== undefined) data.remaining_tokens = opts.remainingTokens;
    this.core.emit({ event: 'turn_start', level: 'info', data, turn });
  }

  userMessage(input: UserMessageInput): LaneResult {
    return writeUserMessage(this.core, input);
  }

  modelResponseWithMessage(input: ModelResponseInput): LaneResult & { span: Span | null } {
    return writeModelResponseWithMessage(this.core, input);
  }

  /** A diagnostic response only (an external wrapper session mirroring its backend). */
  modelResponse(input: MirroredResponseInput): Span | null {
    return writeModelResponse(this.core, input);
  }

  reasoning(input: ReasoningInput): void {
    writeReasoning(this.core, input);
  }

  agentInput(commands: string | JsonObject): void {
    writeAgentInput(this.core, commands);
  }

  agentOutput(input: AgentOutputInput): void {
    writeAgentOutput(this.core, input);
  }

  approval(category: string, preview: string, decision: string): void {
    writeApproval(this.core, category, preview, decision);
  }

  private plain(level: Level, message: string, data?: JsonObject): void {
    const row = this.core.emit({ event: level, level, message, ...(data !== undefined ? { data } : {}) });
    if (level === 'error') this.core.stats.errors.push({ category: 'error', reason: message, ts: row.ts });
  }

  info(message: string, data?: JsonObject): void {
    this.plain('info', message, data);
  }

  warn(message: string, data?: JsonObject): void {
    this.plain('warn', message, data);
  }

  error(message: string, data?: JsonObject): void {
    this.plain('error', message, data);
  }

  debug(message: string, data?: JsonObject): void {
    this.plain('debug', message, data);
  }

  /** Supersedes every message after `cutAfterSeq` (a tail rollback); returns how many were dropped. */
  conversationRewound(cutAfterSeq: number, kind = 'tail_rollback'): number {
    return writeConversationRewound(this.core, cutAfterSeq, kind);
  }

  contextSnapshot(input: ContextSnapshotInput): string {
    return writeContextSnapshot(this.core, input);
  }

  /** Links a session visible here to a backend's own id (`source` e.g. `codex`). */
  sessionIdentity(sessionId: string, source: string, backendSessionId: string): void {
    this.core.emit({
      event: 'session_identity',
      level: 'info',
      message: `Session identity: ${sessionId} -> ${source}:${backendSessionId}`,
      data: { backend_session_id: backendSessionId, session_id: sessionId, source },
      turn: null,
    });
  }

  /** A parent/child edge of the session graph (`side`, `subagent`, `fork`, `rewind`…). */
  sessionRelationship(parent: string, child: string, kind: string, ephemeral = false): void {
    this.core.emit({
      event: 'session_relationship',
      level: 'info',
      message: `Session relationship: ${parent} -> ${child} (${kind})`,
      data: { parent_session_id: parent, child_session_id: child, relationship: kind, ephemeral },
      turn: null,
    });
  }

  /** Ends a round: the meta goes `idle` (unless already completed or interrupted) and the conversation is saved. */
  roundComplete(round: number, turnsInRound: number): void {
    const now = this.core.now();
    this.core.emit(
      {
        event: 'round_complete',
        level: 'info',
        message: `Round ${round} complete (${turnsInRound} turns)`,
        data: { round, turns_in_round: turnsInRound },
        turn: null,
      },
      now,
    );
    const turn = this.core.turn;
    updateMetaSync(
      this.core.dir,
      (current) => {
        const base = current ?? { session_id: this.core.sessionId };
        if (base.status === 'completed' || base.status === 'interrupted') return base;
        return { ...base, status: 'idle', last_turn: Math.max(base.last_turn ?? 0, turn), rounds: Math.max(base.rounds ?? 0, round) };
      },
      now,
    );
    this.saveConversation();
  }

  writeSummary(input: SummaryInput): SessionMeta {
    const meta = writeSummary(this.core, input);
    this.saveConversation();
    return meta;
  }

  /** Gives the session a name (whitespace collapsed, cut at 180 characters). */
  setName(name: string): void {
    const normalised = normaliseName(name);
    updateMetaSync(
      this.core.dir,
      (current) => ({ ...(current ?? { session_id: this.core.sessionId }), name: normalised }),
      this.core.now(),
    );
  }

  /** Creates a per-command runtime log in the session folder (exclusive, never through a symlink). */
  runtimeLog(nonce: string, stream: RuntimeStream, random?: string): RuntimeLog {
    this.core.assertOpen();
    return RuntimeLog.create(this.core.dir, nonce, stream, random);
  }

  /** Writes `conversation.jsonl` (atomically), recording the seq high-water mark in the meta first. */
  saveConversation(): void {
    const conversation = this.core.conversation;
    const path = join(this.core.dir, files.conversation);
    if (conversation.messages.length === 0 && !existsSync(path)) return;
    updateMetaSync(
      this.core.dir,
      (current) => ({ ...(current ?? { session_id: this.core.sessionId }), next_message_seq: conversation.nextSeq }),
      this.core.now(),
    );
    this.core.sidecar(files.conversation, () => saveConversation(path, conversation));
  }

  /** Marks a still-running session `interrupted` (for signal handlers; synchronous). */
  markInterrupted(): void {
    const turn = this.core.turn;
    updateMetaSync(
      this.core.dir,
      (current) => {
        const base = current ?? { session_id: this.core.sessionId };
        return base.status === 'running' ? { ...base, status: 'interrupted', last_turn: turn } : base;
      },
      this.core.now(),
    );
  }

  /**
   * Saves the conversation, closes the files and rebuilds `transcript.jsonl` from `session.jsonl`.
   * A session closed while still `running` (no round or summary since) is marked `interrupted`.
   */
  async close(): Promise<void> {
    if (this.core.closed) return;
    try {
      try {
        this.saveConversation();
        this.markInterrupted();
      } finally {
        this.core.closeFiles();
      }
      await rebuildTranscript(this.core.dir);
    } finally {
      // Let go only once the transcript is rebuilt: it is written too.
      this.lock.release();
    }
  }
}
