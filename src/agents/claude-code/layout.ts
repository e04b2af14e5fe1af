// Where Claude Code keeps its files: the home, project folders, session and subagent file names.
import { basename, dirname, join, sep } from 'node:path';
import { readExact } from '../../fs/read-exact.js';
import { openRegular } from '../../fs/read-open.js';
import { parseObjectLine, str } from '../../json/narrow.js';
import type { HomeLookup } from '../types.js';

/** `CLAUDE_CONFIG_DIR`, else `<home>/.claude` (Claude Code's own convention). */
export function claudeHomes(lookup: HomeLookup): string[] {
  return [lookup.env('CLAUDE_CONFIG_DIR') ?? join(lookup.homedir, '.claude')];
}

export const projectsDirName = 'projects';
export const subagentsDirName = 'subagents';
export const jsonlExt = '.jsonl';
export const metaExt = '.meta.json';
const agentPrefix = 'agent-';

/**
 * `join(dir, name)` for a folder path `join` already normalised and an entry name read from it (no
 * `/`, never `.` or `..`): a concatenation, since discovery and keeps build thousands of these.
 */
export function childPath(dir: string, name: string): string {
  return dir.endsWith(sep) ? `${dir}${name}` : `${dir}${sep}${name}`;
}

const hex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);

/** True for the 8-4-4-4-12 hex form Claude Code names session files with. */
export function isUuid(text: string): boolean {
  if (text.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = text.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false;
    } else if (!hex(c)) return false;
  }
  return true;
}

/** `agent-<id>.jsonl` → `<id>`; undefined for any other name. */
export function agentIdOfTranscript(name: string): string | undefined {
  if (!name.startsWith(agentPrefix) || !name.endsWith(jsonlExt)) return undefined;
  const id = name.slice(agentPrefix.length, -jsonlExt.length);
  return id === '' ? undefined : id;
}

/** `agent-<id>.meta.json` → `<id>`; undefined for any other name. */
export function agentIdOfMeta(name: string): string | undefined {
  if (!name.startsWith(agentPrefix) || !name.endsWith(metaExt)) return undefined;
  const id = name.slice(agentPrefix.length, -metaExt.length);
  return id === '' ? undefined : id;
}

/** The subagent id a session's extra file stands for (transcript or meta), from its name. */
export function agentIdOfFile(path: string): string | undefined {
  const name = basename(path);
  return agentIdOfTranscript(name) ?? agentIdOfMeta(name) ?? (name.endsWith(jsonlExt) ? name.slice(0, -jsonlExt.length) : undefined);
}

/**
 * The home a file belongs to: `<H>` for `<H>/projects/<dir>/<file>` and for
 * `<H>/projects/<dir>/<session>/subagents/<file>`, else the file's own folder (a loose file).
 */
export function homeOfFile(path: string): string {
  const dir = dirname(path);
  const up1 = dirname(dir);
  if (basename(up1) === projectsDirName) return dirname(up1);
  if (basename(dir) === subagentsDirName) {
    const projects = dirname(dirname(up1));
    if (basename(projects) === projectsDirName) return dirname(projects);
  }
  return dir;
}

const headBytes = 64 * 1024;

/** The first bytes of a file as text (a whole first line when it fits), or '' when empty. */
export async function readHead(path: string, bytes = headBytes): Promise<string> {
  const { handle } = await openRegular(path);
  try {
    const buf = Buffer.allocUnsafe(bytes);
    return buf.toString('utf8', 0, await readExact(handle.fd, buf, bytes, 0));
  } finally {
    await handle.close();
  }
}

/** The `sessionId` of the first line that names one in `head` (a cheap discovery peek, no full parse). */
export function sessionIdInHead(head: string): string | undefined {
  let start = 0;
  while (start < head.length) {
    let end = head.indexOf('\n', start);
    if (end === -1) end = head.length;
    const line = head.slice(start, end);
    if (line.includes('"sessionId"')) {
      const id = str(parseObjectLine(line), 'sessionId');
      if (id !== undefined && id !== '') return id;
      // A first line longer than the head: fall back to the raw field.
      const at = line.indexOf('"sessionId":"');
      if (at !== -1) {
        const from = at + '"sessionId":"'.length;
        const to = line.indexOf('"', from);
        if (to > from) return line.slice(from, to);
      }
    }
    start = end + 1;
  }
  return undefined;
}
