// Finding a session's transcript for the routes: custody's locate (vendor tree first, then the kept
// copy) per agent, remembered while its file stays where it was, and a subagent `thread=` checked to
// be one of the session's own files before it is opened.
import { join, relative } from 'node:path';
import { Catalog } from '../custody/index.js';
import type { Located } from '../custody/index.js';
import { custodyErrors } from '../custody/errors.js';
import { isInside, lstatOrNull } from '../custody/safe-fs.js';
import type { AgentId } from '../record/types.js';
import type { AgentHomes } from '../scan/scan.js';
import { HttpError } from './http-error.js';

export interface SourceOptions {
  stateRoot: string;
  agents: readonly AgentHomes[];
  version: string;
  now: () => number;
}

const memoMs = 2000;

/** Locates sessions through one custody catalog per agent. */
export class SessionSources {
  private readonly catalogs = new Map<AgentId, Promise<Catalog>>();
  private all: Promise<Catalog> | undefined;
  private readonly memo = new Map<string, { loc: Located; at: number }>();

  constructor(private readonly opts: SourceOptions) {}

  catalog(agent: AgentId): Promise<Catalog> {
    let c = this.catalogs.get(agent);
    if (c === undefined) {
      c = Catalog.open({
        stateRoot: this.opts.stateRoot,
        agents: this.opts.agents.filter((a) => a.reader.id === agent),
        version: this.opts.version,
        now: this.opts.now,
      });
      this.catalogs.set(agent, c);
    }
    return c;
  }

  /** One catalog over every agent (what a keep sweep keeps). */
  allCatalog(): Promise<Catalog> {
    this.all ??= Catalog.open({ stateRoot: this.opts.stateRoot, agents: this.opts.agents, version: this.opts.version, now: this.opts.now });
    return this.all;
  }

  /** The located session; SessionNotFound (404) when no root has it. */
  async locate(agent: AgentId, id: string): Promise<Located> {
    const key = `${agent}:${id}`;
    const known = this.memo.get(key);
    // A located file still in place is the answer for a moment (a burst of page reads locates once);
    // after that the session is located afresh, so its file list and sizes follow a growing session.
    if (
      known !== undefined &&
      this.opts.now() - known.at < memoMs &&
      (await lstatOrNull(known.loc.main).catch(() => null))?.isFile() === true
    )
      return known.loc;
    const catalog = await this.catalog(agent);
    const loc = await catalog.locate(id);
    if (loc === null) throw custodyErrors.sessionNotFound(id, `the ${agent} homes and their kept copies`);
    this.memo.set(key, { loc, at: this.opts.now() });
    if (this.memo.size > 4096) this.memo.delete(this.memo.keys().next().value as string);
    return loc;
  }

  /** Forgets a session's place (its file vanished under a read). */
  forget(agent: AgentId, id: string): void {
    this.memo.delete(`${agent}:${id}`);
  }
}

/** The session's other JSONL transcripts (subagents), relative to its root. */
export async function threadsOf(loc: Located): Promise<string[]> {
  const session = await loc.session();
  return session.files
    .map((f) => f.path)
    .filter((p) => p !== loc.main && p.endsWith('.jsonl') && isInside(loc.rootPath, p))
    .map((p) => relative(loc.rootPath, p).split('\\').join('/'));
}

/** The absolute path of `thread` (relative to the session's root), which must be one of its files. */
export async function threadPath(loc: Located, thread: string): Promise<string> {
  const path = join(loc.rootPath, thread);
  if (!isInside(loc.rootPath, path) || !(await threadsOf(loc)).includes(thread))
    throw new HttpError(404, 'ThreadNotFound', `session ${loc.sessionId} has no transcript ${thread}`);
  return path;
}
