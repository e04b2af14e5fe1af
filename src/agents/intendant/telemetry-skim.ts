// Telemetry rows (`turn_start`, `round_complete`, `session_start`, …) are a quarter of a log's rows,
// and the record reads only that they are rows and when they happened. A line written in the
// writer's plain shape is read from its bytes, neither decoded nor parsed; any other line is parsed.
import { isRecordRow, otherKnownRows } from './vocabulary.js';

const telemetry: ReadonlySet<string> = new Set(otherKnownRows.filter((e) => !isRecordRow(e)));

const quote = 0x22;
const backslash = 0x5c;

/** A key after the first, with the comma before it. */
const key = (name: string): Buffer => Buffer.from(`,"${name}":`, 'latin1');
const open = Buffer.from('{"ts":', 'latin1');
const tsMsKey = key('ts_ms');
const turnKey = key('turn');
const eventKey = key('event');
const levelKey = key('level');
const messageKey = key('message');
const dataKey = key('data');

/**
 * Reads a telemetry row from its bytes when the line is, exactly, what the session-log writer writes
 * for one (research/intendant.md §1.3), held to a grammar every line of which is valid JSON:
 * `{"ts":S[,"ts_ms":I][,"turn":I],"event":S[,"level":S][,"message":S][,"data":{["k":V[,"k":V]…]}]}`
 * in that order, where S is a string of printable ASCII without escapes, I an integer of at most 15
 * digits and V an integer or such a string, and the event is documented telemetry, not a record row.
 * So an accepted line parses, as JSON, to an object whose `event` and `ts_ms` are the ones read here;
 * anything else (an escape, a float, a nested value, a torn or merged line) is left to the parse.
 */
export class TelemetrySkim {
  /** The accepted row's `ts_ms`, or undefined when it has none. */
  tsMs: number | undefined = undefined;
  private b: Buffer = Buffer.alloc(0);
  private i = 0;
  private end = 0;

  /** Whether `b[start, end)` is a telemetry row in the writer's shape (then `tsMs` is its time). */
  accepts(b: Buffer, start: number, end: number): boolean {
    this.b = b;
    this.i = start;
    this.end = end;
    if (!this.literal(open) || this.string() < 0) return false;
    let tsMs: number | undefined;
    if (this.literal(tsMsKey)) {
      tsMs = this.integer();
      if (tsMs === undefined) return false;
    }
    if (this.literal(turnKey) && this.integer() === undefined) return false;
    if (!this.literal(eventKey)) return false;
    const nameStart = this.i + 1;
    const nameEnd = this.string();
    if (nameEnd < 0 || !telemetry.has(b.toString('latin1', nameStart, nameEnd))) return false;
    if (this.literal(levelKey) && this.string() < 0) return false;
    if (this.literal(messageKey) && this.string() < 0) return false;
    if (this.literal(dataKey) && !this.flatObject()) return false;
    if (this.i !== end - 1 || b[this.i] !== 0x7d /* } */) return false;
    this.tsMs = tsMs;
    return true;
  }

  /** Steps over `lit` when it comes next. */
  private literal(lit: Buffer): boolean {
    const i = this.i;
    if (this.end - i < lit.length || this.b.compare(lit, 0, lit.length, i, i + lit.length) !== 0) return false;
    this.i = i + lit.length;
    return true;
  }

  /** Steps over a string of printable ASCII with no escape; answers the index of its closing quote, or -1. */
  private string(): number {
    const b = this.b;
    let i = this.i;
    if (b[i] !== quote) return -1;
    for (i++; i < this.end; i++) {
      const c = b[i] as number;
      if (c === quote) {
        this.i = i + 1;
        return i;
      }
      if (c < 0x20 || c > 0x7e || c === backslash) return -1;
    }
    return -1;
  }

  /** Steps over a JSON integer (no leading zero) of at most 15 digits, so its value is exact. */
  private integer(): number | undefined {
    const b = this.b;
    let i = this.i;
    const negative = b[i] === 0x2d; /* - */
    if (negative) i++;
    const first = i;
    let value = 0;
    while (i < this.end) {
      const d = (b[i] as number) - 0x30;
      if (d < 0 || d > 9) break;
      value = value * 10 + d;
      i++;
    }
    const digits = i - first;
    if (digits === 0 || digits > 15 || (digits > 1 && b[first] === 0x30)) return undefined;
    this.i = i;
    return negative ? -value : value;
  }

  /** Steps over `{}` or `{"k":V,…}` with V an integer or a plain string. */
  private flatObject(): boolean {
    const b = this.b;
    if (b[this.i] !== 0x7b /* { */) return false;
    this.i++;
    if (b[this.i] === 0x7d) {
      this.i++;
      return true;
    }
    for (;;) {
      if (this.string() < 0 || b[this.i] !== 0x3a /* : */) return false;
      this.i++;
      if (b[this.i] === quote ? this.string() < 0 : this.integer() === undefined) return false;
      const c = b[this.i];
      this.i++;
      if (c === 0x7d) return true;
      if (c !== 0x2c) return false;
    }
  }
}
