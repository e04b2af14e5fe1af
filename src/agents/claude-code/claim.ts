// Recognises a file given on the command line as a Claude Code session, anywhere on disk.
import { basename, dirname, join } from 'node:path';
import { isObject, parseObjectLine, str } from '../../json/narrow.js';
import { statFile } from '../../fs/stat.js';
import type { DiscoveredSession } from '../types.js';
import { orphanDraft, scanProjectDir, subagentFiles, toSession } from './discover.js';
import { agentIdOfTranscript, homeOfFile, jsonlExt, readHead, sessionIdInHead, subagentsDirName } from './layout.js';

const claimHeadBytes = 256 * 1024;
const claimLines = 64;

/** True when a parsed line has a shape only Claude Code writes. */
export function isClaudeLine(o: unknown): boolean {
  if (!isObject(o)) return false;
  const type = str(o, 'type');
  if (type === 'user' || type === 'assistant') {
    // Qwen Code writes the same envelope around a Gemini `Content` message (`parts`, not `content`).
    if (isObject(o.message) && Array.isArray(o.message.parts)) return false;
    return isObject(o.message) && (typeof o.sessionId === 'string' || typeof o.uuid === 'string' || 'parentUuid' in o);
  }
  if (type === 'summary') return typeof o.leafUuid === 'string';
  if (type === 'file-history-snapshot') return 'messageId' in o;
  return false;
}

/** Whether the first bytes of a file read as a Claude Code transcript. */
export function looksLikeClaude(head: string): boolean {
  let start = 0;
  let seen = 0;
  while (start < head.length && seen < claimLines) {
    const end = head.indexOf('\n', start);
    if (end === -1) break;
    const line = head.slice(start, end);
    start = end + 1;
    if (line.trim() === '') continue;
    seen++;
    if (isClaudeLine(parseObjectLine(line))) return true;
  }
  // A first line longer than the head (a pasted image, a huge result): judge by its opening fields.
  const first = head.slice(0, head.indexOf('\n') === -1 ? head.length : head.indexOf('\n'));
  if (first.startsWith('{"parentUuid":') && first.includes('"sessionId":"')) return true;
  // A whole small file with no newline at the end.
  if (start < head.length && head.length < claimHeadBytes) return isClaudeLine(parseObjectLine(head.slice(start)));
  return false;
}

async function sessionOfMain(mainPath: string, home: string): Promise<DiscoveredSession | null> {
  const scan = await scanProjectDir(dirname(mainPath), mainPath);
  const draft = scan.mains[0];
  return draft === undefined ? null : toSession(draft, home);
}

/**
 * The session a `.jsonl` file belongs to: its own for a main transcript; the parent's for a subagent
 * transcript (`<session>/subagents/agent-<id>.jsonl`, or a loose `agent-<id>.jsonl` beside its main);
 * a session of sidechains alone when the main is gone. Null when the file is not Claude Code's.
 */
export async function claimClaude(path: string): Promise<DiscoveredSession | null> {
  if (!path.endsWith(jsonlExt)) return null;
  if ((await statFile(path)) === null) return null;
  const head = await readHead(path, claimHeadBytes);
  if (!looksLikeClaude(head)) return null;
  const home = homeOfFile(path);
  const dir = dirname(path);
  const name = basename(path);

  if (basename(dir) === subagentsDirName && agentIdOfTranscript(name) !== undefined) {
    const sessionDir = dirname(dir);
    const mainPath = `${sessionDir}${jsonlExt}`;
    if ((await statFile(mainPath)) !== null) return sessionOfMain(mainPath, home);
    const orphan = orphanDraft(basename(sessionDir), await subagentFiles(dir));
    return orphan === null ? null : toSession(orphan, home);
  }

  if (agentIdOfTranscript(name) !== undefined) {
    const sid = sessionIdInHead(head);
    if (sid !== undefined) {
      const mainPath = join(dir, `${sid}${jsonlExt}`);
      if ((await statFile(mainPath)) !== null) return sessionOfMain(mainPath, home);
    }
    const scan = await scanProjectDir(dir);
    for (const [key, files] of scan.strays) {
      if (!files.includes(path)) continue;
      const orphan = orphanDraft(key, files);
      return orphan === null ? null : toSession(orphan, home);
    }
    return null;
  }

  return sessionOfMain(path, home);
}
