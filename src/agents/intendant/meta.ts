// `session_meta.json`: identity, project, name, task and status of one session (research §1.4).
// A small pretty-printed document, replaced atomically by the writer, read whole and bounded here.
import { num, obj, parseObjectLine, str, text, type JsonObject } from '../../json/narrow.js';
import { SessionDir, type ReadFailure } from './session-dir.js';

export const metaFile = 'session_meta.json';
/** Real metas are a few hundred bytes; anything this big is not one. */
export const metaMaxBytes = 1 << 20;
/** Names are cut here on write and on read (seed "Session Naming"). */
export const nameMaxChars = 180;

export interface SessionMeta {
  sessionId?: string;
  /** Local naive `YYYY-MM-DDTHH:MM:SS` (re-stamped on each meta write by the original writer). */
  createdAt?: string;
  createdAtMs?: number;
  projectRoot?: string;
  name?: string;
  task?: string;
  status?: string;
  role?: string;
  branch?: string;
  worktreePath?: string;
}

export type MetaRead = { meta: SessionMeta; problem?: { failure: ReadFailure | 'corrupt'; reason: string } };

/** Collapses whitespace and cuts to 180 characters (177 + `...`); null for an empty name. */
export function normaliseName(raw: string): string | null {
  const collapsed = raw.replace(/\s+/g, ' ').trim();
  if (collapsed === '') return null;
  const chars = Array.from(collapsed);
  return chars.length <= nameMaxChars ? collapsed : `${chars.slice(0, nameMaxChars - 3).join('')}...`;
}

function narrowMeta(doc: JsonObject): SessionMeta {
  const meta: SessionMeta = {};
  const set = <K extends keyof SessionMeta>(key: K, value: SessionMeta[K] | undefined): void => {
    if (value !== undefined) meta[key] = value;
  };
  set('sessionId', text(doc, 'session_id'));
  set('createdAt', text(doc, 'created_at'));
  set('createdAtMs', num(doc, 'created_at_ms'));
  // `projectRoot` is accepted too: writers that follow a camelCase API spell it so.
  set('projectRoot', text(doc, 'project_root') ?? text(doc, 'projectRoot'));
  const name = str(doc, 'name');
  if (name !== undefined) set('name', normaliseName(name) ?? undefined);
  set('task', text(doc, 'task'));
  set('status', text(doc, 'status'));
  set('role', text(doc, 'role'));
  const worktree = obj(doc, 'worktree');
  set('branch', text(worktree, 'branch') ?? text(doc, 'branch') ?? text(doc, 'git_branch'));
  set('worktreePath', text(worktree, 'path'));
  return meta;
}

/** Reads the meta of a session folder; a missing file is an empty meta, a corrupt one a problem. */
export async function readMeta(files: SessionDir): Promise<MetaRead> {
  const read = files.readWhole(metaFile, metaMaxBytes);
  if (!read.ok) return read.failure === 'missing' ? { meta: {} } : { meta: {}, problem: read };
  const doc = parseObjectLine(read.text);
  if (doc === undefined) {
    let reason = `${metaFile} is not a JSON object`;
    try {
      JSON.parse(read.text);
    } catch (error) {
      reason = `${metaFile} is not valid JSON (${(error as Error).message})`;
    }
    return { meta: {}, problem: { failure: 'corrupt', reason } };
  }
  return { meta: narrowMeta(doc) };
}

/**
 * The name a person gave an Intendant session (`session_meta.json` `name`, normalised), or null.
 * Exported for the scan, which shows names; never throws.
 */
export async function readIntendantName(sessionDir: string): Promise<string | null> {
  try {
    const { meta } = await readMeta(new SessionDir(sessionDir));
    return meta.name ?? null;
  } catch {
    return null;
  }
}
