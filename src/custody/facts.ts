// Custody facts: written beside a session's main file on its first keep, never rewritten, so the
// kept copy says where it came from and since when.
import { link, open, readFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { errorCode } from '../fs/stat.js';
import { obj, parseObjectLine, str } from '../json/narrow.js';
import { agentIds } from '../record/types.js';
import { custodyErrors } from './errors.js';
import { factsRel, tempPath } from './paths.js';
import { fsyncDir, lstatNow, lstatOrNull, openTemp, unlinkQuiet, writeFull } from './safe-fs.js';

export const custodyFactsSchema = z.object({
  version: z.literal(1),
  agent: z.enum(agentIds),
  session_id: z.string(),
  installation_key: z.string(),
  /** The working directory when discovery knew it, else null. */
  cwd: z.string().nullable(),
  /** The vendor file the main transcript was first kept from. */
  source_path: z.string(),
  first_kept_at: z.string(),
  agentlog_version: z.string(),
});
export type CustodyFacts = z.infer<typeof custodyFactsSchema>;

/**
 * Writes the facts unless they exist. Publication is a hard link of a complete temp file, so the
 * facts are whole or absent, and of two writers only the first wins.
 */
export async function writeFactsOnce(root: string, mainRel: string, make: () => Promise<CustodyFacts>): Promise<'written' | 'present'> {
  const path = join(root, factsRel(mainRel));
  const st = lstatNow(path);
  if (st !== null) {
    if (!st.isFile()) throw custodyErrors.unsafePath(path, 'custody facts must be a regular file');
    return 'present';
  }
  const facts = await make();
  const tmp = tempPath(path);
  const handle = await openTemp(tmp);
  try {
    await writeFull(handle, Buffer.from(`${JSON.stringify(facts, null, 2)}\n`), 0);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(tmp, path);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return 'present';
    throw custodyErrors.io(path, 'write custody facts to', error);
  } finally {
    await unlinkQuiet(tmp);
  }
  await fsyncDir(dirname(path));
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

/**
 * The working directory a transcript's first lines name (`cwd`, or a wrapped `payload.cwd`), read from
 * its first 64 KiB only; null when none does. Used when discovery did not learn the cwd.
 */
export async function peekCwd(path: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    for (const line of buf.toString('utf8', 0, bytesRead).split('\n')) {
      const o = parseObjectLine(line);
      const cwd = str(o, 'cwd') ?? str(obj(o, 'payload'), 'cwd');
      if (cwd !== undefined && cwd !== '') return cwd;
    }
    return null;
  } finally {
    await handle.close();
  }
}
