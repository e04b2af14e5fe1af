// The Factory Droid reader: one session is a JSONL file with a sibling settings file, its
// sub-agents' sessions nested in the calls that launched them.
import { errorMessage } from '../../fs/errors.js';
import type { AgentReader, ParsedSession } from '../types.js';
import { claimDroid, discoverDroid, droidTree } from './discover.js';
import { droidEntryView } from './entry-view.js';
import { droidHomes } from './layout.js';
import { loadSession } from './load.js';
import { droidRecord } from './record.js';
import { droidSearchMessages } from './search-messages.js';

export const droidReader: AgentReader = {
  id: 'droid',
  displayName: 'Factory Droid',
  aliases: ['factory'],
  homeVariables: [{ name: 'HOME', default: '~', folder: '.factory' }],
  homes: droidHomes,
  discover: discoverDroid,
  claim: claimDroid,

  async parse(session, ctx): Promise<ParsedSession> {
    let loaded;
    try {
      loaded = await loadSession(session, ctx.detail === 'full');
    } catch (error) {
      return { record: null, cwds: [], badLines: [], problems: [{ path: session.path, kind: 'unreadable', reason: errorMessage(error) }] };
    }
    const built = droidRecord(session.sessionId, loaded.file, loaded.settings, loaded.children, ctx.detail === 'full');
    return {
      record: built?.record ?? null,
      cwds: built?.cwds ?? (session.cwd === undefined ? [] : [session.cwd]),
      badLines: loaded.badLines,
      problems: [],
    };
  },

  tree: droidTree,
  messages: droidSearchMessages,
  entryView: droidEntryView,
};
