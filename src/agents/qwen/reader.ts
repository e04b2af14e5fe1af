// The Qwen Code reader: one session is one append-only JSONL file; the record follows its active branch.
import { relative } from 'node:path';
import { errorMessage } from '../../fs/errors.js';
import type { AgentReader, ParsedSession } from '../types.js';
import { claimQwen, discoverQwen } from './discover.js';
import { qwenEntryView } from './entry-view.js';
import { qwenHomes } from './layout.js';
import { readChat } from './read-chat.js';
import { qwenRecord } from './record.js';
import { qwenSearchMessages } from './search-messages.js';

export const qwenReader: AgentReader = {
  id: 'qwen',
  displayName: 'Qwen Code',
  aliases: ['qwen-code'],
  homeVariables: [{ name: 'QWEN_RUNTIME_DIR', default: '~/.qwen' }],
  homes: qwenHomes,
  discover: discoverQwen,
  claim: claimQwen,

  async parse(session, ctx): Promise<ParsedSession> {
    let file;
    try {
      file = await readChat(session.path, ctx.detail === 'full');
    } catch (error) {
      return { record: null, cwds: [], badLines: [], problems: [{ path: session.path, kind: 'unreadable', reason: errorMessage(error) }] };
    }
    const built = qwenRecord(session.sessionId, file, ctx.detail === 'full');
    const badLines = file.badLines > 0 ? [{ path: session.path, count: file.badLines }] : [];
    return { record: built?.record ?? null, cwds: built?.cwds ?? (session.cwd === undefined ? [] : [session.cwd]), badLines, problems: [] };
  },

  tree: async (session) => [{ relPath: relative(session.home, session.path), kind: 'file', path: session.path }],
  messages: qwenSearchMessages,
  entryView: qwenEntryView,
};
