// Where each entry (non-blank line) of a transcript starts, so a detail page can be read by position
// (entries [a, b) of N) with one read. Built once per file and extended on append, never re-read whole
// while the file only grows; a replaced or shrunk file is indexed again.
import type { FileHandle } from 'node:fs/promises';
import { lineEntry } from '../custody/pages.js';
import { maxLineBytes, oversizedEntry, type Entry } from '../custody/entry.js';
import { readFull } from '../custody/safe-fs.js';

const chunkBytes = 1 << 20;
/** A page spanning more than this is read entry by entry, so one page never holds a huge buffer twice. */
const spanBytes = 32 * 1024 * 1024;

/** Offsets and line numbers of a transcript's entries, up to `end` (the end of its last complete line). */
export class LineIndex {
  private starts = new Float64Array(1024);
  private numbers = new Uint32Array(1024);
  count = 0;
  /** The byte just past the last complete line indexed. */
  end = 0;
  private lines = 0;

  constructor(
    readonly path: string,
    readonly identity: string,
  ) {}

  private push(start: number, line: number): void {
    if (this.count === this.starts.length) {
      const s = new Float64Array(this.count * 2);
      s.set(this.starts);
      this.starts = s;
      const n = new Uint32Array(this.count * 2);
      n.set(this.numbers);
      this.numbers = n;
    }
    this.starts[this.count] = start;
    this.numbers[this.count] = line;
    this.count++;
  }

  start(i: number): number {
    return this.starts[i] as number;
  }

  /** Where entry `i` ends (its newline excluded is not tracked: the next entry's start bounds it). */
  limit(i: number): number {
    return i + 1 < this.count ? (this.starts[i + 1] as number) : this.end;
  }

  lineNumber(i: number): number {
    return this.numbers[i] as number;
  }

  /** The entry starting at byte `offset`, or -1. */
  indexOfOffset(offset: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = this.starts[mid] as number;
      if (s === offset) return mid;
      if (s < offset) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The entry of 1-based line `n`, or the first entry after it when that line is blank; -1 past the end. */
  indexOfLine(n: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.numbers[mid] as number) < n) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.count ? lo : -1;
  }

  /** Reads on from `end` to `size`, recording every complete non-blank line. */
  async extend(handle: FileHandle, size: number): Promise<void> {
    const buf = Buffer.allocUnsafe(chunkBytes);
    let pos = this.end;
    let lineStart = this.end;
    let blank = true;
    while (pos < size) {
      const n = await readFull(handle, buf, Math.min(chunkBytes, size - pos), pos);
      if (n === 0) break;
      for (let i = 0; i < n; i++) {
        const b = buf[i] as number;
        if (b === 0x0a) {
          this.lines++;
          if (!blank) this.push(lineStart, this.lines);
          lineStart = pos + i + 1;
          blank = true;
        } else if (blank && b !== 0x20 && b !== 0x09 && b !== 0x0d) blank = false;
      }
      pos += n;
    }
    this.end = lineStart;
  }
}

const cache = new Map<string, LineIndex>();
const cacheSize = 16;
/** One index build per file at a time: concurrent first reads of a big transcript share it. */
const building = new Map<string, Promise<LineIndex>>();

function identityKey(st: { dev: number; ino: number }): string {
  return `${st.dev}:${st.ino}`;
}

/** The file's index brought up to date, reusing the one built before while the file only grew. */
export async function lineIndexOf(path: string, handle: FileHandle): Promise<LineIndex> {
  for (let pending = building.get(path); pending !== undefined; pending = building.get(path)) await pending.catch(() => undefined);
  const work = update(path, handle);
  building.set(path, work);
  try {
    return await work;
  } finally {
    if (building.get(path) === work) building.delete(path);
  }
}

async function update(path: string, handle: FileHandle): Promise<LineIndex> {
  const st = await handle.stat();
  const id = identityKey(st);
  let index = cache.get(path);
  if (index === undefined || index.identity !== id || index.end > st.size) index = new LineIndex(path, id);
  cache.delete(path);
  cache.set(path, index);
  while (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
  if (index.end < st.size) await index.extend(handle, st.size);
  return index;
}

/** Entries [from, to) of the indexed file, each with its line number (one read unless the span is huge). */
export async function readEntries(handle: FileHandle, index: LineIndex, from: number, to: number): Promise<Entry[]> {
  if (to <= from) return [];
  const base = index.start(from);
  const stop = index.limit(to - 1);
  if (stop - base > spanBytes && to - from > 1) {
    const out: Entry[] = [];
    for (let i = from; i < to; i++) out.push(...(await readEntries(handle, index, i, i + 1)));
    return out;
  }
  const out: Entry[] = [];
  if (stop - base > maxLineBytes) {
    const line = await firstLineLength(handle, base, stop);
    out.push(oversizedEntry(base, line, index.lineNumber(from)));
    return out;
  }
  const buf = Buffer.allocUnsafe(stop - base);
  const n = await readFull(handle, buf, buf.length, base);
  for (let i = from; i < to; i++) {
    const s = index.start(i) - base;
    const lim = Math.min(index.limit(i) - base, n);
    const nl = buf.indexOf(0x0a, s);
    const end = nl === -1 || nl > lim ? lim : nl;
    let text = buf.toString('utf8', s, end);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    const entry = lineEntry({ offset: index.start(i), bytes: end - s, text }, index.lineNumber(i));
    if (entry !== null) out.push(entry);
  }
  return out;
}

/** The length of the line at `start` (for a line too long to hold), scanning at most to `stop`. */
async function firstLineLength(handle: FileHandle, start: number, stop: number): Promise<number> {
  const buf = Buffer.allocUnsafe(chunkBytes);
  for (let pos = start; pos < stop; ) {
    const n = await readFull(handle, buf, Math.min(chunkBytes, stop - pos), pos);
    if (n === 0) break;
    const nl = buf.subarray(0, n).indexOf(0x0a);
    if (nl !== -1) return pos + nl - start;
    pos += n;
  }
  return stop - start;
}
