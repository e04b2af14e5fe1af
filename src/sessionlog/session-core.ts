// The state every writer shares: the session folder, the open `session.jsonl` and live
// transcript, the current turn, the clock, the conversation and the running statistics.
// The typed writers (message-lane, runtime-writers, context-snapshot, summary) all go through it.
import type { JsonObject } from '../json/narrow.js';
import { timeOfDay, type Clock } from './clock.js';
import type { Conversation } from './conversation.js';
import { SessionLogError, reason } from './errors.js';
import type { LineAppender } from './line-appender.js';
import { serialiseEvent, type Level, type LogEvent } from './log-event.js';
import type { SessionStats } from './resume-state.js';
import { serialiseTranscriptEntry, type TranscriptEntry } from './transcript.js';

export interface RowFields {
  event: string;
  level?: Level;
  message?: string;
  data?: JsonObject;
  file?: string;
  file2?: string;
  /** Omit to use the current turn (written only once a turn has started); null writes none. */
  turn?: number | null;
}

export class SessionCore {
  turn = 0;
  closed = false;

  constructor(
    readonly dir: string,
    readonly sessionId: string,
    private readonly events: LineAppender,
    private readonly transcript: LineAppender | null,
    readonly clock: Clock,
    readonly conversation: Conversation,
    readonly stats: SessionStats,
    /** Stream key → the newest context-snapshot sidecar of that stream. */
    readonly snapshots: Map<string, string>,
    readonly keepAllSnapshots: boolean,
  ) {}

  assertOpen(): void {
    if (this.closed)
      throw new SessionLogError(
        'Closed',
        `the session log in ${this.dir} is closed; open it again (SessionLog.open({ dir })) to keep writing`,
      );
  }

  now(): number {
    return this.clock.now();
  }

  /**
   * Appends one row and returns it. The turn rule is the same for every row (research §9 item 7):
   * rows carry the current turn once one has started, unless the writer names a turn itself.
   */
  emit(fields: RowFields, ms = this.clock.now()): LogEvent {
    this.assertOpen();
    const row: LogEvent = { ts: timeOfDay(ms), ts_ms: ms, event: fields.event };
    const turn = fields.turn === undefined ? (this.turn > 0 ? this.turn : undefined) : fields.turn;
    if (turn !== null && turn !== undefined) row.turn = turn;
    if (fields.level !== undefined) row.level = fields.level;
    if (fields.message !== undefined) row.message = fields.message;
    if (fields.data !== undefined) row.data = fields.data;
    if (fields.file !== undefined) row.file = fields.file;
    if (fields.file2 !== undefined) row.file2 = fields.file2;
    if (this.stats.firstTsMs === undefined) this.stats.firstTsMs = ms;
    this.events.append(serialiseEvent(row));
    return row;
  }

  /** Makes every row written so far durable (before deleting a file an older row names). */
  syncEvents(): void {
    this.events.sync();
  }

  /** The live transcript append; a failure here is repaired by the rebuild at close. */
  appendTranscript(entry: TranscriptEntry): void {
    try {
      this.transcript?.append(serialiseTranscriptEntry(entry));
    } catch {
      // The transcript is derived: `close()` rebuilds it from session.jsonl.
    }
  }

  /** Runs a sidecar write, turning an fs failure into a WriteFailed error naming the file. */
  sidecar<T>(rel: string, write: () => T): T {
    this.assertOpen();
    try {
      return write();
    } catch (error) {
      if (error instanceof SessionLogError) throw error;
      throw new SessionLogError('WriteFailed', `cannot write ${rel} in ${this.dir}: ${reason(error)} (check free space and permissions)`, {
        cause: error,
      });
    }
  }

  closeFiles(): void {
    this.closed = true;
    this.events.close();
    this.transcript?.close();
  }
}
