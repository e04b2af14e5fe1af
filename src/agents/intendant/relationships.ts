// The session graph: `session_relationship` rows (parent → child, a kind) anywhere under a logs
// folder, read so discovery can nest children in their parents and list them once.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { asArray, asObject, num, parseObjectLine, str, text } from '../../json/narrow.js';
import { type DiscoveryFs, uncachedFs } from '../../fs/dir-listing.js';
import type { FileProblem, SessionFile } from '../types.js';
import { fileOfStats } from '../../fs/stat.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { linesContaining } from './grep-lines.js';
import { type LogRow, toLogRow } from './log-row.js';
import { nestsAsSubagent } from './vocabulary.js';

export interface Relationship {
  parent: string;
  child: string;
  /** `subagent`, `side`, `fork`, … (open vocabulary). */
  kind: string;
  tsMs?: number;
  /** The launching runtime command's nonce, when the row names one. */
  nonce?: number;
}

export const spineFile = 'session.jsonl';
const marker = '"session_relationship"';

/** A session id that can name a folder beside this one (no separators, no climbing). */
export function isSafeSessionId(id: string): boolean {
  return id !== '' && id !== '.' && id !== '..' && !/[\\/\0]/.test(id);
}

function fromData(data: LogRow['data'], tsMs: number | undefined): Relationship | undefined {
  // Field names as the original writes them; `parent`/`child`/`kind` as a camel-free fallback.
  const parent = text(data, 'parent_session_id') ?? text(data, 'parent');
  const child = text(data, 'child_session_id') ?? text(data, 'child');
  if (parent === undefined || child === undefined || parent === child) return undefined;
  if (!isSafeSessionId(child) || !isSafeSessionId(parent)) return undefined;
  const rel: Relationship = { parent, child, kind: str(data, 'relationship') ?? str(data, 'kind') ?? 'subagent' };
  if (tsMs !== undefined) rel.tsMs = tsMs;
  const nonce = num(data, 'nonce') ?? num(data, 'call_nonce');
  if (nonce !== undefined) rel.nonce = nonce;
  return rel;
}

export function relationshipOf(row: LogRow): Relationship | undefined {
  return row.event === 'session_relationship' ? fromData(row.data, row.ts_ms) : undefined;
}

export interface SessionFolder {
  id: string;
  dir: string;
  /** The spine as the listing's lstat found it (its size and mtime; the stat rides along, see `statsOf`). */
  spine?: SessionFile;
}

/** Every session folder (a real directory holding a regular `session.jsonl`) under a logs folder. */
export async function sessionFolders(logsDir: string, fs: DiscoveryFs = uncachedFs): Promise<SessionFolder[]> {
  let entries;
  try {
    entries = fs.list(logsDir);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
  const out: SessionFolder[] = [];
  for (const e of entries) {
    // Dirent types come from lstat: a symlinked session folder is not followed.
    if (e.kind !== 'dir') continue;
    const dir = join(logsDir, e.name);
    const spinePath = join(dir, spineFile);
    try {
      const st = lstatSync(spinePath);
      // Kept: discovery's cache and the session's file list take this stat instead of two more.
      if (st.isFile()) out.push({ id: e.name, dir, spine: fileOfStats(spinePath, st) });
    } catch {
      // No spine: runtime-only or half-created folders are not sessions.
    }
  }
  out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out;
}

/** The relationship rows of one spine, in file order. */
async function spineRelationships(path: string): Promise<Relationship[]> {
  const out: Relationship[] = [];
  await linesContaining(path, marker, (line) => {
    const obj = parseObjectLine(line);
    const row = obj === undefined ? undefined : toLogRow(obj, 0);
    const rel = row === undefined ? undefined : relationshipOf(row);
    if (rel !== undefined) out.push(rel);
  });
  return out;
}

/** Relationships remembered as JSON, or undefined when the value is not a list of them. */
function decodeRelationships(value: unknown): Relationship[] | undefined {
  const list = asArray(value);
  if (list === undefined) return undefined;
  const out: Relationship[] = [];
  for (const item of list) {
    const o = asObject(item);
    const parent = str(o, 'parent');
    const child = str(o, 'child');
    const kind = str(o, 'kind');
    if (parent === undefined || child === undefined || kind === undefined || !isSafeSessionId(parent) || !isSafeSessionId(child))
      return undefined;
    const rel: Relationship = { parent, child, kind };
    const tsMs = num(o, 'tsMs');
    if (tsMs !== undefined) rel.tsMs = tsMs;
    const nonce = num(o, 'nonce');
    if (nonce !== undefined) rel.nonce = nonce;
    out.push(rel);
  }
  return out;
}

/**
 * Reads every relationship row of every session under a logs folder, deduplicated by (parent,
 * child). A spine's rows are remembered by `fs` while the spine is unchanged: it is grepped whole.
 */
export async function readGraph(
  folders: readonly SessionFolder[],
  fs: DiscoveryFs = uncachedFs,
): Promise<{ edges: Relationship[]; problems: FileProblem[] }> {
  const byPair = new Map<string, Relationship>();
  const problems: FileProblem[] = [];
  for (const f of folders) {
    const path = f.spine?.path ?? join(f.dir, spineFile);
    try {
      for (const rel of await fs.derive(f.spine ?? path, 'intendant:relationships', decodeRelationships, () => spineRelationships(path))) {
        const key = `${rel.parent}\u0000${rel.child}`;
        if (!byPair.has(key)) byPair.set(key, rel);
      }
    } catch (error) {
      problems.push({ path, kind: 'unreadable', reason: errorMessage(error) });
    }
  }
  return { edges: [...byPair.values()], problems };
}

/**
 * Which sessions nest in which: only edges of a nesting kind between two sessions present here.
 * A child is hidden from listing when a listed root reaches it; a cycle with no root keeps its
 * members listed so nothing disappears.
 */
export function nesting(
  ids: readonly string[],
  edges: readonly Relationship[],
): { children: Map<string, Relationship[]>; hidden: Set<string> } {
  const present = new Set(ids);
  const children = new Map<string, Relationship[]>();
  const hasParent = new Set<string>();
  for (const e of edges) {
    if (!nestsAsSubagent(e.kind) || !present.has(e.parent) || !present.has(e.child)) continue;
    if (hasParent.has(e.child)) continue; // One parent per child: the first edge read wins.
    hasParent.add(e.child);
    const list = children.get(e.parent) ?? [];
    list.push(e);
    children.set(e.parent, list);
  }
  const hidden = new Set<string>();
  const visit = (id: string): void => {
    for (const e of children.get(id) ?? []) {
      if (hidden.has(e.child)) continue;
      hidden.add(e.child);
      visit(e.child);
    }
  };
  for (const id of ids) if (!hasParent.has(id)) visit(id);
  return { children, hidden };
}
