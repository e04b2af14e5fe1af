// What discovery asks of the file system beyond a stat: a folder's entries, and facts a reader
// derives from a file's first bytes. The plain implementation asks the disk every time; the scan's
// discovery cache (src/scan/discovery-cache.ts) answers both from what an earlier run saw while
// the folder or file is provably unchanged. Readers take either and cannot tell them apart.
import { readdirSync } from 'node:fs';
import type { SessionFile } from '../agents/types.js';

export const entryKinds = ['file', 'dir', 'link', 'other'] as const;
export type EntryKind = (typeof entryKinds)[number];

/** A folder entry with its type as readdir reports it (lstat's: a link is a link, never followed). */
export interface DirEntry {
  name: string;
  kind: EntryKind;
}

export interface DiscoveryFs {
  /** The folder's entries in readdir's order; throws as `readdirSync` does (ENOENT for a missing folder). */
  list(dir: string): DirEntry[];
  /**
   * A value `compute` derives from the file at `path` (its first line, a grep of it), recomputed
   * whenever the file is not provably the one it was derived from. `kind` names the derivation
   * (two derivations of one file never share a value); `decode` checks a remembered value and
   * answers undefined for one it does not recognise (then `compute` runs). The value must be JSON.
   * Given the file as `statFileSync` answered it (not its path), the stat it was made from serves.
   * `also` names other files the value is derived from (a database's write-ahead log): it is served
   * only while each of them is unchanged too. An empty one counts as absent: it adds nothing to what
   * the value was derived from (SQLite's read-only open creates an empty `-wal` where none was).
   */
  derive<T>(
    path: string | SessionFile,
    kind: string,
    decode: (value: unknown) => T | undefined,
    compute: () => Promise<T>,
    also?: readonly string[],
  ): Promise<T>;
}

/** The kind of a readdir entry. */
export function kindOf(e: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryKind {
  return e.isFile() ? 'file' : e.isDirectory() ? 'dir' : e.isSymbolicLink() ? 'link' : 'other';
}

/** One readdir of a folder. */
export function readEntries(dir: string): DirEntry[] {
  return readdirSync(dir, { withFileTypes: true }).map((e) => ({ name: e.name, kind: kindOf(e) }));
}

/** Discovery straight from the disk: every folder listed, every fact derived afresh. */
export const uncachedFs: DiscoveryFs = {
  list: readEntries,
  derive: (_path, _kind, _decode, compute) => compute(),
};
