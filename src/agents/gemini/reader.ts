// The Gemini CLI reader: chats under `~/.gemini` (or `$GEMINI_CLI_HOME/.gemini`).
import { stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { AgentReader, ParsedSession } from '../types.js';
import { buildGeminiRecord } from './build-record.js';
import { describeChat, discoverGemini, fileStem, homeOf, peekChat } from './discover.js';
import { loadConversation } from './load.js';
import { geminiSearchMessages } from './search-messages.js';
import { geminiEntryView } from './entry-view.js';
import { geminiSessionCwd } from './session-cwd.js';

export const geminiReader: AgentReader = {
  id: 'gemini',
  displayName: 'Gemini CLI',
  aliases: [],
  homeVariables: [{ name: 'GEMINI_CLI_HOME', default: '~', folder: '.gemini' }],

  homes(lookup) {
    // GEMINI_CLI_HOME replaces the user home Gemini CLI creates its `.gemini` folder in.
    return [join(lookup.env('GEMINI_CLI_HOME') ?? lookup.homedir, '.gemini')];
  },

  discover: discoverGemini,

  async claim(path) {
    if (!/\.jsonl?$/i.test(path)) return null;
    try {
      if (!(await stat(path)).isFile()) return null;
      if (!(await peekChat(path)).looksLikeChat) return null;
    } catch {
      return null;
    }
    return describeChat(path, homeOf(path));
  },

  async parse(session, ctx): Promise<ParsedSession> {
    const loaded = await loadConversation(session.path, ctx.detail === 'full');
    if ('problem' in loaded) return { record: null, cwds: [], badLines: [], problems: [loaded.problem] };
    const { conversation } = loaded;
    const badLines = conversation.badLines > 0 ? [{ path: session.path, count: conversation.badLines }] : [];
    if (conversation.meta.sessionId === undefined && conversation.messages.length === 0) {
      return { record: null, cwds: [], badLines, problems: [] };
    }
    const { record, cwds } = buildGeminiRecord(conversation, fileStem(session.path));
    return { record, cwds, badLines, problems: [] };
  },

  async tree(session) {
    return [{ relPath: relative(session.home, session.path), kind: 'file', path: session.path }];
  },

  messages: geminiSearchMessages,
  entryView: geminiEntryView,
  cwd: geminiSessionCwd,
};
