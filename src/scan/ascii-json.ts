// JSON text with every character past ASCII written as a `\u` escape: what JSON.parse reads back is
// the same. A cache file is read on every scan, and one character past ASCII (a session title's
// accent) made all of its text two-byte: the read decoded UTF-8 on the slow path and the parse and
// digest ran over twice the bytes (measured on the bench home's 2.5 MB scan cache: ~15 ms a scan).

/** `json` (JSON.stringify's output) with every code unit past 0x7e escaped, so the text is pure ASCII. */
export function asciiJson(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
