// One session folder into the record: meta, spine, sidecars, and the child sessions its
// relationship rows name, nested as subagents with their own totals.
import { lstatSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { newRecord, newSubagent } from '../../record/draft.js';
import type { Detail, SessionRecord, Subagent } from '../../record/types.js';
import { errorMessage } from '../../fs/errors.js';
import type { FileProblem } from '../types.js';
import { SessionBuilder } from './build-session.js';
import { IntendantError } from './errors.js';
import type { MessageEntry } from './messages.js';
import { metaFile, readMeta, type SessionMeta } from './meta.js';
import { readLog } from './read-log.js';
import { isSafeSessionId, spineFile, type Relationship } from './relationships.js';
import { SessionDir } from './session-dir.js';
import { statusOfMeta } from './vocabulary.js';

/** Subagents nest at most this deep (a guard against pathological graphs, not a real limit). */
export const maxNesting = 8;

export interface IntendantParse {
  record: SessionRecord | null;
  meta: SessionMeta;
  cwds: string[];
  badLines: { path: string; count: number }[];
  problems: FileProblem[];
  /** Every message, superseded ones included, in source order (for the message index). */
  messages: MessageEntry[];
  /** Events outside the documented vocabulary, by name (drift, counted). */
  unknownEvents: Map<string, number>;
  tornTail: boolean;
}

export interface ParseOptions {
  detail: Detail;
  /** Relationship edges discovery read from every log under the same `logs/` folder. */
  links?: readonly Relationship[];
}

interface Walk {
  depth: number;
  /** Sessions on the path from the root, so a cycle stops instead of recursing. */
  path: Set<string>;
  cwds: string[];
  badLines: { path: string; count: number }[];
  problems: FileProblem[];
}

function addCwd(cwds: string[], cwd: string | undefined): void {
  if (cwd !== undefined && cwd !== '' && !cwds.includes(cwd)) cwds.push(cwd);
}

function isSessionFolder(dir: string): boolean {
  try {
    return lstatSync(dir).isDirectory() && lstatSync(join(dir, spineFile)).isFile();
  } catch {
    return false;
  }
}

async function parseFolder(dir: string, opts: ParseOptions, walk: Walk): Promise<IntendantParse & { subagent: Subagent | null }> {
  const sessionId = basename(dir);
  const files = new SessionDir(dir);
  const spinePath = join(dir, spineFile);
  const metaRead = await readMeta(files);
  const meta = metaRead.meta;
  if (metaRead.problem !== undefined) {
    walk.problems.push({
      path: join(dir, metaFile),
      kind: metaRead.problem.failure === 'oversized' ? 'oversized' : metaRead.problem.failure === 'corrupt' ? 'unparsed' : 'unreadable',
      reason: metaRead.problem.reason,
    });
  }
  let log;
  try {
    log = await readLog(spinePath);
  } catch (error) {
    throw new IntendantError('SpineUnreadable', `cannot read the Intendant session log ${spinePath}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  const bad = log.badLines + (log.tornTail ? 1 : 0);
  if (bad > 0) walk.badLines.push({ path: spinePath, count: bad });
  addCwd(walk.cwds, meta.projectRoot);
  addCwd(walk.cwds, meta.worktreePath);
  const base = {
    meta,
    cwds: walk.cwds,
    badLines: walk.badLines,
    problems: walk.problems,
    unknownEvents: log.unknownEvents,
    tornTail: log.tornTail,
  };
  if (log.events === 0) return { ...base, record: null, messages: [], subagent: null };

  const logsDir = dirname(dir);
  const builder = new SessionBuilder({
    sessionId,
    files,
    spinePath,
    meta,
    log,
    links: opts.links ?? [],
    detail: opts.detail,
    loadChild: async (rel: Relationship) => {
      if (!isSafeSessionId(rel.child) || walk.path.has(rel.child) || walk.depth >= maxNesting) return null;
      const childDir = join(logsDir, rel.child);
      if (!isSessionFolder(childDir)) {
        walk.problems.push({
          path: childDir,
          kind: 'unreadable',
          reason: `subagent session ${rel.child} (${rel.kind}) named by ${spinePath} has no session log here`,
        });
        return null;
      }
      walk.path.add(rel.child);
      try {
        const child = await parseFolder(childDir, opts, { ...walk, depth: walk.depth + 1 });
        return child.subagent;
      } finally {
        walk.path.delete(rel.child);
      }
    },
  });
  const built = await builder.build();
  walk.problems.push(...built.problems);

  const record = newRecord('intendant', sessionId);
  record.repo = meta.projectRoot ?? meta.worktreePath ?? '';
  record.branch = meta.branch ?? null;
  record.models = built.models;
  record.started_at = built.started_at;
  record.ended_at = built.ended_at;
  record.turns = built.turns;
  record.totals = built.totals;
  record.usage_apart = built.usageApart;

  const subagent = newSubagent(sessionId);
  subagent.name = meta.name ?? meta.role ?? null;
  subagent.description = meta.task ?? null;
  subagent.models = built.models;
  subagent.started_at = built.started_at;
  subagent.ended_at = built.ended_at;
  subagent.status = statusOfMeta(meta.status);
  subagent.totals = built.totals;
  subagent.usage_apart = built.usageApart;
  subagent.turns = built.turns;
  return { ...base, record, messages: built.messages, subagent };
}

/** Parses one session folder (`<state-root>/logs/<id>/`). Throws only when its spine cannot be read. */
export async function parseIntendantSession(dir: string, opts: ParseOptions): Promise<IntendantParse> {
  const walk: Walk = { depth: 0, path: new Set([basename(dir)]), cwds: [], badLines: [], problems: [] };
  const r = await parseFolder(dir, opts, walk);
  return {
    record: r.record,
    meta: r.meta,
    cwds: r.cwds,
    badLines: r.badLines,
    problems: r.problems,
    messages: r.messages,
    unknownEvents: r.unknownEvents,
    tornTail: r.tornTail,
  };
}
