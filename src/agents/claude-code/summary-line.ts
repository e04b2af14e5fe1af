// At summary detail, parses a transcript line after cutting the long strings summary never reads
// (tool-result bodies and structured tool results) down to a short prefix, so the bulk is not decoded.
import { closingQuote } from '../cut-key-strings.js';

/** Lines shorter than this are parsed as they are: cutting would not pay. */
export const minCutLineBytes = 1024;
/** Strings longer than this (raw, in the line) are cut when they sit where summary does not read them. */
const cutAboveBytes = 512;
/** What is kept of a cut string: far more than any marker summary looks for at a result's start. */
const keepBytes = 256;

/** Where a value sits, as far as the cut cares. */
enum Zone {
  Keep,
  Top,
  Message,
  MessageContent,
  Block,
  ToolUseResult,
  Cut,
}

/**
 * The keys the zones tell apart, compared as raw bytes: decoding every key of every long line into a
 * string was, with the frames, as costly as parsing the cut line (measured on the bench's 87 MB file).
 */
enum Key {
  /** An array's element: it has no key. */
  None,
  Other,
  ToolUseResult,
  Message,
  Content,
  /** `toolUseResult` keys a launch's result is read for (`agentId`, `agentType`, `status`); every other key's strings are cut. */
  Launch,
}

function childZone(zone: Zone, key: Key, opens: number): Zone {
  switch (zone) {
    case Zone.Top:
      // A string `toolUseResult` is read whole (its length decides a check), so only containers are cut.
      if (key === Key.ToolUseResult) return opens === 0 ? Zone.Keep : Zone.ToolUseResult;
      return key === Key.Message ? Zone.Message : Zone.Keep;
    case Zone.Message:
      return key === Key.Content && opens === 91 ? Zone.MessageContent : Zone.Keep;
    case Zone.MessageContent:
      return opens === 123 ? Zone.Block : Zone.Keep;
    case Zone.Block:
      // A block's own `content` is a tool result's body: summary reads only how it starts.
      return key === Key.Content ? Zone.Cut : Zone.Keep;
    case Zone.ToolUseResult:
      return key === Key.Launch ? Zone.Keep : Zone.Cut;
    case Zone.Cut:
      return Zone.Cut;
    default:
      return Zone.Keep;
  }
}

/** Whether `b[from, from + word.length)` spells `word` (ASCII). */
function spells(b: Buffer, from: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (b[from + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** The key `b[from, to)` (a key's raw bytes, free of escapes), as far as the zones tell keys apart. */
function keyOf(b: Buffer, from: number, to: number): Key {
  switch (to - from) {
    case 6:
      return spells(b, from, 'status') ? Key.Launch : Key.Other;
    case 7:
      if (spells(b, from, 'content')) return Key.Content;
      if (spells(b, from, 'message')) return Key.Message;
      return spells(b, from, 'agentId') ? Key.Launch : Key.Other;
    case 9:
      return spells(b, from, 'agentType') ? Key.Launch : Key.Other;
    case 13:
      return spells(b, from, 'toolUseResult') ? Key.ToolUseResult : Key.Other;
    default:
      return Key.Other;
  }
}

/** A cut point at or before `at` that splits neither an escape sequence nor a UTF-8 character. */
function safeCut(b: Buffer, start: number, at: number): number {
  let cut = at;
  while (cut > start && ((b[cut] as number) & 0xc0) === 0x80) cut--;
  // The last backslash among the 6 bytes before the cut (an escape is at most `\uXXXX`).
  let j = cut - 1;
  while (j >= start && j >= cut - 6 && b[j] !== 92) j--;
  if (j < start || j < cut - 6) return cut;
  let k = j;
  while (k > start && b[k - 1] === 92) k--;
  // An odd run of backslashes ending at j means j opens an escape that the cut may split.
  return (j - k + 1) % 2 === 1 ? j : cut;
}

/**
 * The long strings worth cutting sit in tool results: a result block (`"type":"tool_result"`) or the
 * line's `toolUseResult`. A line naming neither (an assistant's long text) is not walked at all: a
 * native search of its bytes costs a fraction of the walk, and a line left uncut reads the same
 * (only slower to parse), so a stray block body left whole is no error.
 */
const cutMarks = [Buffer.from('"tool_result"'), Buffer.from('"toolUseResult"')] as const;

function mayCut(b: Buffer, start: number, end: number): boolean {
  const line = b.subarray(start, end);
  return line.indexOf(cutMarks[0]) !== -1 || line.indexOf(cutMarks[1]) !== -1;
}

/** Bytes of a string scanned in a plain loop before the buffer search takes over: most strings are short keys and ids. */
const inlineScanBytes = 64;
/** Deeper lines are decoded whole (no transcript line nests anywhere near this). */
const maxDepth = 64;

/**
 * The line `b[start, end)` decoded with its summary-irrelevant long strings cut, or undefined when
 * nothing was cut or the line is not the plain shape expected (the caller then decodes it whole).
 */
export function cutLine(b: Buffer, start: number, end: number): string | undefined {
  if (b[start] !== 123 || !mayCut(b, start, end)) return undefined;
  // The open containers, innermost last: each one's zone, whether it is an object, the key of its
  // current member (`Key.None` in an array) and whether a key comes next.
  const zones = frameZones;
  const keys = frameKeys;
  const objects = frameObjects;
  const expectKey = frameExpectKey;
  let depth = 0;
  let out = '';
  let cuts = 0;
  let from = start;
  let i = start;
  let zone = Zone.Top;
  while (i < end) {
    const c = b[i] as number;
    if (c === 34) {
      // The closing quote: a short string in a plain loop, a long one by the buffer search.
      let close = -1;
      let backslash = false;
      const stop = Math.min(end, i + 1 + inlineScanBytes);
      let j = i + 1;
      for (; j < stop; j++) {
        const d = b[j] as number;
        if (d === 92) {
          backslash = true;
          j++;
        } else if (d === 34) {
          close = j;
          break;
        }
      }
      if (close === -1) {
        if (j >= end) return undefined;
        // `j` is past the scanned bytes and never inside an escape: the search goes on from there.
        backslash = true;
        close = closingQuote(b, j - 1, start, end);
        if (close === -1) return undefined;
      }
      const top = depth - 1;
      if (top >= 0 && objects[top] === 1 && expectKey[top] === 1) {
        // Keys are short ASCII in practice; one spelled with an escape is not compared raw.
        if (backslash && hasBackslash(b, i + 1, close)) return undefined;
        keys[top] = keyOf(b, i + 1, close);
        expectKey[top] = 0;
      } else if (close - i - 1 > cutAboveBytes && top >= 0 && childZone(zones[top] as Zone, keys[top] as Key, 0) === Zone.Cut) {
        const cut = safeCut(b, i + 1, i + 1 + keepBytes);
        out += b.toString('utf8', from, cut);
        cuts++;
        from = close;
      }
      i = close + 1;
      continue;
    }
    if (c === 123 || c === 91) {
      if (depth === maxDepth) return undefined;
      zones[depth] = depth === 0 ? zone : childZone(zones[depth - 1] as Zone, keys[depth - 1] as Key, c);
      objects[depth] = c === 123 ? 1 : 0;
      keys[depth] = Key.None;
      expectKey[depth] = c === 123 ? 1 : 0;
      depth++;
    } else if (c === 125 || c === 93) {
      if (depth > 0) depth--;
      if (depth === 0) zone = Zone.Keep;
    } else if (c === 44) {
      if (depth > 0 && objects[depth - 1] === 1) expectKey[depth - 1] = 1;
    }
    i++;
  }
  if (cuts === 0) return undefined;
  return out + b.toString('utf8', from, end);
}

/** Whether `b[from, to)` holds a backslash (keys are short, so a plain loop beats a buffer search). */
function hasBackslash(b: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (b[i] === 92) return true;
  return false;
}

// The frame stack, shared by every call (a cut runs to its end without yielding).
const frameZones = new Uint8Array(maxDepth);
const frameKeys = new Uint8Array(maxDepth);
const frameObjects = new Uint8Array(maxDepth);
const frameExpectKey = new Uint8Array(maxDepth);
