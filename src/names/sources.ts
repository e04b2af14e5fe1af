// Source names of the overlay: free-form spellings ("claude code", "cc", "kimi code") collapse
// to one canonical source per agent, so one session never gets two names under two spellings
// (seed "Session Naming and Aliasing Across Backends").
import type { AgentId } from '../record/types.js';

/** The overlay source of each agent; a new agent id is a compile error here until it is added. */
export const sourceOfAgent = {
  claude_code: 'claude-code',
  codex: 'codex',
  kimi: 'kimi',
  pi: 'pi',
  intendant: 'intendant',
  gemini: 'gemini',
  opencode: 'opencode',
} as const satisfies Record<AgentId, string>;
export type Source = (typeof sourceOfAgent)[AgentId];

const aliases: Record<string, Source> = {
  '': 'intendant',
  session: 'intendant',
  intendant: 'intendant',
  'claude-code': 'claude-code',
  claude_code: 'claude-code',
  claudecode: 'claude-code',
  'claude code': 'claude-code',
  claude: 'claude-code',
  cc: 'claude-code',
  codex: 'codex',
  'codex-cli': 'codex',
  codex_cli: 'codex',
  'codex cli': 'codex',
  kimi: 'kimi',
  'kimi-code': 'kimi',
  kimi_code: 'kimi',
  kimicode: 'kimi',
  'kimi code': 'kimi',
  pi: 'pi',
  'pi-coding-agent': 'pi',
  pi_coding_agent: 'pi',
  'pi coding agent': 'pi',
  gemini: 'gemini',
  'gemini-cli': 'gemini',
  gemini_cli: 'gemini',
  'gemini cli': 'gemini',
  opencode: 'opencode',
  'open-code': 'opencode',
  open_code: 'opencode',
  'open code': 'opencode',
};

/** The canonical source for a spelling; an unknown one is kept, trimmed and lower-cased. */
export function normaliseSource(raw: string): string {
  const key = raw.trim().toLowerCase().replace(/\s+/g, ' ');
  return aliases[key] ?? key;
}

/** The agent a source names, if any. */
export function agentOfSource(source: string): AgentId | undefined {
  const canonical = normaliseSource(source);
  return (Object.keys(sourceOfAgent) as AgentId[]).find((id) => sourceOfAgent[id] === canonical);
}
