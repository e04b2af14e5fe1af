// Source names of the overlay: free-form spellings ("claude code", "cc", "kimi code") collapse
// to one canonical source per agent, so one session never gets two names under two spellings
// (seed "Session Naming and Aliasing Across Backends"). Every spelling comes from the registry.
import { readers } from '../agents/all-readers.js';
import type { AgentReader } from '../agents/types.js';
import { agentIds, type AgentId } from '../record/types.js';

/**
 * An agent's canonical source: its id with dashes (`claude_code` → `claude-code`). Sources are
 * written into session_names.json, so this rule must never change for an agent already shipped.
 */
export function sourceOf(id: AgentId): string {
  return id.replaceAll('_', '-');
}

/** The overlay source of each agent. */
export const sourceOfAgent: Readonly<Record<AgentId, string>> = Object.fromEntries(agentIds.map((id) => [id, sourceOf(id)])) as Record<
  AgentId,
  string
>;

const collapse = (raw: string): string => raw.trim().toLowerCase().replace(/\s+/g, ' ');

/** A spelling with its words joined by a space, a dash, an underscore and nothing ("kimi code", "kimi-code", …). */
function variants(spelling: string): string[] {
  const words = collapse(spelling)
    .split(/[\s_-]+/)
    .filter((w) => w !== '');
  return [...new Set([' ', '-', '_', ''].map((sep) => words.join(sep)))];
}

/** Every spelling of every registered agent, to its canonical source. A spelling two agents claim is a bug. */
export function aliasTable(list: readonly AgentReader[] = readers): Map<string, string> {
  const table = new Map<string, string>();
  for (const reader of list) {
    const source = sourceOf(reader.id);
    for (const spelling of [reader.id, reader.displayName, ...reader.aliases]) {
      for (const v of variants(spelling)) {
        const taken = table.get(v);
        if (taken !== undefined && taken !== source) throw new Error(`agent spelling "${v}" names both ${taken} and ${source}`);
        table.set(v, source);
      }
    }
  }
  return table;
}

const aliases = aliasTable();

/** The canonical source for a spelling; an unknown one is kept, trimmed and lower-cased. */
export function normaliseSource(raw: string): string {
  const key = collapse(raw);
  return aliases.get(key) ?? key;
}

/** The agent a source names, if any. */
export function agentOfSource(source: string): AgentId | undefined {
  const canonical = normaliseSource(source);
  return agentIds.find((id) => sourceOfAgent[id] === canonical);
}
