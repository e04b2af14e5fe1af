// Text a row points at: a span of a turn sidecar, or (rows from before spans) the whole sidecar
// when its size is the row's recorded length; else the row's preview stands in. Every failed read
// is aggregated into one problem per file and failure, never thrown.
import { join } from 'node:path';
import type { ClipRule } from '../../record/clip.js';
import type { FileProblem } from '../types.js';
import { dataInt, type LogRow } from './log-row.js';
import type { ReadFailure, SessionDir } from './session-dir.js';

export interface TextRead {
  text: string;
  /** The read clipped a long span head and tail. */
  clipped: boolean;
  /** The whole span was read (so a hash of the text is the content's). */
  whole: boolean;
}

export interface SpanKeys {
  file: 'file' | 'file2';
  offset: string;
  bytes: string;
  /** The row's recorded content length, for the spanless legacy fallback (none: no fallback). */
  length?: string;
}

export class SidecarText {
  private readonly failures = new Map<string, { kind: FileProblem['kind']; path: string; reason: string; line: number; rows: number }>();
  private readonly appendCursor = new Map<string, number>();

  constructor(
    private readonly files: SessionDir,
    private readonly spinePath: string,
  ) {}

  private fail(row: LogRow, ref: string, failure: ReadFailure, reason: string): void {
    const key = `${failure}\u0000${ref}`;
    const seen = this.failures.get(key);
    if (seen !== undefined) {
      seen.rows++;
      return;
    }
    const kind: FileProblem['kind'] = failure === 'oversized' ? 'oversized' : 'unreadable';
    // A refused reference names no file of ours: the row that made it is the place to look.
    const path = failure === 'refused' ? this.spinePath : join(this.files.dir, ref);
    this.failures.set(key, { kind, path, reason, line: row.line, rows: 1 });
  }

  /** The text of the span a row references, or `preview` when there is none or it cannot be read. */
  read(row: LogRow, keys: SpanKeys, rule: ClipRule, preview: string): TextRead {
    const fallback: TextRead = { text: preview, clipped: false, whole: false };
    const ref = row[keys.file];
    if (ref === undefined) return fallback;
    let offset = dataInt(row, keys.offset);
    let len = dataInt(row, keys.bytes);
    if (offset === undefined || len === undefined) {
      if (keys.length === undefined) return fallback;
      const size = this.files.size(ref);
      if (!size.ok) {
        this.fail(row, ref, size.failure, size.reason);
        return fallback;
      }
      // An appended file no longer this row's length holds other rows' text too (research §1.2).
      if (size.size !== dataInt(row, keys.length)) return fallback;
      offset = 0;
      len = size.size;
    }
    return this.at(row, ref, offset, len, rule) ?? fallback;
  }

  /**
   * Reasoning rows from before spans: the k-th append to a sidecar starts one separator byte after
   * the previous one ends, so a cursor per file recovers each row's span.
   */
  appended(row: LogRow, ref: string, length: number, rule: ClipRule): TextRead | undefined {
    const cursor = this.appendCursor.get(ref);
    const offset = dataInt(row, 'reasoning_offset') ?? (cursor === undefined ? 0 : cursor + 1);
    this.appendCursor.set(ref, offset + length);
    return this.at(row, ref, offset, length, rule);
  }

  /** A whole small sidecar (the agent-input batch), or undefined after reporting why not. */
  whole(row: LogRow, ref: string, maxBytes: number): string | undefined {
    const read = this.files.readWhole(ref, maxBytes);
    if (read.ok) return read.text;
    this.fail(row, ref, read.failure, read.reason);
    return undefined;
  }

  /** Reports what `whole` would about a sidecar whose text is not needed, without reading it. */
  check(row: LogRow, ref: string, maxBytes: number): void {
    const checked = this.files.checkWhole(ref, maxBytes);
    if (!checked.ok) this.fail(row, ref, checked.failure, checked.reason);
  }

  private at(row: LogRow, ref: string, offset: number, len: number, rule: ClipRule): TextRead | undefined {
    const read = this.files.readSpan(ref, offset, len, rule);
    if (read.ok) return { text: read.text, clipped: len > rule.whole, whole: len <= rule.whole };
    this.fail(row, ref, read.failure, read.reason);
    return undefined;
  }

  problems(): FileProblem[] {
    return [...this.failures.values()].map((p) => ({
      path: p.path,
      kind: p.kind,
      reason: `${p.reason} (session.jsonl line ${p.line}${p.rows > 1 ? `, and ${p.rows - 1} more rows` : ''})`,
    }));
  }
}
