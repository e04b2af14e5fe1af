// state.json: the session's working directory, times, title and agent tree. A small bounded
// document, so it is read whole once its size is checked (state.json ≤ 2 MiB, seed 000).
import { closeSync } from 'node:fs';
import { type OpenedFile, openRegularSync, readOpenedSync } from '../../fs/read-open.js';
import { asObject, obj, str, text, type JsonObject } from '../../json/narrow.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import type { FileProblem } from '../types.js';

export interface KimiAgentMeta {
  type: string | null;
  parentAgentId: string | null;
}

export interface KimiState {
  workDir: string | undefined;
  createdAt: string | undefined;
  updatedAt: string | undefined;
  title: string | undefined;
  agents: Map<string, KimiAgentMeta>;
}

export type StateRead = { state: KimiState | null; problem: FileProblem | null };

function agentsOf(value: JsonObject | undefined): Map<string, KimiAgentMeta> {
  const agents = new Map<string, KimiAgentMeta>();
  if (value === undefined) return agents;
  for (const [id, raw] of Object.entries(value)) {
    const meta = asObject(raw);
    agents.set(id, { type: str(meta, 'type') ?? null, parentAgentId: text(meta, 'parentAgentId') ?? null });
  }
  return agents;
}

/** Narrows a parsed state.json; every field is optional. */
export function stateFromJson(value: unknown): KimiState | null {
  const o = asObject(value);
  if (o === undefined) return null;
  return {
    workDir: text(o, 'workDir'),
    createdAt: text(o, 'createdAt'),
    updatedAt: text(o, 'updatedAt'),
    title: text(o, 'title'),
    agents: agentsOf(obj(o, 'agents')),
  };
}

/**
 * Reads state.json (a missing file is no state, an oversized or broken one is a problem): a small
 * file, read in a few synchronous calls. One open's fstat gives the size the bound is checked
 * against, so the file is not stat'ed again.
 */
export function readStateFileSync(path: string, maxBytes: number): StateRead {
  let file: OpenedFile;
  try {
    file = openRegularSync(path);
  } catch (error) {
    if (isNotFound(error)) return { state: null, problem: null };
    return { state: null, problem: { path, kind: 'unreadable', reason: errorMessage(error) } };
  }
  let raw: string;
  try {
    if (file.size > maxBytes) {
      return {
        state: null,
        problem: { path, kind: 'oversized', reason: `state.json is ${file.size} bytes, over the ${maxBytes}-byte bound; not read` },
      };
    }
    raw = readOpenedSync(file);
  } catch (error) {
    return { state: null, problem: { path, kind: 'unreadable', reason: errorMessage(error) } };
  } finally {
    closeSync(file.fd);
  }
  try {
    const state = stateFromJson(JSON.parse(raw));
    if (state !== null) return { state, problem: null };
  } catch {
    // Falls through to the problem below: a torn state.json is reported, the wires still read.
  }
  return { state: null, problem: { path, kind: 'unparsed', reason: 'state.json is not a JSON object' } };
}
