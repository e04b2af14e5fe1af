// The Aider reader: runs in `.aider.chat.history.md` files, looked for where the person keeps it
// (`AIDER_CHAT_HISTORY_FILE`) and in the projects agentlog knows from other agents' sessions.
import { basename, dirname, relative } from 'node:path';
import { newRecord, noteModel, noteTime } from '../../record/draft.js';
import type { AgentReader, HomeLookup, ParsedSession } from '../types.js';
import { claimAider, discoverAider, historyFileName, parseRunLocator, repoOf } from './discover.js';
import { readRun } from './history-file.js';
import { readAiderRun } from './run.js';
import { aiderSearchMessages } from './search-messages.js';

/** Known projects looked in, newest first: each costs a stat or two per scan. */
export const maxProjects = 1000;
/** Parents of a known directory that may be its git root (where aider keeps the file). */
const parentLevels = 2;

/** The folder of the history file the variable names (the home folder by default), then each known project and its nearest parents (never `/` or the home). */
export function aiderHomes(lookup: HomeLookup): string[] {
  // A home is a folder holding `.aider.chat.history.md`, or a history file of another name itself.
  const named = lookup.env('AIDER_CHAT_HISTORY_FILE');
  const homes = [named === undefined ? lookup.homedir : basename(named) === historyFileName ? dirname(named) : named];
  const seen = new Set<string>([lookup.homedir, '/']);
  const fromProjects: string[] = [];
  for (const project of (lookup.projects ?? []).slice(0, maxProjects)) {
    let dir = project;
    for (let level = 0; level <= parentLevels; level++) {
      if (!dir.startsWith('/') || seen.has(dir)) break;
      seen.add(dir);
      fromProjects.push(dir);
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  // In path order, not the projects' recency: the set is what a scan learnt, and a cold scan (which
  // learns projects as it reads) must list the same roots in the same order as the scan after it.
  return [...homes, ...fromProjects.sort()];
}

export const aiderReader: AgentReader = {
  id: 'aider',
  displayName: 'Aider',
  aliases: [],
  homeVariables: [{ name: 'AIDER_CHAT_HISTORY_FILE', default: `~/${historyFileName}` }],
  homes: aiderHomes,
  discover: discoverAider,
  claim: claimAider,

  async parse(session): Promise<ParsedSession> {
    const locator = parseRunLocator(session.path);
    if (locator === undefined) return { record: null, cwds: [], badLines: [], problems: [] };
    const read = readRun(locator.file, locator.offset);
    const run = readAiderRun(read.text);
    const problems = read.clipped
      ? [{ path: locator.file, kind: 'oversized' as const, reason: `the run at byte ${locator.offset} is over the bound; read clipped` }]
      : [];
    if (run.startedAt === null && run.turns.length === 0) return { record: null, cwds: [], badLines: [], problems };
    const record = newRecord('aider', session.sessionId);
    record.turns = run.turns;
    record.totals = run.totals;
    for (const m of run.models) noteModel(record.models, m);
    noteTime(record, run.startedAt ?? undefined);
    const repo = repoOf(locator.file);
    record.repo = repo ?? '';
    return { record, cwds: repo === null ? [] : [repo], badLines: [], problems };
  },

  async tree(session) {
    const file = session.files[0]?.path;
    if (file === undefined) return [];
    return [{ relPath: relative(session.home, file), kind: 'file', path: file }];
  },

  messages: aiderSearchMessages,
};
