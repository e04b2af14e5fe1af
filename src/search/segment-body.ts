// The body of a generation file (format 2), laid out so a query can use it without parsing it. A
// cold query on a 20,000-message session spent ~88% of its time on the old JSON body: decoding it,
// JSON.parse building 40,000 objects, checking them, folding 20,000 strings one by one and hashing
// it. Here the texts are one block, already folded, that decodes with one copy and is matched as it
// is; the fields a match looks at (time, subagent) are columns; each record's other fields are a
// JSON line parsed only when the record is shown or its session's supersession is worked out.
//
// Layout (integers u32 little-endian, times f64 little-endian):
//   crc32 of everything after it · record count n · head bytes · record-line bytes · text chars ·
//   text encoding (0 Latin-1, 1 UTF-16LE) · the head (JSON: owner and marks) · n times · n flags ·
//   n+1 record-line offsets (bytes) · n+1 text starts (chars) · the case map (a bit per text char)
//   · the record lines · the text block.
// The text block is the records' texts joined by NUL: record i is [start[i], start[i+1] - 1). A
// record flagged plain (most are) is stored folded: its fold is its lower-case, and its original
// differs from that only by the ASCII capitals the case map marks, restored when it is shown.
// Other records are stored as they are and folded when loaded.
// Latin-1 or UTF-16LE rather than UTF-8: both decode as a copy (UTF-8 took ~10x longer on a
// multi-MB block), and UTF-16LE keeps a lone surrogate exactly.
import { endianness } from 'node:os';
import { crc32 } from './checksum.js';
import type { MessageRecord } from '../record/message-index.js';
import type { Folded } from './fold.js';
import { headSchema, isRecordMeta, recordMeta, type RecordMeta, type SegmentHead } from './segment-wire.js';

const fixedBytes = 24;
const encodings = ['latin1', 'utf16le'] as const;
const flagSubagent = 1;
/** Stored folded (see above): a run of such records is the hay as it is. */
const flagPlain = 2;
const wideChar = /[^\u0000-\u00ff]/;
const asciiOnly = /^[\u0000-\u007f]*$/;

/**
 * Whether a record can be stored folded: its fold needs no map and holds no NUL (so it equals its
 * lower-case), and lower-casing changed nothing but ASCII capitals (so the case map restores it).
 */
export function isPlainFold(text: string, folded: Folded): boolean {
  if (folded.map !== null || text.includes('\u0000')) return false;
  return asciiOnly.test(text) || text.replace(/[A-Z]+/g, (m) => m.toLowerCase()) === folded.text;
}

/**
 * Encodes a segment's body; `folds[i]` is record i's fold. With `reserve`, the buffer starts with
 * that many zero bytes for the caller's file header (the body is the rest), so a file is built in
 * one allocation. The texts are written straight into it, never joined into one string or copied
 * through a buffer of their own: on a 300 MB session each of those copies was ~100 MB of peak RSS.
 */
export function encodeBody(head: SegmentHead, records: readonly MessageRecord[], folds: readonly Folded[], reserve = 0): Buffer {
  const n = records.length;
  const plain = records.map((r, i) => isPlainFold(r.text, folds[i] as Folded));
  const stored = (i: number): string => (plain[i] === true ? (folds[i] as Folded).text : (records[i] as MessageRecord).text);
  const headBuf = Buffer.from(
    JSON.stringify({ agent: head.agent, session_id: head.session_id, marks_mode: head.marks_mode, marks: head.marks }),
    'utf8',
  );
  const lines = records.map((r) => JSON.stringify(recordMeta(r)));
  const linesJoined = lines.join('');
  const linesBuf = Buffer.from(linesJoined, 'utf8');
  const ascii = linesBuf.length === linesJoined.length;
  // The texts joined by NUL, as lengths: n - 1 separators.
  let textLength = Math.max(0, n - 1);
  let enc = 0;
  for (let i = 0; i < n; i++) {
    const t = stored(i);
    textLength += t.length;
    if (enc === 0 && wideChar.test(t)) enc = 1;
  }
  const width = enc === 0 ? 1 : 2;
  const caseMapBytes = (textLength + 7) >> 3;
  const bodyBytes = fixedBytes + headBuf.length + 8 * n + n + 8 * (n + 1) + caseMapBytes + linesBuf.length + width * textLength;
  const out = Buffer.alloc(reserve + bodyBytes);
  const b = reserve;
  out.writeUInt32LE(n, b + 4);
  out.writeUInt32LE(headBuf.length, b + 8);
  out.writeUInt32LE(linesBuf.length, b + 12);
  out.writeUInt32LE(textLength, b + 16);
  out.writeUInt32LE(enc, b + 20);
  let p = b + fixedBytes + headBuf.copy(out, b + fixedBytes);
  for (const r of records) p = out.writeDoubleLE(r.ts_ms, p);
  records.forEach((r, i) => {
    out[p++] = (r.subagent === true ? flagSubagent : 0) | (plain[i] === true ? flagPlain : 0);
  });
  let at = 0;
  p = out.writeUInt32LE(0, p);
  for (const l of lines) {
    at += ascii ? l.length : Buffer.byteLength(l, 'utf8');
    p = out.writeUInt32LE(at, p);
  }
  const caseMap = out.subarray(p + 4 * (n + 1), p + 4 * (n + 1) + caseMapBytes);
  at = 0;
  p = out.writeUInt32LE(0, p);
  records.forEach((r, i) => {
    if (plain[i] === true) {
      for (let k = 0; k < r.text.length; k++) {
        const c = r.text.charCodeAt(k);
        const byte = (at + k) >> 3;
        if (c >= 65 && c <= 90) caseMap[byte] = (caseMap[byte] as number) | (1 << ((at + k) & 7));
      }
    }
    at += r.text.length + 1;
    p = out.writeUInt32LE(at, p);
  });
  p += caseMapBytes;
  p += linesBuf.copy(out, p);
  // The separators are the zero bytes `alloc` left between the texts.
  for (let i = 0; i < n; i++) p += out.write(stored(i), p, encodings[enc]) + (i < n - 1 ? width : 0);
  if (p !== out.length) throw new Error(`segment body: wrote ${p - b} of ${bodyBytes} bytes`);
  out.writeUInt32LE(crc32(out.subarray(b + 4)), b);
  return out;
}

/** A body opened for queries: columns and text decoded, each record's other fields read on demand. */
export class SegmentBody {
  private readonly metaCache: (RecordMeta | undefined)[];

  constructor(
    readonly head: SegmentHead,
    readonly count: number,
    readonly ts: Float64Array,
    private readonly flags: Uint8Array,
    /** Where record i's line starts in `lines`; `lineOffsets[n]` is where the last one ends. */
    private readonly lineOffsets: Uint32Array,
    private readonly lines: Buffer,
    private readonly caseMap: Uint8Array,
    /** The records' texts as stored (plain ones folded) joined by NUL. */
    readonly text: string,
    /** `textStarts[i]` is where record i's text starts in `text`; `textStarts[n]` is `text.length + 1`. */
    readonly textStarts: Uint32Array,
    /** Bytes per char of `text` as V8 holds it. */
    readonly charBytes: 1 | 2,
  ) {
    this.metaCache = new Array<RecordMeta | undefined>(count);
  }

  /** Bytes this view keeps alive (the text, the record lines, the columns). */
  get bytes(): number {
    const columns = this.ts.byteLength + this.flags.length + this.lineOffsets.byteLength + this.textStarts.byteLength + this.caseMap.length;
    return this.text.length * this.charBytes + this.lines.length + columns;
  }

  /** Record i's text as stored (folded when plain). */
  stored(i: number): string {
    return this.text.slice(this.textStarts[i] as number, (this.textStarts[i + 1] as number) - 1);
  }

  /** Record i's original text; null when the case map marks something that is no lower-case letter. */
  original(i: number): string | null {
    const from = this.textStarts[i] as number;
    const to = (this.textStarts[i + 1] as number) - 1;
    if (!this.isPlain(i)) return this.text.slice(from, to);
    const parts: string[] = [];
    let last = from;
    for (let k = from; k < to; k++) {
      const bits = this.caseMap[k >> 3] as number;
      // Most bytes mark nothing: skip to the next one.
      if (bits === 0) k |= 7;
      else if ((bits & (1 << (k & 7))) !== 0) {
        const c = this.text.charCodeAt(k);
        if (c < 97 || c > 122) return null;
        parts.push(this.text.slice(last, k), String.fromCharCode(c - 32));
        last = k + 1;
      }
    }
    parts.push(this.text.slice(last, to));
    return parts.join('');
  }

  isSubagent(i: number): boolean {
    return ((this.flags[i] as number) & flagSubagent) !== 0;
  }

  isPlain(i: number): boolean {
    return ((this.flags[i] as number) & flagPlain) !== 0;
  }

  get allPlain(): boolean {
    for (let i = 0; i < this.count; i++) if (((this.flags[i] as number) & flagPlain) === 0) return false;
    return true;
  }

  /** Record i's stored fields; null when its line is not a well-formed record (a corrupt file). */
  meta(i: number): RecordMeta | null {
    const hit = this.metaCache[i];
    if (hit !== undefined) return hit;
    let v: unknown;
    try {
      v = JSON.parse(this.lines.toString('utf8', this.lineOffsets[i], this.lineOffsets[i + 1]));
    } catch {
      return null;
    }
    if (!isRecordMeta(v)) return null;
    this.metaCache[i] = v;
    return v;
  }

  /** Record i whole; null when corrupt. */
  record(i: number): MessageRecord | null {
    const m = this.meta(i);
    const text = this.original(i);
    if (m === null || text === null) return null;
    const r: MessageRecord = { ...m, ts_ms: this.ts[i] as number, text };
    if (this.isSubagent(i)) r.subagent = true;
    return r;
  }

  /** Every record's stored fields (what supersession needs); null when any is corrupt. */
  metas(): RecordMeta[] | null {
    return this.every((i) => this.meta(i));
  }

  /** Every record whole; null when any is corrupt. */
  records(): MessageRecord[] | null {
    return this.every((i) => this.record(i));
  }

  private every<T>(read: (i: number) => T | null): T[] | null {
    const out: T[] = new Array<T>(this.count);
    for (let i = 0; i < this.count; i++) {
      const v = read(i);
      if (v === null) return null;
      out[i] = v;
    }
    return out;
  }
}

const littleEndian = endianness() === 'LE';

/** A copy of `count` little-endian numbers of `bytes` bytes each, in the host's order for a typed array. */
function column(body: Buffer, from: number, count: number, bytes: 4 | 8): ArrayBufferLike {
  const copy = new Uint8Array(body.subarray(from, from + count * bytes));
  if (!littleEndian) {
    const swapped = Buffer.from(copy.buffer, copy.byteOffset, copy.byteLength);
    if (bytes === 4) swapped.swap32();
    else swapped.swap64();
  }
  return copy.buffer;
}

function parseHead(body: Buffer, from: number, to: number): SegmentHead | null {
  try {
    const head = headSchema.safeParse(JSON.parse(body.toString('utf8', from, to)));
    return head.success ? head.data : null;
  } catch {
    return null;
  }
}

/**
 * Opens a body: its checksum, its framing, the head, every time, flag and offset are checked here
 * (each record's own line when it is first read); null when anything is off.
 */
export function openBody(body: Buffer): SegmentBody | null {
  if (body.length < fixedBytes || crc32(body.subarray(4)) !== body.readUInt32LE(0)) return null;
  const n = body.readUInt32LE(4);
  const headBytes = body.readUInt32LE(8);
  const lineBytes = body.readUInt32LE(12);
  const chars = body.readUInt32LE(16);
  const enc = encodings[body.readUInt32LE(20)];
  if (enc === undefined) return null;
  const width = enc === 'latin1' ? 1 : 2;
  const headEnd = fixedBytes + headBytes;
  const tsAt = headEnd;
  const flagsAt = tsAt + 8 * n;
  const linesAt = flagsAt + n;
  const startsAt = linesAt + 4 * (n + 1);
  const caseAt = startsAt + 4 * (n + 1);
  const linesFrom = caseAt + ((chars + 7) >> 3);
  const textFrom = linesFrom + lineBytes;
  if (textFrom + chars * width !== body.length) return null;
  const head = parseHead(body, fixedBytes, headEnd);
  if (head === null) return null;
  const ts = new Float64Array(column(body, tsAt, n, 8));
  const flags = new Uint8Array(body.subarray(flagsAt, flagsAt + n));
  const lineOffsets = new Uint32Array(column(body, linesAt, n + 1, 4));
  const starts = new Uint32Array(column(body, startsAt, n + 1, 4));
  if (lineOffsets[0] !== 0 || lineOffsets[n] !== lineBytes || starts[0] !== 0 || starts[n] !== (n === 0 ? 0 : chars + 1)) return null;
  for (let i = 0; i < n; i++) {
    // Each text is followed by its NUL, so every start moves on by at least one; each line is `{…}`.
    const bad =
      !Number.isFinite(ts[i]) ||
      ((flags[i] as number) & ~(flagSubagent | flagPlain)) !== 0 ||
      (lineOffsets[i + 1] as number) <= (lineOffsets[i] as number) ||
      (starts[i + 1] as number) <= (starts[i] as number);
    if (bad) return null;
  }
  // Copied out, so the file's buffer is not kept alive by a slice of it.
  const caseMap = new Uint8Array(body.subarray(caseAt, linesFrom));
  const lines = Buffer.from(body.subarray(linesFrom, textFrom));
  const text = body.toString(enc, textFrom, body.length);
  if (text.length !== chars) return null;
  return new SegmentBody(head, n, ts, flags, lineOffsets, lines, caseMap, text, starts, width === 2 ? 2 : 1);
}
