// The unlabelled detector: long runs of key-alphabet characters that look random (Shannon entropy
// per character, mixed case and digits), minus the shapes that are not secrets (data URIs, URLs).
import { type Finding, tokenPattern } from './classes.js';

/** A run shorter than this is never called a secret (livingbrain-redact: 32). */
export const minEntropyRun = 32;
/** Bits per character a run needs (livingbrain-redact: 4.0). */
export const minEntropyBits = 4.0;
const urlWalkBack = 256;

// [A-Za-z0-9+/_]: base64, base64url's underscore, and the slash of standard base64.
function isRunChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 47 || c === 95;
}

// [A-Za-z0-9_\-/.:]: what a URL's host and path are made of, walked back over from a run.
function isUrlChar(c: number): boolean {
  return isRunChar(c) || c === 45 || c === 46 || c === 58;
}

/** Shannon entropy of `text[start, end)` in bits per character (every character here is ASCII). */
export function shannonBits(text: string, start: number, end: number): number {
  const counts = new Uint32Array(128);
  for (let i = start; i < end; i++) counts[text.charCodeAt(i) & 127]!++;
  const n = end - start;
  let bits = 0;
  for (const c of counts) {
    if (c === 0) continue;
    const p = c / n;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function mixedClasses(text: string, start: number, end: number): boolean {
  let upper = false;
  let lower = false;
  let digit = false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) upper = true;
    else if (c >= 97 && c <= 122) lower = true;
    else if (c >= 48 && c <= 57) digit = true;
    if (upper && lower && digit) return true;
  }
  return false;
}

/** A replacement token that ends the text, as `tokenPattern` matches one anywhere. */
const tokenAtEnd = new RegExp(`${tokenPattern.source}$`);
/** The longest text `tokenPattern` matches: `[REDACTED:`, 32 letters of a class name, `]`. */
const maxTokenLength = '[REDACTED:]'.length + 32;

/** Where the replacement token ending at `end` (exclusive, at its `]`) starts, or -1 if none ends there. */
function tokenStartBefore(text: string, end: number): number {
  if (text.charCodeAt(end - 1) !== 93 /* ] */) return -1;
  const from = Math.max(0, end - maxTokenLength);
  const m = tokenAtEnd.exec(text.slice(from, end));
  return m === null ? -1 : from + m.index;
}

/**
 * Whether the run at `start` sits in a URL: within 256 URL characters before it there is a '.' or
 * a '://' (whose slashes may open the run itself). The walk steps over replacement tokens without
 * counting them, so a key redacted inside a URL leaves what follows it in the URL: otherwise a
 * later pass would judge the rest of the path anew and redaction would not settle.
 */
function insideUrl(text: string, start: number): boolean {
  let i = start;
  let left = urlWalkBack;
  while (i > 0 && left > 0) {
    const c = text.charCodeAt(i - 1);
    if (c === 46) return true;
    if (c === 58 && text.startsWith('//', i)) return true;
    if (isUrlChar(c)) {
      i--;
      left--;
      continue;
    }
    const token = tokenStartBefore(text, i);
    if (token < 0) return false;
    i = token;
  }
  return false;
}

/**
 * Every run of at least 32 key-alphabet characters with upper case, lower case, digits and at least
 * 4 bits of entropy per character, that is not a data URI's payload and does not sit in a URL.
 * One linear pass: each character is visited a bounded number of times.
 */
export function findHighEntropy(text: string): Finding[] {
  const out: Finding[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isRunChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && isRunChar(text.charCodeAt(i))) i++;
    const end = i;
    if (end - start < minEntropyRun) continue;
    if (!mixedClasses(text, start, end)) continue;
    if (text.endsWith(';base64,', start)) continue;
    if (insideUrl(text, start)) continue;
    if (shannonBits(text, start, end) < minEntropyBits) continue;
    out.push({ cls: 'high_entropy', start, end });
  }
  return out;
}
