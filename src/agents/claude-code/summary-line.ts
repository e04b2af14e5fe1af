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

/** `toolUseResult` keys a launch's result is read for; every other key's strings are cut. */
const launchKeys: ReadonlySet<string> = new Set(['agentId', 'agentType', 'status']);

function childZone(zone: Zone, key: string | undefined, opens: number): Zone {
  switch (zone) {
    case Zone.Top:
      // A string `toolUseResult` is read whole (its length decides a check), so only containers are cut.
      if (key === 'toolUseResult') return opens === 0 ? Zone.Keep : Zone.ToolUseResult;
      return key === 'message' ? Zone.Message : Zone.Keep;
    case Zone.Message:
      return key === 'content' && opens === 91 ? Zone.MessageContent : Zone.Keep;
    case Zone.MessageContent:
      return opens === 123 ? Zone.Block : Zone.Keep;
    case Zone.Block:
      // A block's own `content` is a tool result's body: summary reads only how it starts.
      return key === 'content' ? Zone.Cut : Zone.Keep;
    case Zone.ToolUseResult:
      return key !== undefined && launchKeys.has(key) ? Zone.Keep : Zone.Cut;
    case Zone.Cut:
      return Zone.Cut;
    default:
      return Zone.Keep;
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

/** Whether `b[from, to)` holds a backslash (keys are short, so a plain loop beats a buffer search). */
function hasBackslash(b: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (b[i] === 92) return true;
  return false;
}

interface Frame {
  zone: Zone;
  isObject: boolean;
  key: string | undefined;
  expectKey: boolean;
}

/**
 * The line `b[start, end)` decoded with its summary-irrelevant long strings cut, or undefined when
 * nothing was cut or the line is not the plain shape expected (the caller then decodes it whole).
 */
export function cutLine(b: Buffer, start: number, end: number): string | undefined {
  if (b[start] !== 123) return undefined;
  const stack: Frame[] = [];
  let out = '';
  let cuts = 0;
  let from = start;
  let i = start;
  let zone = Zone.Top;
  while (i < end) {
    const c = b[i] as number;
    if (c === 34) {
      const close = closingQuote(b, i, start, end);
      if (close === -1) return undefined;
      const top = stack[stack.length - 1];
      if (top?.isObject && top.expectKey) {
        // Keys are short ASCII in practice; one spelled with an escape is not compared raw.
        if (hasBackslash(b, i + 1, close)) return undefined;
        top.key = b.toString('latin1', i + 1, close);
        top.expectKey = false;
      } else if (
        close - i - 1 > cutAboveBytes &&
        top !== undefined &&
        childZone(top.zone, top.isObject ? top.key : undefined, 0) === Zone.Cut
      ) {
        const cut = safeCut(b, i + 1, i + 1 + keepBytes);
        out += b.toString('utf8', from, cut);
        cuts++;
        from = close;
      }
      i = close + 1;
      continue;
    }
    if (c === 123 || c === 91) {
      const parent = stack[stack.length - 1];
      const z = parent === undefined ? zone : childZone(parent.zone, parent.isObject ? parent.key : undefined, c);
      stack.push({ zone: z, isObject: c === 123, key: undefined, expectKey: c === 123 });
    } else if (c === 125 || c === 93) {
      stack.pop();
      if (stack.length === 0) zone = Zone.Keep;
    } else if (c === 44) {
      const top = stack[stack.length - 1];
      if (top?.isObject) top.expectKey = true;
    }
    i++;
  }
  if (cuts === 0) return undefined;
  return out + b.toString('utf8', from, end);
}
