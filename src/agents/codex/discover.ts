// Finds Codex rollouts under a home (`sessions/YYYY/MM/DD/rollout-*.jsonl` and `archived_sessions/`)
// and groups them into sessions: each rollout's first line (`session_meta`) names its thread and,
// for a spawned agent, the thread that spawned it; a spawned agent's rollout joins its parent's
// session instead of being listed on its own (seed 003 "Subagents").
import { mapPool } from '../../fs/pool.js';
import { basename, join } from 'node:path';
import type { DiscoveredSession, Discovery, DiscoveryFs, FileProblem, SessionFile } from '../types.js';
import { uncachedFs } from '../../fs/dir-listing.js';
import { readFirstLineSync } from '../../fs/read-lines.js';
import { statFileSync } from '../../fs/stat.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { parseObjectLine } from '../../json/narrow.js';
import { codexLine } from './codex-line.js';
import { decodeMeta, idFromFileName, readMeta, type RolloutMeta } from './rollout-meta.js';

/** The folders under a Codex home that hold rollouts, both laid out `YYYY/MM/DD/`. */
export const rolloutDirs = ['sessions', 'archived_sessions'] as const;

/** A first line longer than this is not read for its meta (the file is still listed). */
const maxFirstLineBytes = 4 * 1024 * 1024;
const maxDepth = 6;
const readConcurrency = 16;

export interface RolloutEntry {
  file: SessionFile;
  /** The thread id: `session_meta.payload.id`, else the id in the file name. */
  id: string;
  meta: RolloutMeta | undefined;
}

function walk(fs: DiscoveryFs, dir: string, depth: number, out: string[], problems: FileProblem[]): void {
  let names;
  try {
    names = fs.list(dir);
  } catch (error) {
    if (!isNotFound(error)) problems.push({ path: dir, kind: 'unreadable', reason: errorMessage(error) });
    return;
  }
  for (const entry of names) {
    const path = join(dir, entry.name);
    if (entry.kind === 'dir') {
      if (depth < maxDepth) walk(fs, path, depth + 1, out, problems);
    } else if (!entry.name.endsWith('.jsonl')) {
    } else if (entry.kind === 'file' || entry.kind === 'link') {
      out.push(path);
    } else {
      // A FIFO, socket or device named like a rollout is never opened: reading it could block forever.
      problems.push({ path, kind: 'unreadable', reason: `${path} is not a regular file: it is not read` });
    }
  }
}

/** `{ meta }` remembered for a rollout (null: its first line is no `session_meta`). */
function decodeFirstMeta(value: unknown): { meta: RolloutMeta | null } | undefined {
  if (typeof value !== 'object' || value === null || !('meta' in value)) return undefined;
  if (value.meta === null) return { meta: null };
  const meta = decodeMeta(value.meta);
  return meta === undefined ? undefined : { meta };
}

/**
 * The meta a rollout's first line carries, if it is a `session_meta` line. Synchronous as the bounded
 * first-line read under it is (derive's compute, async, turns a throw into a rejection as before).
 */
function readFirstMetaSync(path: string): RolloutMeta | undefined {
  const first = readFirstLineSync(path, maxFirstLineBytes);
  if (first === null) return undefined;
  const obj = parseObjectLine(first);
  const line = obj === undefined ? undefined : codexLine(obj);
  return line?.type === 'session_meta' ? readMeta(line.payload) : undefined;
}

async function entryFor(fs: DiscoveryFs, path: string): Promise<RolloutEntry | null> {
  const file = statFileSync(path);
  if (file === null) return null;
  const first =
    file.size === 0
      ? null
      : (await fs.derive(file, 'codex:meta', decodeFirstMeta, async () => ({ meta: readFirstMetaSync(path) ?? null }))).meta;
  const meta = first ?? undefined;
  return { file, id: meta?.id ?? idFromFileName(basename(path)), meta };
}

/** Every rollout under a home, in path order, with its first-line meta. A missing home is empty. */
export async function listRollouts(
  home: string,
  fs: DiscoveryFs = uncachedFs,
): Promise<{ entries: RolloutEntry[]; problems: FileProblem[] }> {
  const paths: string[] = [];
  const problems: FileProblem[] = [];
  for (const dir of rolloutDirs) walk(fs, join(home, dir), 0, paths, problems);
  paths.sort();
  const slots = await mapPool(paths, readConcurrency, async (path): Promise<RolloutEntry | null> => {
    try {
      return await entryFor(fs, path);
    } catch (error) {
      problems.push({ path, kind: 'unreadable', reason: errorMessage(error) });
      return null;
    }
  });
  return { entries: slots.filter((e): e is RolloutEntry => e !== null), problems };
}

/** Links each spawned rollout to its parent's entry, when the parent is in the same listing. */
export class RolloutForest {
  private readonly byId = new Map<string, RolloutEntry>();
  private readonly children = new Map<RolloutEntry, RolloutEntry[]>();
  private readonly roots = new Map<RolloutEntry, RolloutEntry>();

  constructor(readonly entries: readonly RolloutEntry[]) {
    for (const e of entries) if (!this.byId.has(e.id)) this.byId.set(e.id, e);
    for (const e of entries) {
      const parent = this.parentOf(e);
      if (parent === undefined) continue;
      const list = this.children.get(parent) ?? [];
      list.push(e);
      this.children.set(parent, list);
    }
  }

  private parentOf(e: RolloutEntry): RolloutEntry | undefined {
    const id = e.meta?.spawnParent;
    const parent = id === undefined ? undefined : this.byId.get(id);
    return parent === e ? undefined : parent;
  }

  /** The top of an entry's spawn chain; in a (corrupt) cycle, its first member by path. */
  rootOf(e: RolloutEntry): RolloutEntry {
    const known = this.roots.get(e);
    if (known !== undefined) return known;
    const chain: RolloutEntry[] = [e];
    let root = e;
    for (;;) {
      const parent = this.parentOf(root);
      if (parent === undefined) break;
      const seen = chain.indexOf(parent);
      if (seen !== -1) {
        root = chain.slice(seen).reduce((a, b) => (b.file.path < a.file.path ? b : a));
        break;
      }
      chain.push(parent);
      root = parent;
    }
    this.roots.set(e, root);
    return root;
  }

  /** An entry and every rollout spawned below it, the entry first. */
  treeOf(top: RolloutEntry): RolloutEntry[] {
    const out: RolloutEntry[] = [top];
    for (let i = 0; i < out.length; i++) {
      for (const child of this.children.get(out[i] as RolloutEntry) ?? []) if (!out.includes(child)) out.push(child);
    }
    return out;
  }

  session(top: RolloutEntry, home: string): DiscoveredSession {
    const session: DiscoveredSession = {
      agent: 'codex',
      sessionId: top.id,
      home,
      path: top.file.path,
      files: this.treeOf(top).map((e) => e.file),
    };
    if (top.meta?.cwd !== undefined) session.cwd = top.meta.cwd;
    return session;
  }

  /** Every session: each rollout that is not nested in another, with its spawned rollouts. */
  sessions(home: string): DiscoveredSession[] {
    return this.entries.filter((e) => this.rootOf(e) === e).map((e) => this.session(e, home));
  }
}

export async function discoverCodex(home: string, fs?: DiscoveryFs): Promise<Discovery> {
  const { entries, problems } = await listRollouts(home, fs);
  return { sessions: new RolloutForest(entries).sessions(home), problems };
}
