// Case and form folding for message search, with an exact map back to the original text (seed 000
// "The query route": per-char simple lowercase plus canonical decomposition, so `Café` written
// precomposed or decomposed matches either spelling, and highlights land on whole original chars).

/**
 * A folded text. `text` is the original with every code point lowercased and then canonically
 * decomposed (NFD), NUL replaced by a space (NUL separates records in a loaded shard). `map[i]` is
 * the UTF-16 index in the original of the code point that produced `text[i]`; `null` means the
 * identity (folding changed no length, the common case, so no map is kept).
 */
export interface Folded {
  text: string;
  map: Uint32Array | null;
}

const asciiOnly = /^[\u0000-\u007f]*$/;
const capitalSigma = '\u03a3';
const memo = new Map<number, string>();

function foldCodePoint(cp: number): string {
  let out = memo.get(cp);
  if (out === undefined) {
    // One code point at a time: context-free (no final-sigma rule), identical for needle and haystack.
    out = cp === 0 ? ' ' : String.fromCodePoint(cp).toLowerCase().normalize('NFD');
    if (memo.size < 65536) memo.set(cp, out);
  }
  return out;
}

/** Folds `text` (see `Folded`). Example: fold('Café').text === 'cafe\u0301'. */
export function fold(text: string): Folded {
  if (asciiOnly.test(text)) {
    const lower = text.toLowerCase();
    return { text: lower.includes('\u0000') ? lower.replaceAll('\u0000', ' ') : lower, map: null };
  }
  // Whole-string lowercase equals the per-char fold when no length changes, no final-sigma context
  // applies and NFD leaves it alone: then indices correspond one to one and no map is needed.
  if (!text.includes(capitalSigma)) {
    const lower = text.toLowerCase();
    if (lower.length === text.length && lower.normalize('NFD') === lower) {
      return { text: lower.includes('\u0000') ? lower.replaceAll('\u0000', ' ') : lower, map: null };
    }
  }
  const pieces: string[] = [];
  let map = new Uint32Array(Math.max(16, Math.ceil(text.length * 1.25)));
  let n = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    const f = foldCodePoint(cp);
    if (n + f.length > map.length) {
      const bigger = new Uint32Array(Math.max(map.length * 2, n + f.length));
      bigger.set(map);
      map = bigger;
    }
    for (let k = 0; k < f.length; k++) map[n++] = i;
    pieces.push(f);
    i += width;
  }
  return { text: pieces.join(''), map: map.slice(0, n) };
}

/** Folds a query term the same way as the text it is looked for in. */
export function foldNeedle(term: string): string {
  return fold(term).text;
}

/**
 * A record's folded text inside a longer string (a loaded segment joins its records' folds with NUL):
 * the record occupies [base, end) of `text`, and `map` (relative to `base`) is its fold's map.
 */
export interface FoldedView {
  text: string;
  base: number;
  end: number;
  map: Uint32Array | null;
}

export function viewOf(f: Folded): FoldedView {
  return { text: f.text, base: 0, end: f.text.length, map: f.map };
}

const markPattern = /\p{M}/u;

function isMarkAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0x300) return false;
  const cp = text.codePointAt(i) as number;
  return markPattern.test(String.fromCodePoint(cp));
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * Whether a folded match at [start, end) of the view covers whole original code points and is not
 * followed by a combining mark: `cafe` does not match `café` in either spelling, as with NFC plus
 * case folding, while `café` matches both spellings.
 */
export function acceptMatch(v: FoldedView, start: number, end: number): boolean {
  const t = v.text;
  if (end < v.end && isMarkAt(t, end)) return false;
  if (v.map === null) {
    if (start > v.base && isLowSurrogate(t.charCodeAt(start))) return false;
    return !(end < v.end && isLowSurrogate(t.charCodeAt(end)));
  }
  const s = start - v.base;
  const e = end - v.base;
  if (s > 0 && v.map[s] === v.map[s - 1]) return false;
  return !(e < v.map.length && v.map[e] === v.map[e - 1]);
}

/**
 * The view's own text: a search never runs past the record's end (a loaded segment joins thousands
 * of records, and an unbounded `indexOf` per record made multi-term matching quadratic). A slice
 * shares the parent's characters in V8, so this costs no copy.
 */
function ownText(v: FoldedView): string {
  return v.base === 0 && v.end === v.text.length ? v.text : v.text.slice(v.base, v.end);
}

/** The first accepted occurrence of `needle` in the view (an index into `v.text`), or -1. */
export function firstOccurrence(v: FoldedView, needle: string): number {
  const own = ownText(v);
  for (let at = own.indexOf(needle); at !== -1; at = own.indexOf(needle, at + 1)) {
    if (acceptMatch(v, v.base + at, v.base + at + needle.length)) return v.base + at;
  }
  return -1;
}

/** Every accepted occurrence of `needle` in the view, at most `max` of them. */
export function occurrences(v: FoldedView, needle: string, max: number): number[] {
  const out: number[] = [];
  const own = ownText(v);
  for (let at = own.indexOf(needle); at !== -1 && out.length < max; at = own.indexOf(needle, at + 1)) {
    if (acceptMatch(v, v.base + at, v.base + at + needle.length)) out.push(v.base + at);
  }
  return out;
}

/**
 * The original UTF-16 range that the folded range [start, end) of the view came from, widened to
 * whole code points.
 */
export function originalRange(v: FoldedView, original: string, start: number, end: number): [number, number] {
  const s = start - v.base;
  const e = end - v.base;
  if (v.map === null) return [s, e];
  const from = v.map[s] ?? original.length;
  const last = v.map[e - 1];
  let j = e;
  while (j < v.map.length && v.map[j] === last) j++;
  return [from, j < v.map.length ? (v.map[j] as number) : original.length];
}

/**
 * Converts ascending UTF-16 indices of `text` to UTF-8 byte offsets in one pass.
 * Example: utf8Offsets('é!', [0, 1, 2]) → [0, 2, 3].
 */
export function utf8Offsets(text: string, indices: readonly number[]): number[] {
  const out: number[] = new Array<number>(indices.length);
  let bytes = 0;
  let i = 0;
  for (let k = 0; k < indices.length; k++) {
    const target = indices[k] as number;
    if (target < i) {
      bytes = 0;
      i = 0;
    }
    while (i < target && i < text.length) {
      const c = text.charCodeAt(i);
      if (c < 0x80) bytes += 1;
      else if (c < 0x800) bytes += 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
        bytes += 4;
        i++;
      } else bytes += 3;
      i++;
    }
    out[k] = bytes;
  }
  return out;
}
