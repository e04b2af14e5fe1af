// One Cursor transcript read into turns: user prompts as typed (the `<user_query>` part; a user line
// without one is context Cursor added, not typed), assistant text. Lines name no time.
import { decodeLine, forEachRawLine } from '../../fs/read-lines.js';
import { arr, asObject, obj, parseObjectLine, str, type JsonObject } from '../../json/narrow.js';

export interface CursorLine {
  /** 1-based line number: the record id (lines carry no id of their own). */
  line: number;
  role: 'user' | 'assistant';
  text: string;
}

const userQuery = /<user_query>\s*([\s\S]*?)\s*<\/user_query>/;

function textOf(line: JsonObject): string {
  const parts: string[] = [];
  for (const item of arr(obj(line, 'message'), 'content') ?? []) {
    const o = asObject(item);
    if (str(o, 'type') === 'text') parts.push(str(o, 'text') ?? '');
  }
  return parts.join('\n');
}

/** What a line says, or null when it says nothing a person typed or read (or is not a message). */
export function readLine(line: JsonObject, n: number): CursorLine | null | undefined {
  const role = str(line, 'role');
  if ((role !== 'user' && role !== 'assistant') || arr(obj(line, 'message'), 'content') === undefined) return undefined;
  const text = textOf(line);
  if (role === 'user') {
    const typed = userQuery.exec(text)?.[1]?.trim();
    return typed === undefined || typed === '' ? null : { line: n, role, text: typed };
  }
  const said = text.trim();
  return said === '' ? null : { line: n, role, text: said };
}

/** How Cursor opens a line (its key order): the roles a summary tells from the first bytes. */
const assistantOpening = Buffer.from('{"role":"assistant","message":{"content":[{"type":"text","text":"');
const userOpening = Buffer.from('{"role":"user","message":{"content":[');
/** The tag's name without its `<`, which a JSON writer may escape as `\u003c`. */
const userQueryName = Buffer.from('user_query');
/** A user line whose first item is text, as Cursor writes it; the prompt's tag may follow context Cursor added. */
const textItemOpening = Buffer.from('{"role":"user","message":{"content":[{"type":"text","text":"');
const queryTag = Buffer.from('<user_query>');
const queryClosing = Buffer.from('</user_query>"}]}}');

function opens(buf: Buffer, start: number, end: number, prefix: Buffer): boolean {
  return end - start > prefix.length && buf.compare(prefix, 0, prefix.length, start, start + prefix.length) === 0;
}

/** Whether a printable ASCII byte that is not `"`, `\\`, `<` or a space: text, and no escape or tag. */
const isPlain = (b: number | undefined): boolean => b !== undefined && b > 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c && b !== 0x3c;

/**
 * Whether a user line is one text item ending in `</user_query>` whose first `<user_query>` tag
 * (after any context Cursor put before it) opens, after an escaped newline, with a plain byte, so
 * its typed text is not blank. The item's string must close only at the line's end, so no other item
 * can hide in it; and no `\u` escape may come before the tag, since one could spell a tag the bytes
 * do not show.
 */
function isTypedQuery(buf: Buffer, start: number, end: number): boolean {
  const tail = end - queryClosing.length;
  const text = start + textItemOpening.length;
  if (!opens(buf, start, end, textItemOpening) || tail <= text) return false;
  if (buf.compare(queryClosing, 0, queryClosing.length, tail, end) !== 0) return false;
  const tag = buf.indexOf(queryTag, text);
  if (tag === -1 || tag >= tail) return false;
  let p = tag + queryTag.length;
  if (buf[p] === 0x5c && buf[p + 1] === 0x6e) p += 2;
  if (p >= tail || !isPlain(buf[p])) return false;
  // Escapes pair left to right, so a search resumes past the escaped byte.
  for (let e = buf.indexOf(0x5c, text); e !== -1 && e < tag; e = buf.indexOf(0x5c, e + 2)) if (buf[e + 1] === 0x75) return false;
  // Every `"` before the closing must be escaped (an odd run of backslashes before it).
  const closingQuote = end - 5;
  for (let q = buf.indexOf(0x22, text); q !== -1 && q < closingQuote; q = buf.indexOf(0x22, q + 1)) {
    let slashes = 0;
    while (buf[q - 1 - slashes] === 0x5c) slashes++;
    if (slashes % 2 === 0) return false;
  }
  return true;
}

/**
 * What a summary needs of a line after the first ask, told from its bytes without decoding it:
 * `'assistant'` for an answer whose first text starts with a printable ASCII character (so it is
 * not blank once trimmed), `'user'` for a typed prompt in a line of one text item, with or
 * without context before it (`isTypedQuery`), `null` for a user line that names no `user_query`
 * (context Cursor added, never a turn), `undefined` when only parsing can tell. A line told this way is not
 * checked for a torn or broken tail (nor, for a prompt, its escapes: a complete line Cursor wrote).
 */
function skimLine(buf: Buffer, start: number, end: number): 'assistant' | 'user' | null | undefined {
  if (opens(buf, start, end, assistantOpening)) {
    const first = buf[start + assistantOpening.length] ?? 0;
    // Not `"` (empty), `\` (an escape: maybe a newline), a space, or a byte of a multi-byte
    // character (maybe a space JavaScript's trim removes, such as U+00A0).
    return first > 0x20 && first < 0x7f && first !== 0x22 && first !== 0x5c ? 'assistant' : undefined;
  }
  if (opens(buf, start, end, userOpening)) {
    if (isTypedQuery(buf, start, end)) return 'user';
    const at = buf.indexOf(userQueryName, start + userOpening.length);
    return at === -1 || at >= end ? null : undefined;
  }
  return undefined;
}

/**
 * The transcript's lines that say something. With `texts` false (a summary, which keeps only the
 * first ask) every line after the first user line keeps its role but not its text: a scan then holds
 * no session's texts while it reads, and a line whose role and emptiness its first bytes tell
 * (`skimLine`) is not decoded at all.
 */
export async function readTranscript(path: string, texts = true): Promise<{ lines: CursorLine[]; badLines: number }> {
  const lines: CursorLine[] = [];
  let bad = 0;
  let asked = false;
  const r = forEachRawLine(path, (buf, start, end, info) => {
    if (!texts && asked && info.complete) {
      const skimmed = skimLine(buf, start, end);
      if (skimmed === 'assistant' || skimmed === 'user') {
        lines.push({ line: info.line, role: skimmed, text: '' });
        return true;
      }
      if (skimmed === null) return true;
    }
    const text = decodeLine(buf, start, end);
    if (text.trim() === '') return true;
    const o = parseObjectLine(text);
    const read = o === undefined ? undefined : readLine(o, info.line);
    // A final line without a newline that does not parse is torn: counted with the bad lines.
    if (read === undefined) bad++;
    else if (read !== null) {
      if (!texts && asked) read.text = '';
      else if (read.role === 'user') asked = true;
      lines.push(read);
    }
    return true;
  });
  return { lines, badLines: bad + r.oversizedLines };
}
