// Below full detail a tool's output is read only for its head (typed text quoted near its start,
// Roo Code's JSON status) and the child a `new_task` launched, yet outputs are most of a task's
// bytes (24 of the bench home's 30 MB of Cline conversations). A long one is cut before the
// document is decoded and marked where it was cut, so the conversation can tell when what it read
// of an output was not all it needed: the document is then read whole (conversation.ts).
//
// A document is only cut where it is valid JSON as JSON.stringify writes it; bytes that would make
// the whole document unparseable (a raw control character) inside a cut-away part go unseen.
import { closingQuote } from '../cut-key-strings.js';

/** Ends every cut string: a NUL, which JSON can only spell as an escape, so written as one. */
export const cutMark = '\u0000';
const rawCutMark = '\\u0000';

/**
 * Raw bytes kept of an output past its header: enough for the `resultHeadChars` characters the
 * summary reads unless escapes or wide characters are dense, in which case the conversation finds
 * the head short and the document is read whole.
 */
const keepBytes = 1024;
/** Outputs that would lose fewer raw bytes than this are kept whole: cutting would not pay. */
const minCutBytes = 1024;
/** How far a result header (`[read_file for 'a.ts'] Result:`) is looked for. */
const maxHeaderBytes = 512;

/** A text block holding a result written as text (Cline, Roo Code before native tools): `[tool for 'x'] Result:…`. */
const resultKey = Buffer.from('"text":"[');
/** A `tool_result` block's string content (native tool calls); other `content` strings are kept whole by the reader's checks. */
const contentKey = Buffer.from('"content":"');
const headerClose = Buffer.from('] Result:');

/** Raw bytes of a text result's header from its `[`, or -1 when it does not start with a plain one. */
function headerBytes(b: Buffer, from: number, to: number): number {
  const close = b.indexOf(93, from);
  if (close === -1 || close - from > maxHeaderBytes || close + headerClose.length > to) return -1;
  if (b.subarray(from, close).includes(92) || !b.subarray(close, close + headerClose.length).equals(headerClose)) return -1;
  return close + headerClose.length - from;
}

/**
 * The document with every long text result and `content` string cut to its head and marked, or
 * undefined when nothing was cut or its strings do not close (the caller decodes it whole). A cut
 * falls before a space, which no escape or UTF-8 character contains.
 */
export function cutToolOutputs(b: Buffer): string | undefined {
  let out = '';
  let from = 0;
  let nextResult = b.indexOf(resultKey);
  let nextContent = b.indexOf(contentKey);
  while (nextResult !== -1 || nextContent !== -1) {
    const isResult = nextContent === -1 || (nextResult !== -1 && nextResult < nextContent);
    const k = isResult ? nextResult : nextContent;
    // A key's quote after a backslash is inside a string (or the JSON is broken): not a member.
    let resume = k + 1;
    if (b[k - 1] !== 92) {
      const open = k + (isResult ? resultKey.length - 2 : contentKey.length - 1);
      const close = closingQuote(b, open, 0, b.length);
      if (close === -1) return undefined;
      resume = close + 1;
      const header = isResult ? headerBytes(b, open + 1, close) : 0;
      const cut = header === -1 ? -1 : b.indexOf(32, open + 1 + header + keepBytes);
      if (cut !== -1 && close - cut > minCutBytes) {
        out += b.toString('utf8', from, cut) + rawCutMark;
        from = close;
      }
    }
    if (nextResult !== -1 && nextResult < resume) nextResult = b.indexOf(resultKey, resume);
    if (nextContent !== -1 && nextContent < resume) nextContent = b.indexOf(contentKey, resume);
  }
  return from === 0 ? undefined : out + b.toString('utf8', from);
}
