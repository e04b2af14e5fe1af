// The GitHub Copilot CLI reader: one session is one `events.jsonl` (in its session folder, or an
// older loose `<id>.jsonl`); sub-agents' events are nested in the calls that launched them.
import { errorMessage } from '../../fs/errors.js';
import type { AgentReader, ParsedSession } from '../types.js';
import { claimCopilot, copilotTree, discoverCopilot } from './discover.js';
import { copilotEntryView } from './entry-view.js';
import { copilotHomes } from './layout.js';
import { readEvents } from './read-events.js';
import { copilotRecord } from './record.js';
import { copilotSearchMessages } from './search-messages.js';

export const copilotReader: AgentReader = {
  id: 'copilot',
  displayName: 'GitHub Copilot CLI',
  aliases: ['copilot cli', 'copilot'],
  homeVariables: [{ name: 'COPILOT_HOME', default: '~/.copilot' }],
  homes: copilotHomes,
  discover: discoverCopilot,
  claim: claimCopilot,

  async parse(session, ctx): Promise<ParsedSession> {
    let file;
    try {
      file = await readEvents(session.path, ctx.detail === 'full');
    } catch (error) {
      return { record: null, cwds: [], badLines: [], problems: [{ path: session.path, kind: 'unreadable', reason: errorMessage(error) }] };
    }
    const built = copilotRecord(session.sessionId, file, ctx.detail === 'full');
    const badLines = file.badLines > 0 ? [{ path: session.path, count: file.badLines }] : [];
    return { record: built?.record ?? null, cwds: built?.cwds ?? (session.cwd === undefined ? [] : [session.cwd]), badLines, problems: [] };
  },

  tree: copilotTree,
  messages: copilotSearchMessages,
  entryView: copilotEntryView,
};
