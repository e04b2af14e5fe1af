// Custody facts: written beside a session's main file on its first keep, never rewritten, so the
// kept copy says where it came from and since when.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { agentIds } from '../record/types.js';
import { custodyErrors } from './errors.js';
import { factsRel } from './paths.js';
import type { Publisher } from './publisher.js';
import { fillTempFile, writeAt } from './fd-io.js';
import { lstatNow, lstatOrNull } from './safe-fs.js';

export const custodyFactsSchema = z.object({
  version: z.literal(1),
  agent: z.enum(agentIds),
  session_id: z.string(),
  installation_key: z.string(),
  /** The working directory when discovery (or the reader's `cwd`) knew it, else null. */
  cwd: z.string().nullable(),
  /** The vendor file the main transcript was first kept from. */
  source_path: z.string(),
  first_kept_at: z.string(),
  agentlog_version: z.string(),
});
export type CustodyFacts = z.infer<typeof custodyFactsSchema>;

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
    const parsed = custodyFactsSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
