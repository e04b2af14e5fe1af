// `session_meta.json` as a reader sees it: the fields that describe a session, each read on its own
// so a drifted or partly foreign meta (another writer's spelling, a field of the wrong type) still
// gives what it does say. The one reading for the Intendant reader, its name lookups and `scan`;
// `parseMeta` (meta.ts) stays strict because it guards a rewrite.
import { type JsonObject, num, obj, str, text } from '../json/narrow.js';
import { normaliseNameOrNull } from './name-rule.js';

export interface MetaView {
  sessionId?: string;
  /** Local naive `YYYY-MM-DDTHH:MM:SS` (re-stamped on each meta write by the original writer). */
  createdAt?: string;
  createdAtMs?: number;
  projectRoot?: string;
  /** Normalised as every name is (session-name.ts); absent when only whitespace. */
  name?: string;
  task?: string;
  status?: string;
  role?: string;
  branch?: string;
  worktreePath?: string;
}

/** Reads a parsed meta document field by field; never throws. */
export function metaView(doc: JsonObject): MetaView {
  const meta: MetaView = {};
  const set = <K extends keyof MetaView>(key: K, value: MetaView[K] | undefined): void => {
    if (value !== undefined) meta[key] = value;
  };
  set('sessionId', text(doc, 'session_id'));
  set('createdAt', text(doc, 'created_at'));
  set('createdAtMs', num(doc, 'created_at_ms'));
  // `projectRoot` is accepted too: writers that follow a camelCase API spell it so.
  set('projectRoot', text(doc, 'project_root') ?? text(doc, 'projectRoot'));
  const name = str(doc, 'name');
  if (name !== undefined) set('name', normaliseNameOrNull(name) ?? undefined);
  set('task', text(doc, 'task'));
  set('status', text(doc, 'status'));
  set('role', text(doc, 'role'));
  const worktree = obj(doc, 'worktree');
  set('branch', text(worktree, 'branch') ?? text(doc, 'branch') ?? text(doc, 'git_branch'));
  set('worktreePath', text(worktree, 'path'));
  return meta;
}
