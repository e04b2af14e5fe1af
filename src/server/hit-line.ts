// What a deep search hit's file line says about where it sits in the transcript: its time, and
// whether it is in the main file or a subagent's, so the hit opens on the turn holding that line.
import { open } from 'node:fs/promises';
import { maxLineBytes, parseEntry } from '../custody/entry.js';
import type { Located } from '../custody/index.js';
import { forwardLines } from '../custody/lines.js';
import { viewerOf } from '../custody/pages.js';
import type { LineTarget } from '../web/turn-match.js';
import { threadPath } from './session-source.js';

export interface FileLine {
  /** The transcript, relative to the agent home (as the hit names it). */
  file: string;
  /** Byte offset of the line's start. */
  offset: number;
}

/**
 * The target of the line at `line.offset`, or null when the line carries no time or is no longer
 * a line there (the file was rewritten). A file that is not one of the session's is a 404.
 */
export async function lineTarget(loc: Located, line: FileLine, term: string): Promise<LineTarget | null> {
  const main = line.file === loc.mainRel;
  const path = main ? loc.main : await threadPath(loc, line.file);
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    for await (const l of forwardLines(handle, line.offset, size, { maxLineBytes, chunkBytes: 256 * 1024 })) {
      if (l.text === null) return null;
      const entry = parseEntry(l.text, l.offset, l.bytes, null, viewerOf(loc));
      const ts = entry?.timestamp === null || entry?.timestamp === undefined ? Number.NaN : Date.parse(entry.timestamp);
      return Number.isNaN(ts) ? null : { ts_ms: ts, term, main };
    }
    return null;
  } finally {
    await handle.close();
  }
}
