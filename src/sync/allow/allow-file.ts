// The opt-in file (seed 003 "Opt-in is per repository"): `$XDG_CONFIG_HOME/agentlog/allow.json`, else
// `~/.config/agentlog/allow.json`, listing absolute paths each with a detail level. Written
// atomically with mode 0600. A corrupt file, or one a newer version wrote, is an error: read as
// empty, it would sync exactly the sessions a person meant to keep off the wire.
import { readFile } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../../fs/atomic-write.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { detailLevels, type Detail } from '../../record/types.js';
import { SyncError } from './errors.js';
import { normalisePath } from './opt-in.js';

export const allowFileVersion = 1;

const allowFileSchema = z
  .object({
    version: z.literal(allowFileVersion),
    allowed: z.record(
      z.string().refine((p) => p.startsWith('/'), 'an absolute path'),
      z.enum(detailLevels),
    ),
  })
  .strict();

/** Allowed roots and their levels (absolute, normalised paths). */
export type Allowlist = ReadonlyMap<string, Detail>;

/** agentlog's config folder: `$XDG_CONFIG_HOME/agentlog` when that is absolute, else `~/.config/agentlog`. */
export function configDir(env: (name: string) => string | undefined, home: string): string {
  const xdg = env('XDG_CONFIG_HOME');
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'agentlog');
  if (home === '' || !isAbsolute(home))
    throw new SyncError('NoConfigDir', 'usage', 'no config folder: set XDG_CONFIG_HOME or HOME to an absolute path');
  return join(home, '.config', 'agentlog');
}

export function allowFilePath(dir: string): string {
  return join(dir, 'allow.json');
}

/** The allowlist at `path`; a missing file allows nothing. */
export async function readAllowlist(path: string): Promise<Allowlist> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return new Map();
    throw new SyncError('AllowlistUnreadable', 'failed', `cannot read the opt-in file ${path}: ${errorMessage(error)}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SyncError('AllowlistUnreadable', 'failed', `${path} is not a valid opt-in file (not JSON); fix or remove it`, {
      cause: error,
    });
  }
  const version = typeof json === 'object' && json !== null && 'version' in json ? (json as { version: unknown }).version : undefined;
  if (typeof version === 'number' && Number.isInteger(version) && version > allowFileVersion)
    throw new SyncError(
      'AllowlistTooNew',
      'failed',
      `${path} was written by a newer agentlog (version ${version}; this one reads ${allowFileVersion}): upgrade agentlog`,
    );
  const parsed = allowFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? '' : ` (at ${issue.path.join('.') || 'the top'}: ${issue.message})`;
    throw new SyncError('AllowlistUnreadable', 'failed', `${path} is not a valid opt-in file${where}; fix or remove it`);
  }
  const list = new Map<string, Detail>();
  for (const [root, detail] of Object.entries(parsed.data.allowed)) list.set(normalisePath(root) ?? root, detail);
  return list;
}

/** Writes the allowlist, paths sorted, atomically, mode 0600 (its folder 0700). */
export function writeAllowlist(path: string, list: Allowlist): void {
  const allowed: Record<string, Detail> = {};
  for (const p of [...list.keys()].sort()) allowed[p] = list.get(p)!;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(path, `${JSON.stringify({ version: allowFileVersion, allowed }, null, 2)}\n`, { mode: 0o600 });
}
