// Opening a located session's main transcript for reading: only JSONL transcripts are paged, links are
// refused, and a file the vendor pruned between locate and open is re-located once (usually landing on
// the kept copy) instead of failing.
import type { FileHandle } from 'node:fs/promises';
import { CustodyError, custodyErrors, isVanished } from './errors.js';
import type { Located } from './locate.js';
import { openRead } from './safe-fs.js';

export function assertPageable(loc: Located): void {
  if (!loc.main.toLowerCase().endsWith('.jsonl')) {
    throw new CustodyError(
      'NotPageable',
      `${loc.reader.displayName} keeps session ${loc.sessionId} in ${loc.main}, which is not a JSONL transcript; read it with \`agentlog show ${loc.sessionId}\``,
      loc.main,
    );
  }
}

export interface OpenTranscript {
  loc: Located;
  handle: FileHandle;
  size: number;
}

/** Opens the main transcript; on a vanished file re-locates once with `relocate`. */
export async function openTranscript(loc: Located, relocate: () => Promise<Located | null>, where: string): Promise<OpenTranscript> {
  assertPageable(loc);
  try {
    const { handle, stat } = await openRead(loc.main);
    return { loc, handle, size: stat.size };
  } catch (error) {
    if (!isVanished(error)) throw error;
  }
  const again = await relocate();
  if (again === null) throw custodyErrors.sessionNotFound(loc.sessionId, where);
  assertPageable(again);
  const { handle, stat } = await openRead(again.main);
  return { loc: again, handle, size: stat.size };
}
