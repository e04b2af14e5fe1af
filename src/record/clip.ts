// Head-and-tail clipping measured in UTF-8 bytes and cut on code-point boundaries (seed 003 clips).
import { beforeClip, spillable } from './spill-scope.js';

/** Tool output: kept whole up to 4 KiB, else its first and last 2 KiB. */
export const outputClip = { whole: 4 * 1024, half: 2 * 1024 } as const;
/** Tool input: kept whole up to 16 KiB, else its first and last 8 KiB. */
export const inputClip = { whole: 16 * 1024, half: 8 * 1024 } as const;
/** A message: kept whole up to 256 KiB, else its first and last 128 KiB. */
export const messageClip = { whole: 256 * 1024, half: 128 * 1024 } as const;

export interface ClipRule {
  readonly whole: number;
  readonly half: number;
}

/** The line that stands where bytes were removed. */
export function omittedLine(bytes: number): string {
  return `\n… ${bytes} bytes omitted …\n`;
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/**
 * Clips `text` to its first and last `rule.half` bytes when it is longer than `rule.whole` bytes.
 * Example: clip('a'.repeat(5000), outputClip) keeps 2048 + 2048 bytes around "… 904 bytes omitted …".
 */
export function clip(text: string, rule: ClipRule): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes, so short strings need no encoding at all.
  if (text.length * 3 <= rule.whole) return text;
  let buf = Buffer.from(text, 'utf8');
  if (buf.length <= rule.whole) return text;
  // Only a text about to be cut goes through the scope's hook (sync's redaction), then is cut.
  const ready = beforeClip(text);
  if (ready !== text) {
    buf = Buffer.from(ready, 'utf8');
    if (buf.length <= rule.whole) return ready;
  }
  let headEnd = rule.half;
  while (headEnd > 0 && isContinuation(buf[headEnd])) headEnd--;
  let tailStart = buf.length - rule.half;
  while (tailStart < buf.length && isContinuation(buf[tailStart])) tailStart++;
  const omitted = tailStart - headEnd;
  return buf.toString('utf8', 0, headEnd) + omittedLine(omitted) + buf.toString('utf8', tailStart);
}

/** Clips a tool output; under `withTextSink` (a large `show`) what returns may be a token for it. */
export const clipOutput = (text: string): string => spillable(clip(text, outputClip));
export const clipInput = (text: string): string => clip(text, inputClip);
export const clipMessage = (text: string): string => clip(text, messageClip);

/** Cuts to at most `chars` code points (used for the summary level's first ask and for names). */
export function cutChars(text: string, chars: number): string {
  if (text.length <= chars) return text;
  let count = 0;
  let i = 0;
  while (i < text.length && count < chars) {
    const code = text.charCodeAt(i);
    i += code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1;
    count++;
  }
  return text.slice(0, i);
}
