// Every agent reader agentlog knows, in the order `claim` tries them (the order of `agentIds`).
// Adding an agent is one line in each table. The readers are imported together, not one dynamic
// import each: the bundle then holds them in a few chunks instead of one per reader plus one per set
// of readers sharing code, and an unchanged `scan` (which loads every reader) spent ~14% of its CPU
// resolving and linking those ~60 extra modules (measured); `show` of one session cost the same.
// Commands that need no reader (`--version`, `--help` of a command) never import this module.
import { agentIds, type AgentId } from '../record/types.js';
import type { AgentReader } from './types.js';
import { aiderReader } from './aider/index.js';
import { claudeCodeReader } from './claude-code/index.js';
import { clineReader, rooCodeReader } from './cline/index.js';
import { codexReader } from './codex/index.js';
import { copilotReader } from './copilot/index.js';
import { crushReader } from './crush/index.js';
import { cursorReader } from './cursor/index.js';
import { droidReader } from './droid/index.js';
import { geminiReader } from './gemini/index.js';
import { gooseReader } from './goose/index.js';
import { intendantReader } from './intendant/index.js';
import { kimiReader } from './kimi/index.js';
import { opencodeReader } from './opencode/index.js';
import { piReader } from './pi/index.js';
import { qwenReader } from './qwen/index.js';

const byId: { readonly [A in AgentId]: AgentReader } = {
  claude_code: claudeCodeReader,
  codex: codexReader,
  kimi: kimiReader,
  pi: piReader,
  intendant: intendantReader,
  gemini: geminiReader,
  opencode: opencodeReader,
  cline: clineReader,
  roo_code: rooCodeReader,
  qwen: qwenReader,
  crush: crushReader,
  copilot: copilotReader,
  droid: droidReader,
  goose: gooseReader,
  aider: aiderReader,
  cursor: cursorReader,
};

/** Every reader, in the order `claim` tries them (the order of `agentIds`). */
export const everyReader: readonly AgentReader[] = agentIds.map((id) => byId[id]);

/** One agent's reader. */
export async function loadReader(id: AgentId): Promise<AgentReader> {
  return byId[id];
}

/** The readers of these agents (every one by default), in the order `claim` tries them. */
export async function loadReaders(ids: readonly AgentId[] = agentIds): Promise<AgentReader[]> {
  return agentIds.filter((id) => ids.includes(id)).map((id) => byId[id]);
}
