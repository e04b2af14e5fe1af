// Finds Gemini CLI chats under a home: `tmp/<project-hash>/chats/session-*.json` and `.jsonl`,
// reading at most a first line (JSONL) or the first 64 KiB (JSON) for the session id.
// File calls are synchronous: discovery peeks at every chat, a few small reads each.
import { closeSync } from 'node:fs';
import { readExactSync } from '../../fs/read-exact.js';
import { basename, dirname, join } from 'node:path';
import { parseObjectLine, str } from '../../json/narrow.js';
import { readFirstLineSync } from '../../fs/read-lines.js';
import { openRegularSync } from '../../fs/read-open.js';
import { statFileSync } from '../../fs/stat.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import type { DiscoveredSession, Discovery, DiscoveryFs, FileProblem } from '../types.js';
import { uncachedFs } from '../../fs/dir-listing.js';
import { isJsonl } from './load.js';

const chatFile = /^session-.*\.jsonl?$/;
const peekBytes = 64 * 1024;

export interface ChatHead {
  sessionId?: string;
  /** The SHA-256 of the project root, when the header carries it. */
  projectHash?: string;
  /** The file starts the way a Gemini CLI chat does (metadata with a project hash or messages). */
  looksLikeChat: boolean;
}

/** Up to `bytes` from the start of the file, decoded. */
function readPrefix(path: string, bytes: number): string {
  const { fd } = openRegularSync(path);
  try {
    const buf = Buffer.alloc(bytes);
    const bytesRead = readExactSync(fd, buf, bytes, 0);
    return buf.toString('utf8', 0, bytesRead);
  } finally {
    closeSync(fd);
  }
}

/** The session id and whether the file looks like a chat, from its first line or first 64 KiB. */
export async function peekChat(path: string): Promise<ChatHead> {
  if (isJsonl(path)) {
    const first = parseObjectLine(readFirstLineSync(path, 1 << 20) ?? '');
    const sessionId = str(first, 'sessionId');
    const projectHash = str(first, 'projectHash');
    const looksLikeChat =
      sessionId !== undefined && first?.type === undefined && (projectHash !== undefined || str(first, 'startTime') !== undefined);
    return { looksLikeChat, ...(sessionId === undefined ? {} : { sessionId }), ...(projectHash === undefined ? {} : { projectHash }) };
  }
  const head = readPrefix(path, peekBytes);
  if (!head.trimStart().startsWith('{')) return { looksLikeChat: false };
  const id = /"sessionId"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(head);
  const hash = /"projectHash"\s*:\s*"([0-9a-fA-F]{64})"/.exec(head)?.[1];
  const looksLikeChat = id !== null && (/"projectHash"\s*:/.test(head) || /"messages"\s*:/.test(head));
  return {
    looksLikeChat,
    ...(id?.[1] === undefined ? {} : { sessionId: JSON.parse(`"${id[1]}"`) as string }),
    ...(hash === undefined ? {} : { projectHash: hash }),
  };
}

/** The id a file without a readable session id is listed under: its name without the extension. */
export function fileStem(path: string): string {
  return basename(path).replace(/\.jsonl?$/i, '');
}

/** The home a chat file lies in when it sits where Gemini CLI puts it, else its own folder. */
export function homeOf(path: string): string {
  const chats = dirname(path);
  if (basename(chats) === 'chats' && basename(dirname(dirname(chats))) === 'tmp') return dirname(dirname(dirname(chats)));
  return chats;
}

function listDir(fs: DiscoveryFs, dir: string, problems: FileProblem[]): string[] {
  try {
    return fs
      .list(dir)
      .map((e) => e.name)
      .sort();
  } catch (error) {
    if (!isNotFound(error)) problems.push({ path: dir, kind: 'unreadable', reason: errorMessage(error) });
    return [];
  }
}

/** `{ id }` remembered for a chat (null: its head names none). */
function decodeId(value: unknown): { id: string | null } | undefined {
  if (typeof value !== 'object' || value === null || !('id' in value)) return undefined;
  return value.id === null || typeof value.id === 'string' ? { id: value.id } : undefined;
}

/** Describes one chat file as a discovered session, or null when it is gone. */
export async function describeChat(path: string, home: string, fs: DiscoveryFs = uncachedFs): Promise<DiscoveredSession | null> {
  const file = statFileSync(path);
  if (file === null) return null;
  let sessionId: string | undefined;
  try {
    sessionId =
      (await fs.derive(file, 'gemini:id', decodeId, async () => ({ id: (await peekChat(path)).sessionId ?? null }))).id ?? undefined;
  } catch {
    // Unreadable now: parse reports it; the file is still listed under its name.
  }
  return { agent: 'gemini', sessionId: sessionId ?? fileStem(path), home, path, files: [file] };
}

export async function discoverGemini(home: string, fs: DiscoveryFs = uncachedFs): Promise<Discovery> {
  const problems: FileProblem[] = [];
  const byId = new Map<string, DiscoveredSession>();
  const tmp = join(home, 'tmp');
  for (const project of listDir(fs, tmp, problems)) {
    const chats = join(tmp, project, 'chats');
    for (const name of listDir(fs, chats, problems)) {
      if (!chatFile.test(name)) continue;
      const path = join(chats, name);
      let session: DiscoveredSession | null;
      try {
        session = await describeChat(path, home, fs);
      } catch (error) {
        // A link loop or a FIFO named like a chat is that file's problem; the other chats are listed.
        problems.push({ path, kind: 'unreadable', reason: errorMessage(error) });
        continue;
      }
      if (session === null) continue;
      // The same session in two files (a JSON document beside its JSONL successor): the newer wins.
      const seen = byId.get(session.sessionId);
      if (seen === undefined || (seen.files[0]?.mtimeMs ?? 0) < (session.files[0]?.mtimeMs ?? 0)) byId.set(session.sessionId, session);
    }
  }
  return { sessions: [...byId.values()], problems };
}
