// Where a message's terms are: every accepted occurrence of each folded term, as UTF-8 byte ranges
// into the ORIGINAL text (seed 000: the client never re-derives them), and the earliest one.
import { occurrences, originalRange, utf8Offsets, type FoldedView } from './fold.js';

/** Occurrences highlighted per term (a snippet shows a few; a huge message must not cost more). */
export const maxOccurrencesPerTerm = 64;

export interface Highlights {
  /** Byte offset of the earliest first occurrence of any term (the snippet's anchor). */
  anchor: number;
  /** [start, end) byte ranges into the original text, one per occurrence, unsorted. */
  ranges: [number, number][];
}

/** The highlights of `terms` (folded) in the record `view` folded from `original`. */
export function highlights(view: FoldedView, original: string, terms: readonly string[]): Highlights {
  const spans: [number, number][] = [];
  let anchor = Number.POSITIVE_INFINITY;
  for (const t of terms) {
    occurrences(view, t, maxOccurrencesPerTerm).forEach((o, k) => {
      const span = originalRange(view, original, o, o + t.length);
      spans.push(span);
      if (k === 0) anchor = Math.min(anchor, span[0]);
    });
  }
  if (spans.length === 0) return { anchor: 0, ranges: [] };
  const points = [...new Set([anchor, ...spans.flat()])].sort((a, b) => a - b);
  const bytes = utf8Offsets(original, points);
  const toByte = new Map(points.map((p, i) => [p, bytes[i] as number]));
  const at = (p: number): number => toByte.get(p) as number;
  return { anchor: at(anchor), ranges: spans.map(([a, b]): [number, number] => [at(a), at(b)]) };
}
