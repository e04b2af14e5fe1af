// Telemetry rows (`turn_start`, `round_complete`, `session_start`, …) are a quarter of a log's rows,
// and the record reads only that they are rows and when they happened. A line written in the
// writer's plain shape is read by one pattern, not parsed; any other line is parsed.
import { isRecordRow, otherKnownRows } from './vocabulary.js';

/** A string of printable ASCII with no quote and no escape (so its JSON text is its value). */
const plain = '"[ !#-\\[\\]-~]*"';
/** A JSON integer (no leading zero) of at most 15 digits, so its value is exact. */
const integer = '-?(?:0|[1-9][0-9]{0,14})';
const value = `(?:${integer}|${plain})`;
const telemetry = otherKnownRows
  .filter((e) => !isRecordRow(e))
  .map((e) => e.replace(/[^a-z0-9_]/g, '\\$&'))
  .join('|');

/**
 * The writer's line for a telemetry row (research/intendant.md §1.3), held to a grammar every line of
 * which is valid JSON: `{"ts":S[,"ts_ms":I][,"turn":I],"event":E[,"level":S][,"message":S][,"data":{["k":V,…]}]}`
 * in that order, with S a plain string, I an integer, V either, and E documented telemetry (never a
 * record row). A pattern, not a loop over bytes: compiled to native code at its first use, where a
 * loop ran interpreted through much of a cold scan and cost more than the parse it spared (measured).
 */
const telemetryLine = new RegExp(
  `^\\{"ts":${plain}(?:,"ts_ms":(${integer}))?(?:,"turn":${integer})?,"event":"(?:${telemetry})"` +
    `(?:,"level":${plain})?(?:,"message":${plain})?(?:,"data":\\{(?:${plain}:${value}(?:,${plain}:${value})*)?\\})?\\}$`,
);

/**
 * Reads a telemetry row from its text when the line is, exactly, in the writer's plain shape: such a
 * line parses, as JSON, to an object whose `event` is telemetry and whose `ts_ms` is the one read
 * here. Anything else (an escape, a float, a nested value, a torn or merged line) is left to the parse.
 */
export class TelemetrySkim {
  /** The accepted row's `ts_ms`, or undefined when it has none. */
  tsMs: number | undefined = undefined;

  /** Whether `line` is a telemetry row in the writer's shape (then `tsMs` is its time). */
  accepts(line: string): boolean {
    // Rows open with their time: a line that does not is no telemetry row in the writer's shape.
    if (line.charCodeAt(0) !== 123 /* { */) return false;
    const m = telemetryLine.exec(line);
    if (m === null) return false;
    this.tsMs = m[1] === undefined ? undefined : Number(m[1]);
    return true;
  }
}
