// Cuts a Markdown transcript to a byte budget: whole when it fits, else a window of whole lines
// around an anchor (or from the top), with a line saying what was left out and how to get it.

export interface Windowed {
  text: string;
  total_bytes: number;
  left_out_before: number;
  left_out_after: number;
}

const noteBytes = 240;

/** The byte offset of the line start at or before `at`, and of the line end at or after it. */
function lineStart(buf: Buffer, at: number): number {
  const i = buf.lastIndexOf(0x0a, Math.max(0, at - 1));
  return i === -1 ? 0 : i + 1;
}

function lineEndWithin(buf: Buffer, from: number, to: number): number {
  if (to >= buf.length) return buf.length;
  const i = buf.lastIndexOf(0x0a, to - 1);
  return i < from ? to : i + 1;
}

/** Moves a cut back onto a UTF-8 code-point boundary. */
function boundary(buf: Buffer, at: number): number {
  let i = Math.min(at, buf.length);
  while (i > 0 && i < buf.length && ((buf[i] as number) & 0xc0) === 0x80) i--;
  return i;
}

/**
 * At most `maxBytes` UTF-8 bytes of `text`: whole when it fits; else a third of the budget before
 * `anchor` (a byte offset) and the rest after it, or the head when there is no anchor.
 */
export function windowText(text: string, maxBytes: number, anchor: number | null, hint: string): Windowed {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return { text, total_bytes: buf.length, left_out_before: 0, left_out_after: 0 };
  const budget = Math.max(0, maxBytes - noteBytes - Buffer.byteLength(hint, 'utf8') * 2);
  let start = anchor === null ? 0 : Math.max(0, Math.min(anchor - Math.floor(budget / 3), buf.length - budget));
  start = start === 0 ? 0 : lineStart(buf, start);
  if (anchor !== null && start > anchor) start = lineStart(buf, anchor);
  const end = boundary(buf, lineEndWithin(buf, start, Math.min(buf.length, start + budget)));
  start = boundary(buf, start);
  const before = start;
  const after = buf.length - end;
  const parts: string[] = [];
  if (before > 0) parts.push(`[… ${before} bytes left out before this point; ${hint}]\n\n`);
  parts.push(buf.toString('utf8', start, end));
  if (after > 0) parts.push(`\n\n[… ${after} bytes left out after this point; ${hint}]\n`);
  return { text: parts.join(''), total_bytes: buf.length, left_out_before: before, left_out_after: after };
}
