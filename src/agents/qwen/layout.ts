// Where Qwen Code keeps chats: `<runtime dir>/projects/<sanitised cwd>/chats/<session id>.jsonl`.
import { basename, dirname, join } from 'node:path';
import type { HomeLookup } from '../types.js';

export const projectsDirName = 'projects';
export const chatsDirName = 'chats';

/** `QWEN_RUNTIME_DIR` (the runtime output base) else `~/.qwen`. */
export function qwenHomes(lookup: HomeLookup): string[] {
  return [lookup.env('QWEN_RUNTIME_DIR') ?? join(lookup.homedir, '.qwen')];
}

/** Qwen Code's project folder name for a working directory (`sanitizeCwd`, POSIX form). */
export function sanitizeCwd(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/** The session id a chat file is named by. */
export function chatId(path: string): string {
  return basename(path).replace(/\.jsonl$/, '');
}

/** The home a chat file lies in when it sits where Qwen Code puts it, else its own folder. */
export function homeOfChat(path: string): string {
  const chats = dirname(path);
  const projects = dirname(dirname(chats));
  if (basename(chats) === chatsDirName && basename(projects) === projectsDirName) return dirname(projects);
  return chats;
}
