// The Claude Code reader: `~/.claude/projects/<dir>/<session>.jsonl` with its subagents.
import { readdir } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import type { AgentReader, DiscoveredSession, TreeEntry } from '../types.js';
import { claimClaude } from './claim.js';
import { claudeCustody } from './custody.js';
import { discoverClaude } from './discover.js';
import { claudeMessages } from './messages.js';
import { claudeHomes } from './layout.js';
import { parseClaude } from './parse.js';

/** Every regular file below `dir` (symbolic links are not followed); none when it is missing. */
async function filesBelow(dir: string, out: string[] = []): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await filesBelow(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/**
 * A session's files named relative to the home: the transcript, its subagents, and everything else
 * Claude Code keeps in the session's own folder (`<id>/tool-results/…` and the like), so a keep
 * copies the whole tree.
 */
async function treeOf(session: DiscoveredSession): Promise<TreeEntry[]> {
  const paths = session.files.map((f) => f.path);
  const main = paths[0];
  if (main !== undefined && main.endsWith('.jsonl')) {
    const folder = join(dirname(main), basename(main, '.jsonl'));
    for (const p of await filesBelow(folder)) if (!paths.includes(p)) paths.push(p);
  }
  return paths.map((p) => ({ relPath: relative(session.home, p), kind: 'file' as const, path: p }));
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
