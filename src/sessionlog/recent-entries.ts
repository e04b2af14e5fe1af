// `recentEntries(dir, n)`: the last n rows of `session.jsonl`, read backwards from the end in
// blocks, so a tail of a multi-hundred-MB log costs a few blocks, not the file (research §9 item 8).
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { isNotFound } from '../fs/errors.js';
import { parseObjectLine } from '../json/narrow.js';
import { toLogEvent, type LogEvent } from './log-event.js';
import { files } from './paths.js';

export interface RecentEntries {
  /** Oldest first. */
  entries: LogEvent[];
  /** Complete lines among those read that were not log rows. */
  badLines: number;
  /** The file ended in a partial line that did not parse (a writer cut off mid-line). */
  tornTail: boolean;
  /** Bytes read, for the curious (and the test that no whole-file read happens). */
  bytesRead: number;
}

const defaultBlock = 64 * 1024;

export async function recentEntries(dir: string, n: number, opts: { blockBytes?: number } = {}): Promise<RecentEntries> {
  const result: RecentEntries = { entries: [], badLines: 0, tornTail: false, bytesRead: 0 };
  if (n <= 0) return result;
  let handle;
  try {
    handle = await open(join(dir, files.events), 'r');
  } catch (error) {
    if (isNotFound(error)) return result;
    throw error;
  }
  try {
    const size = (await handle.stat()).size;
    const block = Math.max(1, opts.blockBytes ?? defaultBlock);
    const newest: LogEvent[] = [];
    let carry = Buffer.alloc(0);
    let pos = size;
    let atEnd = true;
    const take = (bytes: Buffer, complete: boolean): void => {
      const text = bytes.toString('utf8');
      if (text.trim() === '') return;
      const o = parseObjectLine(text);
      const e = o === undefined ? undefined : toLogEvent(o);
      if (e !== undefined) newest.push(e);
      else if (complete) result.badLines++;
      else result.tornTail = true;
    };
    while (pos > 0 && newest.length < n) {
      const start = Math.max(0, pos - block);
      const buf = Buffer.alloc(pos - start);
      const { bytesRead } = await handle.read(buf, 0, buf.length, start);
      result.bytesRead += bytesRead;
      carry = Buffer.concat([buf.subarray(0, bytesRead), carry]);
      pos = start;
      let end = carry.length;
      for (let nl = carry.lastIndexOf(10, end - 1); nl !== -1 && newest.length < n; nl = end > 0 ? carry.lastIndexOf(10, end - 1) : -1) {
        // The piece after the file's final newline is an unterminated (maybe torn) last line.
        take(carry.subarray(nl + 1, end), !atEnd);
        atEnd = false;
        end = nl;
      }
      carry = carry.subarray(0, end);
    }
    if (pos === 0 && newest.length < n && carry.length > 0) take(carry, !atEnd);
    result.entries = newest.reverse();
    return result;
  } finally {
    await handle.close();
  }
}
