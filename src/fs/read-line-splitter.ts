// The state machine behind `forEachRawLine`: cuts chunks of a file into lines. Its shape is for the
// optimiser (measured with `--trace-deopt` on cold scans): the state lives in fields of one class,
// not in variables captured by closures, and each rare case (a line carried over a chunk end, a line
// over the bound, the file's last line) sits in its own method. Written inline, a rare branch that
// had not yet run when the loop was compiled threw the compiled loop away the first time it ran
// ("insufficient type feedback"); the old single function was dropped 6 times and compiled 4 times
// in a cold Claude Code scan, each compile of the whole loop with its handlers inlined. Now only the
// small `split` can be dropped, once, when the first line crosses a chunk end.
import { JsonLineClipper } from './read-clipped-line.js';
import type { RawLineHandler, ReadLinesOptions, ReadLinesResult } from './read-lines.js';

type ClipOptions = NonNullable<ReadLinesOptions['clipLongLines']>;

export class LineSplitter {
  lines = 0;
  oversizedLines = 0;
  clippedLines = 0;
  completeEnd: number;
  stoppedEarly = false;
  /**
   * Lines longer than this are not handed on as they are. Set to a non-integer first so the field
   * is stored as a double from the start: an unlimited bound (Infinity) arriving after integer
   * bounds would otherwise change the field's representation and discard the compiled loop.
   */
  private readonly maxLine: number = Number.POSITIVE_INFINITY;
  /** Copies of the current line's bytes from earlier chunks (the chunk buffer is reused). */
  private readonly pending: Buffer[] = [];
  private pendingBytes = 0;
  private pendingOffset = 0;
  /** The current line passed `maxLine`: its bytes go to the clipper, if any, not to `pending`. */
  private oversized = false;
  private clipper: JsonLineClipper | undefined = undefined;

  constructor(
    private readonly onRaw: RawLineHandler,
    maxLine: number,
    private readonly clip: ClipOptions | undefined,
    start: number,
  ) {
    this.maxLine = maxLine;
    this.completeEnd = start;
    this.pendingOffset = start;
  }

  /** Splits `buf` (every byte of it), read at file offset `position`; sets `stoppedEarly` when the handler stops. */
  split(buf: Buffer, position: number): void {
    const n = buf.length;
    let start = 0;
    if (this.pendingBytes > 0) {
      start = this.endCarried(buf, position);
      if (this.stoppedEarly) return;
    }
    const maxLine = this.maxLine;
    while (start < n) {
      const nl = buf.indexOf(10, start);
      if (nl === -1) {
        this.carry(buf, start, position);
        return;
      }
      const keepGoing =
        nl - start > maxLine
          ? this.longLine(buf, start, nl, position)
          : this.emit(buf, start, nl, position + start, position + nl + 1, true);
      if (!keepGoing) {
        this.stoppedEarly = true;
        return;
      }
      start = nl + 1;
    }
  }

  /** Hands on the file's last line when it has no newline (it may be torn by a writer still appending). */
  finish(): void {
    if (this.pendingBytes === 0) return;
    const offset = this.pendingOffset;
    const end = offset + this.pendingBytes;
    const keepGoing = this.oversized ? this.endOversized(offset, end, false) : this.emitPending(offset, end, false);
    if (!keepGoing) this.stoppedEarly = true;
  }

  result(size: number): ReadLinesResult {
    return {
      size,
      completeEnd: this.completeEnd,
      lines: this.lines,
      oversizedLines: this.oversizedLines,
      clippedLines: this.clippedLines,
      stoppedEarly: this.stoppedEarly,
    };
  }

  private emit(buf: Buffer, from: number, to: number, offset: number, end: number, complete: boolean): boolean {
    this.lines++;
    if (complete) this.completeEnd = end;
    return this.onRaw(buf, from, to, { offset, end, complete, line: this.lines }) !== false;
  }

  /** The rest of the line carried from earlier chunks, up to its newline in `buf`; returns where the next line starts. */
  private endCarried(buf: Buffer, position: number): number {
    const nl = buf.indexOf(10);
    if (nl === -1) {
      this.carry(buf, 0, position);
      return buf.length;
    }
    const offset = this.pendingOffset;
    const end = position + nl + 1;
    if (!this.oversized && this.pendingBytes + nl > this.maxLine) this.overflow();
    let keepGoing: boolean;
    if (this.oversized) {
      // A trailing `\r` is left to the handler's decoding, as for any other line.
      this.clipper?.feed(buf, 0, nl);
      keepGoing = this.endOversized(offset, end, true);
    } else {
      this.pending.push(buf.subarray(0, nl));
      this.pendingBytes += nl;
      keepGoing = this.emitPending(offset, end, true);
    }
    this.pending.length = 0;
    this.pendingBytes = 0;
    this.oversized = false;
    if (!keepGoing) this.stoppedEarly = true;
    return nl + 1;
  }

  /** `buf[start..]` has no newline: keeps a copy (or feeds the clipper) until a later chunk ends the line. */
  private carry(buf: Buffer, start: number, position: number): void {
    const piece = buf.length - start;
    if (this.pendingBytes === 0) this.pendingOffset = position + start;
    if (!this.oversized && this.pendingBytes + piece > this.maxLine) this.overflow();
    if (this.oversized) this.clipper?.feed(buf, start, buf.length);
    else this.pending.push(Buffer.from(buf.subarray(start)));
    this.pendingBytes += piece;
  }

  /** A line over the bound that lies whole in one chunk. */
  private longLine(buf: Buffer, start: number, nl: number, position: number): boolean {
    this.overflow();
    this.clipper?.feed(buf, start, nl);
    const keepGoing = this.endOversized(position + start, position + nl + 1, true);
    this.oversized = false;
    return keepGoing;
  }

  private emitPending(offset: number, end: number, complete: boolean): boolean {
    const whole = Buffer.concat(this.pending, this.pendingBytes);
    return this.emit(whole, 0, whole.length, offset, end, complete);
  }

  /** The line just passed the bound: from here on its bytes go through the clipper, if any. */
  private overflow(): void {
    this.oversized = true;
    if (this.clip === undefined) return;
    const clipper = new JsonLineClipper(this.clip.keepStringBytes, this.clip.maxOutputBytes);
    for (const piece of this.pending) clipper.feed(piece, 0, piece.length);
    this.pending.length = 0;
    this.clipper = clipper;
  }

  /** Ends an oversized line: hands on its clipped copy, or counts it. */
  private endOversized(offset: number, end: number, complete: boolean): boolean {
    const clipped = this.clipper?.result();
    this.clipper = undefined;
    if (clipped !== undefined) {
      this.lines++;
      this.clippedLines++;
      if (complete) this.completeEnd = end;
      return this.onRaw(clipped, 0, clipped.length, { offset, end, complete, line: this.lines, clipped: true }) !== false;
    }
    this.oversizedLines++;
    this.lines++;
    if (complete) this.completeEnd = end;
    return true;
  }
}
