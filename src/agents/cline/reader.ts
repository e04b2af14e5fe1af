// The Cline and Roo Code readers: one implementation over the task layout both keep, registered
// once per agent so the record says which extension wrote the session.
import { dirname, relative } from 'node:path';
import type { AgentReader, TreeEntry } from '../types.js';
import { claimTask, discoverTasks } from './discover.js';
import { parseTask } from './parse.js';
import { clineSearchMessages } from './search-messages.js';
import { filesIn } from './task-files.js';
import { clineVariant, rooVariant, variantHomes, type ClineVariant } from './variant.js';

export function makeClineReader(variant: ClineVariant): AgentReader {
  return {
    id: variant.id,
    displayName: variant.displayName,
    aliases: variant.aliases,
    homeVariables: variant.homeVariables,
    homes: (lookup) => variantHomes(variant, lookup),
    discover: (home, fs) => discoverTasks(variant, home, fs),
    claim: (path) => claimTask(variant, path),
    parse: (session, ctx) => parseTask(variant.id, session, ctx.detail === 'full'),
    async tree(session): Promise<TreeEntry[]> {
      // Every file of the task folder and of its subtask folders (checkpoints live elsewhere).
      const dirs = [session.path, ...new Set(session.files.map((f) => dirname(f.path)))];
      const paths = [...new Set(dirs.flatMap((d) => filesIn(d)))];
      return paths.map((path) => ({ relPath: relative(session.home, path), kind: 'file', path }));
    },
    messages: clineSearchMessages(variant.id),
  };
}

export const clineReader: AgentReader = makeClineReader(clineVariant);
export const rooCodeReader: AgentReader = makeClineReader(rooVariant);
