// A JSON line too long to hold, made small enough to parse as it streams past: every string value
// keeps its first bytes and a marker, the structure around it is copied whole. A 200 MB line that is
// one pasted log becomes a valid object whose long string is clipped, and memory stays bounded.

/** Written in place of a string's clipped rest (no quote or backslash, so it is valid inside a JSON string). */
export const clipMarker = ' [… clipped by agentlog]';
const marker = Buffer.from(clipMarker, 'utf8');

const quote = 0x22;
const backslash = 0x5c;

/**
 * Feeds a line's bytes in pieces and keeps a clipped copy: each JSON string keeps at most
 * `keepStringBytes` bytes (cut before an escape or a UTF-8 sequence, never inside one). `result()`
 * is undefined when the clipped copy itself passed `maxOutputBytes` (a line that is all structure).
 */
export class JsonLineClipper {
  private readonly out: Buffer;
  private used = 0;
  private overflow = false;
  private inString = false;
  private escaped = false;
  /** Bytes of the current string's content copied so far. */
  private stringBytes = 0;
  /** The current string is past its budget: bytes are skipped until it closes. */
  private dropping = false;
  clippedStrings = 0;

  constructor(
    private readonly keepStringBytes: number,
    private readonly maxOutputBytes: number,
  ) {
    this.out = Buffer.allocUnsafe(Math.min(maxOutputBytes, 1 << 20));
  }

  private buffer: Buffer | undefined;

  private put(byte: number): void {
    if (this.overflow) return;
    let target = this.buffer ?? this.out;
    if (this.used >= target.length) {
      if (target.length >= this.maxOutputBytes) {
        this.overflow = true;
        return;
      }
      const grown = Buffer.allocUnsafe(Math.min(this.maxOutputBytes, target.length * 2));
      target.copy(grown, 0, 0, this.used);
      this.buffer = grown;
      target = grown;
    }
    target[this.used++] = byte;
  }

  /** Feeds `buf[start, end)`: the next bytes of the line (no newline). */
  feed(buf: Buffer, start: number, end: number): void {
    for (let i = start; i < end; i++) {
      const b = buf[i] as number;
      if (!this.inString) {
        this.put(b);
        if (b === quote) {
          this.inString = true;
          this.stringBytes = 0;
          this.dropping = false;
        }
        continue;
      }
      if (this.escaped) {
        this.escaped = false;
        if (!this.dropping) this.put(b);
        continue;
      }
      if (b === quote) {
        if (this.dropping) for (const m of marker) this.put(m);
        this.put(b);
        this.inString = false;
        continue;
      }
      // A cut falls before an escape or a UTF-8 lead byte: never inside either.
      if (!this.dropping && this.stringBytes >= this.keepStringBytes && (b & 0xc0) !== 0x80) {
        this.dropping = true;
        this.clippedStrings++;
      }
      if (b === backslash) this.escaped = true;
      if (!this.dropping) {
        this.put(b);
        this.stringBytes++;
      }
    }
  }

  /** The clipped line, or undefined when it passed `maxOutputBytes`. */
  result(): Buffer | undefined {
    if (this.overflow) return undefined;
    return (this.buffer ?? this.out).subarray(0, this.used);
  }
}
