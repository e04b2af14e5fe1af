// Every agent reader agentlog knows, each loaded on first use (in the order `claim` tries them: the
// order of `agentIds`), so a command about one session compiles only its own agent's reader.
// Adding an agent is one line.
import { agentIds, type AgentId } from '../record/types.js';
import type { AgentReader } from './types.js';

const load: { readonly [A in AgentId]: () => Promise<AgentReader> } = {
  claude_code: async () => (await import('./claude-code/index.js')).claudeCodeReader,
  codex: async () => (await import('./codex/index.js')).codexReader,
  kimi: async () => (await import('./kimi/index.js')).kimiReader,
  pi: async () => (await import('./pi/index.js')).piReader,
  intendant: async () => (await import('./intendant/index.js')).intendantReader,
  gemini: async () => (await import('./gemini/index.js')).geminiReader,
  opencode: async () => (await import('./opencode/index.js')).opencodeReader,
  cline: async () => (await import('./cline/index.js')).clineReader,
  roo_code: async () => (await import('./cline/index.js')).rooCodeReader,
  qwen: async () => (await import('./qwen/index.js')).qwenReader,
  crush: async () => (await import('./crush/index.js')).crushReader,
  copilot: async () => (await import('./copilot/index.js')).copilotReader,
  droid: async () => (await import('./droid/index.js')).droidReader,
  goose: async () => (await import('./goose/index.js')).gooseReader,
  aider: async () => (await import('./aider/index.js')).aiderReader,
  cursor: async () => (await import('./cursor/index.js')).cursorReader,
};

/** One agent's reader. */
export function loadReader(id: AgentId): Promise<AgentReader> {
  return load[id]();
}

/** The readers of these agents (every one by default), in the order `claim` tries them. */
export function loadReaders(ids: readonly AgentId[] = agentIds): Promise<AgentReader[]> {
  return Promise.all(agentIds.filter((id) => ids.includes(id)).map((id) => load[id]()));
}
