// Snippets: at most 280 UTF-8 bytes of the original text around the earliest highlight, with the
// highlights as byte ranges into the original (seed 000 "The query route").

export const snippetBytes = 280;
/** How much of the snippet precedes the anchor when the text allows. */
export const leadBytes = 120;

export interface Snippet {
  snippet: string;
  /** Where the snippet starts in the original text, in UTF-8 bytes. */
  offset: number;
  /** Highlights inside the snippet, [start, end) byte offsets into the ORIGINAL text, sorted, merged. */
  ranges: [number, number][];
}

const continuation = (b: number | undefined): boolean => b !== undefined && (b & 0xc0) === 0x80;

/**
 * Cuts the snippet around `anchor` (a byte offset). Both ends move backward to a code-point
 * boundary, so a snippet is never longer than 280 bytes; near the text's end the
 * window slides back to use the whole budget. Ranges are clipped to the snippet.
 * Example: makeSnippet('x'.repeat(500), 300, [[300, 305]]) → offset 180, 280 bytes, ranges [[300, 305]].
 */
export function makeSnippet(text: string, anchor: number, ranges: readonly [number, number][]): Snippet {
  const buf = Buffer.from(text, 'utf8');
  let start = Math.max(0, Math.min(anchor - leadBytes, buf.length - snippetBytes));
  while (start > 0 && continuation(buf[start])) start--;
  let end = Math.min(buf.length, start + snippetBytes);
  while (end > start && end < buf.length && continuation(buf[end])) end--;
  const clipped = ranges
    .map(([s, e]): [number, number] => [Math.max(s, start), Math.min(e, end)])
    .filter(([s, e]) => s < e)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const r of clipped) {
    const last = merged[merged.length - 1];
    if (last !== undefined && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return { snippet: buf.toString('utf8', start, end), offset: start, ranges: merged };
}
