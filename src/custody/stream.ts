// Forward reads of a transcript as entries, with line numbers, from an already opened file: once
// open, a vendor prune (unlink) cannot cut the stream short or make it repeat entries.
import type { FileHandle } from 'node:fs/promises';
import { maxLineBytes, type Entry } from './entry.js';
import { forwardLines } from './lines.js';
import { lineEntry } from './pages.js';

/**
 * Every entry of the complete lines in `[0, size)`, in order, and closes the file when done (or when
 * the consumer stops early). Blank lines are not entries but still count toward line numbers.
 */
export async function* streamEntries(handle: FileHandle, size: number): AsyncGenerator<Entry> {
  try {
    let number = 0;
    for await (const line of forwardLines(handle, 0, size, { maxLineBytes })) {
      number++;
      const entry = lineEntry(line, number);
      if (entry !== null) yield entry;
    }
  } finally {
    await handle.close();
  }
}
