// Splits a snippet into plain and marked runs from the server's highlight ranges, which are UTF-8
// byte offsets into the ORIGINAL message (seed 000: the client never re-derives them).

export interface Segment {
  text: string;
  mark: boolean;
}

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/**
 * The runs of `snippet` (which starts at byte `offsetBytes` of the message), marked where a range
 * covers them. Ranges outside the snippet are ignored; a range boundary inside a code point moves to
 * the code point's end. The runs' texts always join back to `snippet`.
 */
export function highlightSegments(snippet: string, offsetBytes: number, ranges: readonly (readonly [number, number])[]): Segment[] {
  const segments: Segment[] = [];
  let byte = offsetBytes;
  let current: Segment | null = null;
  for (const ch of snippet) {
    const len = utf8Length(ch.codePointAt(0) as number);
    const mark = ranges.some(([s, e]) => byte < e && byte + len > s);
    if (current !== null && current.mark === mark) current.text += ch;
    else {
      current = { text: ch, mark };
      segments.push(current);
    }
    byte += len;
  }
  return segments;
}
