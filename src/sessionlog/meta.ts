// `session_meta.json`: identity and status of one session, pretty JSON replaced atomically under
// a lock. `created_at_ms` is set once and never re-stamped (`updated_at_ms` moves instead), and
// fields this library does not know are carried over on every rewrite (research §9 item 2).
import { readRegularFile, readRegularFileSync } from '../fs/read-open.js';
import { join } from 'node:path';
import { z } from 'zod';
import { SessionLogError } from './errors.js';
import { jsonErrorOffset, lineColumn } from './json-error.js';
import { type LockHolder, withLockSync } from '../fs/lock.js';
import { files } from './paths.js';
import { writeFileAtomicSync } from '../fs/atomic-write.js';

export const sessionStatuses = ['running', 'idle', 'completed', 'interrupted'] as const;
export type SessionStatus = (typeof sessionStatuses)[number];

/** Roles of sessions another session started; `--continue` never picks them. */
export const subAgentRoles = ['orchestrator', 'research', 'implementation', 'testing'] as const;

const worktreeSchema = z.looseObject({
  branch: z.string(),
  path: z.string(),
  base_root: z.string(),
  base_branch: z.string().optional(),
  base_sha: z.string().optional(),
});

export const sessionMetaSchema = z.looseObject({
  session_id: z.string().min(1),
  /** Local naive `YYYY-MM-DDTHH:MM:SS` of creation (the original re-stamped it; this library does not). */
  created_at: z.string().optional(),
  created_at_ms: z.number().int().optional(),
  updated_at_ms: z.number().int().optional(),
  project_root: z.string().optional(),
  name: z.string().optional(),
  task: z.string().optional(),
  /** One of `sessionStatuses` when this library wrote it; other writers may use other words. */
  status: z.string().optional(),
  last_turn: z.number().int().nonnegative().optional(),
  role: z.string().nullable().optional(),
  rounds: z.number().int().nonnegative().optional(),
  worktree: worktreeSchema.optional(),
  /** The next message seq to hand out: a rewound tail's seqs are never reused after a resume. */
  next_message_seq: z.number().int().positive().optional(),
  /** Present when the requested folder could not be opened and this private one was used instead. */
  fallback: z.looseObject({ requested_dir: z.string(), reason: z.string(), at_ms: z.number() }).optional(),
});
export type SessionMeta = z.infer<typeof sessionMetaSchema>;

export function metaPath(dir: string): string {
  return join(dir, files.meta);
}

function lineOfKey(text: string, key: string | number | symbol | undefined): number {
  if (typeof key !== 'string') return 1;
  const at = text.indexOf(`"${key}"`);
  return at === -1 ? 1 : lineColumn(text, at).line;
}

/** Parses meta text; a corrupt file is a CorruptMeta error naming the file, line and column. */
export function parseMeta(text: string, path: string): SessionMeta {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const { line, column } = lineColumn(text, jsonErrorOffset(text) ?? 0);
    throw new SessionLogError(
      'CorruptMeta',
      `${path}:${line}:${column}: not valid JSON; repair or delete the file (session.jsonl still holds the session)`,
    );
  }
  const parsed = sessionMetaSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path[0];
    const field = issue?.path.join('.') || '(top level)';
    throw new SessionLogError(
      'CorruptMeta',
      `${path}:${lineOfKey(text, key)}: ${field}: ${issue?.message ?? 'invalid'}; repair the field or delete the file`,
    );
  }
  return parsed.data;
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The meta of the session in `dir`, null when it has none; CorruptMeta when it cannot be read. */
export function readMetaSync(dir: string): SessionMeta | null {
  const path = metaPath(dir);
  let text: string;
  try {
    text = readRegularFileSync(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  return parseMeta(text, path);
}

export async function readMeta(dir: string): Promise<SessionMeta | null> {
  const path = metaPath(dir);
  let text: string;
  try {
    text = await readRegularFile(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  return parseMeta(text, path);
}

const keyOrder = [
  'session_id',
  'created_at',
  'created_at_ms',
  'updated_at_ms',
  'project_root',
  'name',
  'task',
  'status',
  'last_turn',
  'role',
  'rounds',
  'worktree',
  'next_message_seq',
  'fallback',
];

/** Known fields first in a fixed order, then whatever else the file held, in its own order. */
function ordered(meta: SessionMeta): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const all = meta as Record<string, unknown>;
  for (const key of keyOrder) if (all[key] !== undefined) out[key] = all[key];
  for (const [key, value] of Object.entries(all)) if (!(key in out) && value !== undefined) out[key] = value;
  return out;
}

/** Writes `meta` atomically (pretty, as the format has it). Callers normally use `updateMetaSync`. */
export function writeMetaSync(dir: string, meta: SessionMeta): void {
  writeFileAtomicSync(metaPath(dir), `${JSON.stringify(ordered(meta), null, 2)}\n`);
}

/**
 * Read-modify-write of the meta under its lock, so a rename from another process and the live
 * writer never lose each other's fields. `change` gets the current meta (null when none) and
 * returns the next; `created_at`/`created_at_ms` already present are kept whatever it returns.
 */
export function updateMetaSync(dir: string, change: (current: SessionMeta | null) => SessionMeta, nowMs: number): SessionMeta {
  return withLockSync(
    `${metaPath(dir)}.lock`,
    () => {
      const current = readMetaSync(dir);
      const next: SessionMeta = { ...change(current) };
      if (current?.created_at !== undefined) next.created_at = current.created_at;
      if (current?.created_at_ms !== undefined) next.created_at_ms = current.created_at_ms;
      next.updated_at_ms = nowMs;
      writeMetaSync(dir, next);
      return next;
    },
    metaLockOptions,
  );
}

const metaLockOptions = {
  busy: (path: string, holder: LockHolder | null) =>
    new SessionLogError(
      'LockTimeout',
      `${path} is held by ${holder === null ? 'an unknown process' : `process ${holder.pid} on ${holder.host}`}; if that process is stuck, stop it or delete the lock file`,
    ),
};
