// Pi v3 files are trees: every entry names its parent, and going back to an earlier point and
// continuing leaves the old continuation in the file as a sibling branch. The active branch is
// the last entry's ancestor chain; the rest is abandoned (research intendant.md §3.5). Older flat
// files (no ids) are one linear branch.
import type { PiEntry } from './entry.js';

export interface Branches {
  /** The active branch, root first. */
  active: PiEntry[];
  /** Every other entry, in file order: superseded for the message index, absent from the record. */
  abandoned: PiEntry[];
}

/**
 * Splits entries into the active branch and the rest. Cycle-safe; a parent that is missing ends
 * the chain (its physical neighbours are never activated instead).
 */
export function splitBranches(entries: readonly PiEntry[]): Branches {
  let leaf: PiEntry | undefined;
  const byId = new Map<string, PiEntry>();
  for (const e of entries) {
    if (e.id === undefined) continue;
    byId.set(e.id, e);
    leaf = e;
  }
  if (leaf === undefined) return { active: [...entries], abandoned: [] };
  const chain: PiEntry[] = [];
  const seen = new Set<PiEntry>();
  for (
    let at: PiEntry | undefined = leaf;
    at !== undefined && !seen.has(at);
    at = at.parentId === undefined ? undefined : byId.get(at.parentId)
  ) {
    seen.add(at);
    chain.push(at);
  }
  chain.reverse();
  return { active: chain, abandoned: entries.filter((e) => !seen.has(e)) };
}
