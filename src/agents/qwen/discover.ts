// Finds Qwen Code chats: `projects/*/chats/*.jsonl` under a home, each file one session named by its
// id. Cheap: a directory walk and one bounded first line per file (for the working directory), both
// remembered by the scan's discovery cache while the folder or file is unchanged.
import { join, resolve } from 'node:path';
import { type DiscoveryFs, uncachedFs } from '../../fs/dir-listing.js';
import { forEachLineSync, readFirstLineSync } from '../../fs/read-lines.js';
import { statFileSync } from '../../fs/stat.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { parseObjectLine, text } from '../../json/narrow.js';
import { decodeCwd } from '../remembered-cwd.js';
import type { DiscoveredSession, Discovery, FileProblem } from '../types.js';
import { isQwenLine } from './chat-record.js';
import { chatId, chatsDirName, homeOfChat, projectsDirName } from './layout.js';

const headBytes = 1 << 20;
/** Lines `claim` reads before deciding a file is not a Qwen Code chat (system records may come first). */
const claimLines = 32;

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

/** Describes one chat file, or null when it is gone. The first record names the working directory. */
export async function describeChat(path: string, home: string, fs: DiscoveryFs = uncachedFs): Promise<DiscoveredSession | null> {
  const file = statFileSync(path);
  if (file === null) return null;
  const session: DiscoveredSession = { agent: 'qwen', sessionId: chatId(path), home, path, files: [file] };
  const { cwd } = await fs.derive(file, 'qwen:cwd', decodeCwd, async () => ({
    cwd: text(parseObjectLine(readFirstLineSync(path, headBytes) ?? ''), 'cwd') ?? null,
  }));
  if (cwd !== null) session.cwd = cwd;
  return session;
}

export async function discoverQwen(home: string, fs: DiscoveryFs = uncachedFs): Promise<Discovery> {
  const problems: FileProblem[] = [];
  const sessions: DiscoveredSession[] = [];
  const projects = join(home, projectsDirName);
  for (const project of listDir(fs, projects, problems)) {
    const chats = join(projects, project, chatsDirName);
    for (const name of listDir(fs, chats, problems)) {
      if (!name.endsWith('.jsonl')) continue;
      const path = join(chats, name);
      try {
        const session = await describeChat(path, home, fs);
        if (session !== null) sessions.push(session);
      } catch (error) {
        // A FIFO or a link loop named like a chat is that file's problem; the other chats are listed.
        problems.push({ path, kind: 'unreadable', reason: errorMessage(error) });
      }
    }
  }
  return { sessions, problems };
}

/** A `.jsonl` file anywhere whose first records are Qwen Code chat records. */
export async function claimQwen(path: string): Promise<DiscoveredSession | null> {
  const abs = resolve(path);
  if (!abs.endsWith('.jsonl')) return null;
  try {
    if (statFileSync(abs) === null) return null;
    let seen = 0;
    let qwen = false;
    forEachLineSync(
      abs,
      (line) => {
        if (line.trim() === '') return true;
        if (isQwenLine(parseObjectLine(line))) qwen = true;
        return !qwen && ++seen < claimLines;
      },
      { maxLineBytes: headBytes },
    );
    return qwen ? await describeChat(abs, homeOfChat(abs)) : null;
  } catch {
    return null;
  }
}
