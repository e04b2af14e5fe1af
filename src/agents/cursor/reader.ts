// The Cursor Agent reader: transcripts under `~/.cursor/projects/*/agent-transcripts/<id>/<id>.jsonl`,
// each kept with its sub-agents' files. The project folder's name encodes its path lossily, so the
// record names no working directory.
import { readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { readFirstLine } from '../../fs/read-lines.js';
import { statFileSync } from '../../fs/stat.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { parseObjectLine } from '../../json/narrow.js';
import { clipMessage } from '../../record/clip.js';
import { newRecord } from '../../record/draft.js';
import type { MessageRecord } from '../../record/message-index.js';
import { cappedRecord, wholeExtract, wholeFiles } from '../message-files.js';
import type { AgentReader, DiscoveredSession, Discovery, FileProblem, SessionFile } from '../types.js';
import { readLine, readTranscript } from './transcript.js';

// Discovery is synchronous: an awaited readdir and stat per transcript left the thread idle for a
// twentieth of an unchanged scan (measured), and nothing else runs while discovery does.
function dirNames(dir: string, problems: FileProblem[]): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (error) {
    if (!isNotFound(error) && (error as NodeJS.ErrnoException).code !== 'ENOTDIR')
      problems.push({ path: dir, kind: 'unreadable', reason: errorMessage(error) });
    return [];
  }
}

/** The session whose transcript is `path` (`…/agent-transcripts/<id>/<id>.jsonl`), its sub-agents' files after it. */
function sessionAt(home: string, path: string, problems: FileProblem[]): DiscoveredSession | null {
  const main = statFileSync(path);
  if (main === null) return null;
  const files: SessionFile[] = [main];
  const subDir = join(dirname(path), 'subagents');
  for (const name of dirNames(subDir, problems)) {
    const f = name.endsWith('.jsonl') ? statFileSync(join(subDir, name)) : null;
    if (f !== null) files.push(f);
  }
  return { agent: 'cursor', sessionId: basename(path, '.jsonl'), home, path, files };
}

async function discoverCursor(home: string): Promise<Discovery> {
  const problems: FileProblem[] = [];
  const sessions: DiscoveredSession[] = [];
  const projects = join(home, 'projects');
  for (const project of dirNames(projects, problems)) {
    const transcripts = join(projects, project, 'agent-transcripts');
    for (const id of dirNames(transcripts, problems)) {
      const path = join(transcripts, id, `${id}.jsonl`);
      try {
        const s = sessionAt(home, path, problems);
        if (s !== null) sessions.push(s);
      } catch (error) {
        problems.push({ path, kind: 'unreadable', reason: errorMessage(error) });
      }
    }
  }
  return { sessions, problems };
}

/** `<home>/projects/<project>/agent-transcripts/<id>/<id>.jsonl`, with a transcript line first. */
async function claimCursor(path: string): Promise<DiscoveredSession | null> {
  const id = basename(path, '.jsonl');
  const dir = dirname(path);
  if (!path.endsWith('.jsonl') || basename(dir) !== id || basename(dirname(dir)) !== 'agent-transcripts') return null;
  try {
    if (!(await stat(path)).isFile()) return null;
    const first = parseObjectLine((await readFirstLine(path, 1 << 20)) ?? '');
    if (first === undefined || readLine(first, 1) === undefined) return null;
    return sessionAt(dirname(dirname(dirname(dirname(dir)))), path, []);
  } catch {
    return null;
  }
}

export const cursorMessagesVersion = 1;

export const cursorReader: AgentReader = {
  id: 'cursor',
  displayName: 'Cursor Agent',
  aliases: ['cursor', 'cursor cli', 'cursor agent cli'],
  // Cursor finds `~/.cursor` from the user's home directory.
  homeVariables: [{ name: 'HOME', default: '~', folder: '.cursor' }],
  homes: (lookup) => [join(lookup.env('HOME') ?? lookup.homedir, '.cursor')],
  discover: discoverCursor,
  claim: claimCursor,

  async parse(session, ctx) {
    const { lines, badLines } = await readTranscript(session.path, ctx.detail !== 'summary');
    if (lines.length === 0)
      return { record: null, cwds: [], badLines: badLines > 0 ? [{ path: session.path, count: badLines }] : [], problems: [] };
    const record = newRecord('cursor', session.sessionId);
    record.turns = lines.map((l) =>
      l.role === 'user'
        ? { role: 'user', at: null, text: clipMessage(l.text) }
        : { role: 'assistant', at: null, text: clipMessage(l.text), tool_calls: [] },
    );
    return { record, cwds: [], badLines: badLines > 0 ? [{ path: session.path, count: badLines }] : [], problems: [] };
  },

  tree: async (session) => session.files.map((f) => ({ relPath: relative(session.home, f.path), kind: 'file' as const, path: f.path })),

  messages: {
    version: cursorMessagesVersion,
    async extract(session) {
      const files = await wholeFiles([session.path]);
      const { lines, badLines } = await readTranscript(session.path);
      const records: MessageRecord[] = lines.map((l) =>
        cappedRecord({
          role: l.role,
          ts_ms: 0,
          text: l.text,
          locator: { kind: 'external_record_id', record_id: `line:${l.line}` },
          item_id: `line:${l.line}`,
        }),
      );
      return wholeExtract(files, records, [], { badLines });
    },
  },
};
