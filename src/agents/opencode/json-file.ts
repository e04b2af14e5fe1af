// Reads one small JSON file of OpenCode's JSON tree, bounded, telling bad JSON from I/O trouble.
import { readFile, stat } from 'node:fs/promises';
import { asObject, type JsonObject } from '../../json/narrow.js';
import { errorMessage, isNotFound } from '../../fs/stat.js';
import type { FileProblem } from '../types.js';

/** Session and message files are a few KiB; parts hold tool output, which OpenCode truncates. */
export const maxSessionFileBytes = 1024 * 1024;
export const maxPartFileBytes = 64 * 1024 * 1024;

export type JsonFileResult = { value: JsonObject } | { bad: true } | { problem: FileProblem };

export async function readJsonFile(path: string, maxBytes: number): Promise<JsonFileResult> {
  let raw: string;
  try {
    const size = (await stat(path)).size;
    if (size > maxBytes) return { problem: { path, kind: 'oversized', reason: `${size} bytes is over the ${maxBytes}-byte bound for an OpenCode storage file` } };
    raw = await readFile(path, 'utf8');
  } catch (error) {
    const reason = isNotFound(error) ? 'the file is gone (OpenCode may have removed the session meanwhile)' : errorMessage(error);
    return { problem: { path, kind: 'unreadable', reason } };
  }
  try {
    const value = asObject(JSON.parse(raw));
    return value === undefined ? { bad: true } : { value };
  } catch {
    return { bad: true };
  }
}
