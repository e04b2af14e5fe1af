// The Intendant reader: native session folders under `INTENDANT_HOME` (else `~/.intendant`),
// `logs/<id>/` each, read into the record (seed 000 "Session Logging"; research/intendant.md §1, §3.1).
import { join } from 'node:path';
import type { AgentReader, ParsedSession } from '../types.js';
import { claimPath, discoverHome, linksOf, sessionTree } from './discover.js';
import { parseIntendantSession } from './parse-session.js';
import { intendantSearchMessages } from './search-messages.js';
import { intendantNames } from './session-name.js';
import { intendantEntryView } from './entry-view.js';
import { intendantSessionCwd } from './session-cwd.js';

export const intendantReader: AgentReader = {
  id: 'intendant',
  displayName: 'Intendant',
  // The names overlay's own sessions carry an empty source, or `session`.
  aliases: ['session', ''],
  homeVariables: [{ name: 'INTENDANT_HOME', default: '~/.intendant' }],
  homes(lookup) {
    return [lookup.env('INTENDANT_HOME') ?? join(lookup.homedir, '.intendant')];
  },
  discover: discoverHome,
  claim: claimPath,
  async parse(session, ctx): Promise<ParsedSession> {
    const p = await parseIntendantSession(session.path, { detail: ctx.detail, links: linksOf(session) });
    return { record: p.record, cwds: p.cwds, badLines: p.badLines, problems: p.problems };
  },
  tree: sessionTree,
  messages: intendantSearchMessages,
  names: intendantNames,
  entryView: intendantEntryView,
  cwd: intendantSessionCwd,
};
