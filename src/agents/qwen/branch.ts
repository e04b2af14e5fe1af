// Qwen Code's records form a tree by uuid/parentUuid: `/rewind` points the next record back at the
// turn it rewound to, leaving the rewound records on a dead branch, and title/source anchors are
// written beside the tail without becoming it. The active branch is the ancestor chain of the last
// record that is not such an anchor; a file without uuids is one linear branch.
import type { QwenRecord } from './chat-record.js';

/** Metadata records re-appended to the end of the file that never become the conversation's tail. */
const anchorSubtypes = new Set(['custom_title', 'session_source']);

export interface Branches {
  /** The active branch of the main conversation, root first. */
  active: QwenRecord[];
  /** Main-conversation records off the active branch, in file order. */
  abandoned: QwenRecord[];
  /** Records a subagent wrote beside the session (`isSidechain`), in file order. */
  sidechain: QwenRecord[];
}

export function splitBranches(records: readonly QwenRecord[]): Branches {
  const main = records.filter((r) => !r.sidechain);
  const sidechain = records.filter((r) => r.sidechain);
  const byId = new Map<string, QwenRecord>();
  let leaf: QwenRecord | undefined;
  for (const r of main) {
    if (r.uuid === undefined) continue;
    byId.set(r.uuid, r);
    if (!(r.type === 'system' && anchorSubtypes.has(r.subtype ?? ''))) leaf = r;
  }
  if (leaf === undefined) return { active: main, abandoned: [], sidechain };
  const on = new Set<QwenRecord>();
  const chain: QwenRecord[] = [];
  for (
    let at: QwenRecord | undefined = leaf;
    at !== undefined && !on.has(at);
    at = at.parentUuid === undefined ? undefined : byId.get(at.parentUuid)
  ) {
    on.add(at);
    chain.push(at);
  }
  chain.reverse();
  // Anchors hang off the chain without being part of the conversation: neither active nor abandoned prose.
  return { active: chain, abandoned: main.filter((r) => !on.has(r) && r.type !== 'system'), sidechain };
}
