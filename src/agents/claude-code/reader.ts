// The Claude Code reader: `~/.claude/projects/<dir>/<session>.jsonl` with its subagents.
import type { AgentReader } from '../types.js';
import { claimClaude } from './claim.js';
import { claudeCustody, claudeTree } from './custody.js';
import { discoverClaude } from './discover.js';
import { claudeMessages } from './search-messages.js';
import { claudeHomes } from './layout.js';
import { parseClaude } from './parse.js';
import { claudeSessionCwd } from './session-cwd.js';

export const claudeCodeReader: AgentReader = {
  id: 'claude_code',
  displayName: 'Claude Code',
  aliases: ['claude', 'cc'],
  homeVariables: [{ name: 'CLAUDE_CONFIG_DIR', default: '~/.claude' }],
  homes: claudeHomes,
  discover: discoverClaude,
  claim: claimClaude,
  parse: parseClaude,
  tree: claudeTree,
  custody: claudeCustody,
  messages: claudeMessages,
  cwd: claudeSessionCwd,
};
