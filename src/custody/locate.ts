// Locate: find a session by id in the vendor tree first, then in its installation's kept copy. The
// located record names which root won. A folder that cannot be read is an IOError, never a miss.
import { relative } from 'node:path';
import type { AgentReader, DiscoveredSession } from '../agents/types.js';
import type { AgentId } from '../record/types.js';
import { custodyErrors, isCustodyError } from './errors.js';
import type { Installation } from './installation.js';
import { isInside, lstatOrNull } from './safe-fs.js';
import { linkOnPath } from '../fs/stat.js';
import type { SessionId } from './session-id.js';

/** One vendor home and the installations that keep it (a catalog reads no other kept copy). */
export interface Scope {
  reader: AgentReader;
  home: string;
  kept: Installation[];
}

export const recordRoots = ['vendor', 'kept'] as const;
export type RecordRoot = (typeof recordRoots)[number];

export interface Located {
  agent: AgentId;
  sessionId: string;
  reader: AgentReader;
  /** Which tree won: the live vendor tree, or the kept copy after the vendor pruned it. */
  root: RecordRoot;
  /** The vendor home, or the kept root. */
  rootPath: string;
  scope: Scope;
  /** The installation whose kept root won (root `kept`), else null. */
  installation: Installation | null;
  /** The main transcript, absolute, and relative to the root. */
  main: string;
  mainRel: string;
  /**
   * The session as discovery under `rootPath` sees it (its `home` is `rootPath`), loaded on first use:
   * reads need only `main`, so a tail never pays for the agent's claim of the file.
   */
  session(): Promise<DiscoveredSession>;
}

/** A hit under one root: the main file, and how to get the discovered session. */
interface Hit {
  main: string;
  session: () => Promise<DiscoveredSession>;
}

/** Whether a lstat finds a regular file; an error other than "absent" means the tree cannot be read. */
async function isFileThere(path: string): Promise<boolean> {
  try {
    const st = await lstatOrNull(path);
    // A link is never read through, and a folder is not a transcript.
    return st?.isFile() === true;
  } catch (error) {
    throw custodyErrors.io(path, 'tell whether a session exists at', error);
  }
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= load());
}

/** The session under one root (vendor home or kept root), or null. */
async function findUnder(reader: AgentReader, rootPath: string, id: SessionId, cwd: string | undefined): Promise<Hit | null> {
  let rootThere: boolean;
  try {
    rootThere = (await lstatOrNull(rootPath)) !== null;
  } catch (error) {
    throw custodyErrors.io(rootPath, 'open', error);
  }
  if (!rootThere) return null;
  const hook = reader.custody?.sessionPaths;
  if (hook !== undefined) {
    let candidates: string[];
    try {
      candidates = await hook(rootPath, id, cwd);
    } catch (error) {
      throw isCustodyError(error) ? error : custodyErrors.io(rootPath, 'look for sessions in', error);
    }
    for (const path of candidates) {
      if (!(await isFileThere(path))) continue;
      // The hook names files by the id; the agent's own claim is only needed for the whole session.
      return {
        main: path,
        session: once(async () => {
          const s = await reader.claim(path);
          if (s === null || s.sessionId !== id) throw custodyErrors.sessionNotFound(id, path);
          return s;
        }),
      };
    }
    // With a cwd the encoded folder is the only place to look (seed 001); without one, discovery
    // below also finds files named otherwise than by their id.
    if (cwd !== undefined) return null;
  }
  let found;
  try {
    found = await reader.discover(rootPath);
  } catch (error) {
    throw custodyErrors.io(rootPath, 'look for sessions in', error);
  }
  const hit = found.sessions.find((s) => s.sessionId === id);
  if (hit !== undefined) return hitOf(hit);
  const blind = found.problems.find((p) => p.kind === 'unreadable' && (p.path.includes(id) || !/\.[A-Za-z0-9]+$/.test(p.path)));
  if (blind !== undefined) throw custodyErrors.io(blind.path, 'read', new Error(`${blind.reason} (session ${id} may be in it)`));
  return null;
}

/** A discovered (or just verified) session as a hit, while its main file is still a regular file. */
async function hitOf(session: DiscoveredSession): Promise<Hit | null> {
  const main = session.files[0]?.path ?? session.path;
  return session.files[0] === undefined || (await isFileThere(main)) ? { main, session: async () => session } : null;
}

function located(
  scope: Scope,
  root: RecordRoot,
  rootPath: string,
  installation: Installation | null,
  id: string,
  hit: Hit,
): Located | null {
  // A kept copy holds only what custody wrote under its root, and never through a link (one there was
  // planted). A vendor home's sessions are wherever the agent's own reader finds them: Crush keeps
  // each project's database in the project, outside its home, and `show` reads it there too.
  if (root === 'kept' && (!isInside(rootPath, hit.main) || linkOnPath(rootPath, hit.main) !== null)) return null;
  return {
    agent: scope.reader.id,
    sessionId: id,
    reader: scope.reader,
    root,
    rootPath,
    scope,
    installation,
    main: hit.main,
    mainRel: relative(rootPath, hit.main).split('\\').join('/'),
    session: once(async () => ({ ...(await hit.session()), home: rootPath })),
  };
}

export interface LocateOptions {
  cwd?: string;
  /** Look only at the vendor tree (`vendor`) or only at kept copies (`kept`). */
  only?: RecordRoot;
  /**
   * Sessions the caller has just claimed and verified in their vendor homes (`show`/`tail` by an id
   * the scan's index holds): found there without discovering the whole home again.
   */
  known?: readonly DiscoveredSession[];
}

/**
 * The session in the first scope that has it: each reader's vendor homes first, then their kept
 * roots (the same order `scan` lists them in, so `show` and `tail` agree on which copy wins).
 */
export async function locateSession(scopes: readonly Scope[], id: SessionId, opts: LocateOptions = {}): Promise<Located | null> {
  const readers = [...new Set(scopes.map((s) => s.reader))];
  // A root that cannot be read blinds its own agent only: the kept copy may be older than what the
  // vendor folder holds, so that agent stops there, but another agent's homes may still hold the id
  // (a prefix names one session of one agent), so the error is raised only when no agent has it.
  let blind: unknown;
  for (const reader of readers) {
    try {
      const loc = await locateFor(reader, scopes, id, opts);
      if (loc !== null) return loc;
    } catch (error) {
      blind ??= error;
    }
  }
  if (blind !== undefined) throw blind;
  return null;
}

async function locateFor(reader: AgentReader, scopes: readonly Scope[], id: SessionId, opts: LocateOptions): Promise<Located | null> {
  const mine = scopes.filter((s) => s.reader === reader);
  if (opts.only !== 'kept') {
    for (const scope of mine) {
      const known = opts.known?.find((k) => k.agent === reader.id && k.sessionId === id && k.home === scope.home);
      const hit = known !== undefined ? await hitOf(known) : await findUnder(reader, scope.home, id, opts.cwd);
      const loc = hit === null ? null : located(scope, 'vendor', scope.home, null, id, hit);
      if (loc !== null) return loc;
    }
  }
  if (opts.only !== 'vendor') {
    for (const scope of mine) {
      for (const inst of scope.kept) {
        const hit = await findUnder(reader, inst.root, id, opts.cwd);
        const loc = hit === null ? null : located(scope, 'kept', inst.root, inst, id, hit);
        if (loc !== null) return loc;
      }
    }
  }
  return null;
}
