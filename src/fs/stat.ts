// Cheap file facts for discovery.
import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { SessionFile } from '../agents/types.js';
import { notRegularFile } from './read-open.js';

/**
 * The file's size and mtime, or null when it does not exist or is a folder. Throws for an entry that
 * cannot be read as a file: a link loop, no permission, or a FIFO, socket or device (`NotRegularFile`),
 * so discovery reports it as unreadable instead of taking it for a missing file.
 */
export async function statFile(path: string): Promise<SessionFile | null> {
  try {
    const s = await stat(path);
    if (s.isDirectory()) return null;
    if (!s.isFile()) throw notRegularFile(path, s);
    return { path, size: s.size, mtimeMs: Math.trunc(s.mtimeMs) };
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

export function isNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `statFile` without the thread-pool round trip. */
export function statFileSync(path: string): SessionFile | null {
  try {
    const s = statSync(path, { throwIfNoEntry: false });
    if (s === undefined || s.isDirectory()) return null;
    if (!s.isFile()) throw notRegularFile(path, s);
    return { path, size: s.size, mtimeMs: Math.trunc(s.mtimeMs) };
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}
