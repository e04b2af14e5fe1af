// Custody facts: written beside a session's main file on its first keep, never rewritten, so the
// kept copy says where it came from and since when.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isObject } from '../json/narrow.js';
import { type AgentId, agentIds } from '../record/types.js';
import { custodyErrors } from './errors.js';
import { factsRel } from './paths.js';
import type { Publisher } from './publisher.js';
import { fillTempFile, writeAt } from './fd-io.js';
import { lstatNow, lstatOrNull } from './safe-fs.js';

export interface CustodyFacts {
  version: 1;
  agent: AgentId;
  session_id: string;
  installation_key: string;
  /** The working directory when discovery (or the reader's `cwd`) knew it, else null. */
  cwd: string | null;
  /** The vendor file the main transcript was first kept from. */
  source_path: string;
  first_kept_at: string;
  agentlog_version: string;
}

/**
 * The facts in a parsed file, or null when any field is missing or of the wrong type. Checked by
 * hand, not with a zod schema, so reading a session (`show`, `tail`) does not load zod.
 */
export function asCustodyFacts(raw: unknown): CustodyFacts | null {
  if (!isObject(raw)) return null;
  const { version, agent, session_id, installation_key, cwd, source_path, first_kept_at, agentlog_version } = raw;
  const id = agentIds.find((a) => a === agent);
  if (version !== 1 || id === undefined || (cwd !== null && typeof cwd !== 'string')) return null;
  if (typeof session_id !== 'string' || typeof installation_key !== 'string' || typeof source_path !== 'string') return null;
  if (typeof first_kept_at !== 'string' || typeof agentlog_version !== 'string') return null;
  return { version, agent: id, session_id, installation_key, cwd, source_path, first_kept_at, agentlog_version };
}

/**
 * Writes the facts unless they exist, through the keep's publisher: the temp is made durable with the
 * batch and then linked into place, so the facts are whole or absent, and an existing file is kept.
 */
export async function stageFactsOnce(
  root: string,
  mainRel: string,
  make: () => Promise<CustodyFacts>,
  publisher: Publisher,
): Promise<'written' | 'present'> {
  const path = join(root, factsRel(mainRel));
  const st = lstatNow(path);
  if (st !== null) {
    if (!st.isFile()) throw custodyErrors.unsafePath(path, 'custody facts must be a regular file');
    return 'present';
  }
  const bytes = Buffer.from(`${JSON.stringify(await make(), null, 2)}\n`);
  const tmp = await fillTempFile(path, (fd) => writeAt(fd, bytes, 0));
  await publisher.stage(tmp, path, 'link', bytes.length);
  return 'written';
}

/** The facts kept beside a main file, or null when there are none (or they do not parse). */
export async function readFacts(root: string, mainRel: string): Promise<CustodyFacts | null> {
  const path = join(root, factsRel(mainRel));
  const st = await lstatOrNull(path);
  if (st === null || !st.isFile() || st.size > 64 * 1024) return null;
  try {
    return asCustodyFacts(JSON.parse(await readFile(path, 'utf8')));
  } catch {
    return null;
  }
}
