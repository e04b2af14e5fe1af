// The Claude Code reader: `~/.claude/projects/<dir>/<session>.jsonl` with its subagents.
import { relative } from 'node:path';
import type { AgentReader, DiscoveredSession, TreeEntry } from '../types.js';
import { claimClaude } from './claim.js';
import { claudeCustody } from './custody.js';
import { discoverClaude } from './discover.js';
import { claudeMessages } from './messages.js';
import { claudeHomes } from './layout.js';
import { parseClaude } from './parse.js';

/** A session's files, subagent transcripts and meta files included, named relative to the home. */
async function treeOf(session: DiscoveredSession): Promise<TreeEntry[]> {
  return session.files.map((f) => ({ relPath: relative(session.home, f.path), kind: 'file' as const, path: f.path }));
}

export const claudeCodeReader: AgentReader = {
  id: 'claude_code',
  displayName: 'Claude Code',
  homes: claudeHomes,
  discover: discoverClaude,
  claim: claimClaude,
  parse: parseClaude,
  tree: treeOf,
  custody: claudeCustody,
  messages: claudeMessages,
};
