// Sub-agent sidechains: the transcript a sub-agent wrote, joined to its session by the launching
// tool_use id its agent records (Claude Code: `.meta.json`), or by the sub-agent's own id. The
// winning root is tried first, then the session's kept copy (the vendor may prune sub-agent files alone).
import type { Sidechain } from '../agents/types.js';
import { custodyErrors, isCustodyError } from './errors.js';
import type { Located } from './locate.js';
import { isInside, lstatOrNull } from './safe-fs.js';

/** The sidechain `key` names (a tool_use id, else an agent id, with or without `agent-`), or null. */
export function pickSidechain(list: readonly Sidechain[], key: string): Sidechain | null {
  const sorted = [...list].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return sorted.find((s) => s.toolUseId === key) ?? sorted.find((s) => s.agentId === key || `agent-${s.agentId}` === key) ?? null;
}

export interface FoundSidechain {
  loc: Located;
  sidechain: Sidechain;
}

/** Looks in each located copy in turn (winner first); SubAgentNotFound when none has it. */
export async function findSidechain(copies: readonly Located[], key: string): Promise<FoundSidechain> {
  const first = copies[0];
  if (first === undefined) throw custodyErrors.subAgentNotFound('?', key);
  const hook = first.reader.custody?.sidechains;
  if (hook === undefined) throw custodyErrors.subAgentNotFound(first.sessionId, key);
  for (const loc of copies) {
    let list: Sidechain[];
    try {
      list = await hook(await loc.session());
    } catch (error) {
      if (isCustodyError(error)) throw error;
      throw custodyErrors.io(loc.rootPath, 'list the sub-agents of a session in', error);
    }
    const hit = pickSidechain(list, key);
    if (hit === null || !isInside(loc.rootPath, hit.path)) continue;
    const st = await lstatOrNull(hit.path).catch(() => null);
    if (st?.isFile()) return { loc, sidechain: hit };
  }
  throw custodyErrors.subAgentNotFound(first.sessionId, key);
}
