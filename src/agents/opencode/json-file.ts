// Reads one small JSON file of OpenCode's JSON tree, bounded, telling bad JSON from I/O trouble.
// Synchronous on purpose: a tree holds thousands of files of a few KiB, and a promise round trip
// through the thread pool per file cost more than the read itself (parsing runs in worker threads).
import { closeSync } from 'node:fs';
import { readBytesSync } from '../../fs/read-exact.js';
import { openRegularSync, readSeenBytesSync } from '../../fs/read-open.js';
import { asObject, type JsonObject } from '../../json/narrow.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import type { FileProblem, SessionFile } from '../types.js';

/** Session and message files are a few KiB; parts hold tool output, which OpenCode truncates. */
export const maxSessionFileBytes = 1024 * 1024;
export const maxPartFileBytes = 64 * 1024 * 1024;

export type JsonFileResult = { value: JsonObject } | { bad: true } | { problem: FileProblem };

/** What a read found: the parse result and, when the file could be opened, its size and mtime. */
export type JsonFileRead = JsonFileResult & { file?: SessionFile };

function readProblem(path: string, error: unknown): { problem: FileProblem } {
  const reason = isNotFound(error) ? 'the file is gone (OpenCode may have removed the session meanwhile)' : errorMessage(error);
  return { problem: { path, kind: 'unreadable', reason } };
}

/** The bytes of a file parsed: `parseBytes` first (see `readJsonFileSync`), else decoded and parsed whole. */
function parsed(raw: Buffer, parseBytes?: (b: Buffer) => JsonObject | undefined): JsonFileResult {
  const cut = parseBytes?.(raw);
  if (cut !== undefined) return { value: cut };
  try {
    const value = asObject(JSON.parse(raw.toString('utf8')));
    return value === undefined ? { bad: true } : { value };
  } catch {
    return { bad: true };
  }
}

/**
 * One open, fstat, read and close; `file` carries the size and mtime the descriptor showed.
 * `parseBytes` is tried on the raw bytes first (a summary's cut, see summary-cut.ts); when it
 * answers undefined the file is decoded and parsed whole.
 */
export function readJsonFileSync(path: string, maxBytes: number, parseBytes?: (b: Buffer) => JsonObject | undefined): JsonFileRead {
  let fd: number;
  let st: { size: number; mtimeMs: number };
  try {
    const opened = openRegularSync(path);
    fd = opened.fd;
    st = opened;
  } catch (error) {
    return readProblem(path, error);
  }
  let raw: Buffer;
  let file: SessionFile;
  try {
    if (st.size > maxBytes)
      return {
        problem: { path, kind: 'oversized', reason: `${st.size} bytes is over the ${maxBytes}-byte bound for an OpenCode storage file` },
      };
    file = { path, size: st.size, mtimeMs: Math.trunc(st.mtimeMs) };
    raw = readBytesSync(fd, 0, st.size);
  } catch (error) {
    return readProblem(path, error);
  } finally {
    closeSync(fd);
  }
  return { ...parsed(raw, parseBytes), file };
}

/**
 * `readJsonFileSync` of a file discovery has just stat'ed, trusting the size it saw
 * (`readSeenBytesSync`); a file that is no longer what discovery saw, or over the bound, is read
 * again through `readJsonFileSync`, which tells what it is. The answer carries no `file`: the
 * caller has it.
 */
export function readSeenJsonFileSync(
  seen: SessionFile,
  maxBytes: number,
  parseBytes?: (b: Buffer) => JsonObject | undefined,
): JsonFileRead {
  const raw = seen.size > maxBytes ? undefined : readSeenBytesSync(seen.path, seen.size);
  return raw === undefined ? readJsonFileSync(seen.path, maxBytes, parseBytes) : parsed(raw, parseBytes);
}

export async function readJsonFile(path: string, maxBytes: number): Promise<JsonFileResult> {
  const r = readJsonFileSync(path, maxBytes);
  if ('problem' in r) return { problem: r.problem };
  return 'bad' in r ? { bad: true } : { value: r.value };
}
