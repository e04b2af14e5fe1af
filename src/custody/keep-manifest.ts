// The keep manifest: what the last keeps saw of each vendor file (size, mtime, device, inode) when its
// kept copy was last made equal to it, so a keep of an unchanged session costs one lstat per file and
// reads nothing, on either side. It only ever vouches that a file is unchanged: a missing, stale or
// corrupt manifest (or one made for another home) makes a keep compare the kept side again (slower,
// never wrong). It is replaced whole (temp + fsync + rename) after the kept files it describes are
// durable, so a keep killed at any point leaves the previous manifest, which still tells the truth
// about every vendor file it vouches for. The trade-off: custody's own copies are not looked at for
// vouched files, so a kept file removed or edited by hand stays so until its vendor file changes;
// deleting `.keep-manifest` makes the next keep compare every file on both sides.
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { SessionFile } from '../agents/types.js';
import { manifestFile, tempPath } from './paths.js';
import { closeQuiet, openReadFd, readAt } from './fd-io.js';
import { lstatNow } from './safe-fs.js';

/** A vendor file as a keep saw it: what the quick check compares. */
export interface FileFacts {
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
}

/** An export (a database session's rows): the discovered files it was made from, and its size. */
export interface ExportMark {
  from: SessionFile[];
  size: number;
}

const format = 'agentlog/keep-manifest';
const version = 1;
/** Larger than any real manifest (about 150 bytes a file); a bigger file is not trusted. */
const maxManifestBytes = 256 * 1024 * 1024;

/**
 * A file whose mtime is this close to (or after) the moment a keep looked at it is "racy" (git's
 * term): a write in the same timestamp tick right after the look would leave size and mtime as they
 * were (coarse kernel clocks, 2 s on FAT). Such a file is not vouched for; the next keep compares it.
 */
export const racyMarginMs = 2000;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = z.number().finite();

// The envelope is checked whole at load; the entries, each by its schema only when looked up: a
// pass over tens of thousands of entries up front would cost more than the keep it shortens.
const manifestSchema = z.object({
  format: z.literal(format),
  version: z.literal(version),
  installation: z.string(),
  home: z.string(),
  files: z.custom<Record<string, unknown>>(isObj),
  exports: z.custom<Record<string, unknown>>(isObj),
  facts: z.array(z.string()),
  // Added after version 1 shipped: a manifest without it simply has no session marks.
  sessions: z.custom<Record<string, unknown>>(isObj).optional(),
});
/** A file entry: size, mtime, device, inode (checked by `fileRow`). */
type FileRow = [number, number, number, number];
/** An export entry: the files it was made from (path, size, mtime) and its size. */
const exportRowSchema = z.object({ from: z.array(z.tuple([z.string(), count, count])), size: count });
type StampRow = z.infer<typeof exportRowSchema>['from'][number];
type ManifestDoc = Omit<z.infer<typeof manifestSchema>, 'files' | 'exports' | 'sessions'> & {
  files: Record<string, FileRow>;
  exports: Record<string, { from: StampRow[]; size: number }>;
  sessions: Record<string, MarkRow>;
};

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * A file entry narrowed by hand, not by a schema: an unchanged keep looks up every entry (tens of
 * thousands), and a schema's parse of each cost more than the rest of the lookup.
 */
function fileRow(v: unknown): FileFacts | null {
  if (!Array.isArray(v) || v.length !== 4) return null;
  const [size, mtimeMs, dev, ino] = v as unknown[];
  if (!isCount(size) || !isCount(mtimeMs) || !isCount(dev) || !isCount(ino)) return null;
  return { size, mtimeMs, dev, ino };
}

function exportRow(v: unknown): ExportMark | null {
  const r = exportRowSchema.safeParse(v);
  if (!r.success) return null;
  return { from: r.data.from.map(([path, size, mtimeMs]) => ({ path, size, mtimeMs })), size: r.data.size };
}

/**
 * A folder a session mark watches, as lstat saw it: a folder's mtime and ctime move when an entry is
 * added, removed or renamed in it, and a folder put in its place is another inode.
 */
export interface DirFacts {
  /** Relative to the home. */
  rel: string;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/**
 * What an unchanged session's keep needs without asking its reader (session-mark.ts): the tree the
 * reader last gave (relPaths, main first; null when it was the discovered files themselves, in
 * order; `exports` the indices of export entries) and the folders whose listings it came from.
 */
export interface SessionMark {
  /** The session's path as discovery gave it: another path is another session. */
  path: string;
  tree: string[] | null;
  exports: number[];
  dirs: DirFacts[];
  /**
   * A digest of the discovered files' relPaths the tree was made from, in order: a reader makes a
   * tree from the files it is given, so the same tree needs the same files.
   */
  from: string;
}

/**
 * [path, tree, export indices, folders as [rel, mtimeMs, ctimeMs, ino], digest of the discovered
 * files]; the tree as runs of one folder, `[folder, name, name, …]` (a session folder's files share
 * a long prefix), or null.
 */
type MarkRow = [string, string[][] | null, number[], [string, number, number, number][], string];

function encodeTree(tree: readonly string[]): string[][] {
  const runs: string[][] = [];
  let run: string[] | undefined;
  for (const rel of tree) {
    const cut = rel.lastIndexOf('/');
    const dir = cut < 0 ? '' : rel.slice(0, cut);
    if (run?.[0] !== dir) {
      run = [dir];
      runs.push(run);
    }
    run.push(rel.slice(cut + 1));
  }
  return runs;
}

function decodeTree(v: unknown): string[] | null | undefined {
  if (v === null) return null;
  if (!Array.isArray(v)) return undefined;
  const tree: string[] = [];
  for (const run of v as unknown[]) {
    if (!Array.isArray(run) || run.length < 2) return undefined;
    const dir: unknown = run[0];
    if (typeof dir !== 'string') return undefined;
    for (let i = 1; i < run.length; i++) {
      const name: unknown = run[i];
      if (typeof name !== 'string') return undefined;
      tree.push(dir === '' ? name : `${dir}/${name}`);
    }
  }
  return tree;
}

/** A session mark narrowed by hand (by loops, like `fileRow`: a home holds tens of thousands of tree entries). */
function markRow(v: unknown): SessionMark | null {
  if (!Array.isArray(v) || v.length !== 5) return null;
  const [path, rawTree, exports, dirs, from] = v as unknown[];
  const tree = decodeTree(rawTree);
  if (typeof path !== 'string' || tree === undefined || !Array.isArray(exports) || !Array.isArray(dirs)) return null;
  if (typeof from !== 'string') return null;
  const entries = tree?.length ?? Number.POSITIVE_INFINITY;
  if (!exports.every((i) => Number.isInteger(i) && (i as number) >= 0 && (i as number) < entries)) return null;
  const out: DirFacts[] = [];
  for (const d of dirs as unknown[]) {
    if (!Array.isArray(d) || d.length !== 4) return null;
    const [rel, mtimeMs, ctimeMs, ino] = d as unknown[];
    if (typeof rel !== 'string' || !isCount(mtimeMs) || !isCount(ctimeMs) || !isCount(ino)) return null;
    out.push({ rel, mtimeMs, ctimeMs, ino });
  }
  return { path, tree, exports: exports as number[], dirs: out, from };
}

const sameFacts = (a: FileFacts, b: FileFacts): boolean =>
  a.size === b.size && a.mtimeMs === b.mtimeMs && a.dev === b.dev && a.ino === b.ino;
const sameStamps = (a: readonly SessionFile[], b: readonly SessionFile[]): boolean =>
  a.length === b.length && a.every((s, i) => s.path === b[i]?.path && s.size === b[i]?.size && s.mtimeMs === b[i]?.mtimeMs);

/**
 * Entries as the manifest was parsed, each narrowed only when looked up (a keep of a big home looks
 * most up once, and building them all up front costs more than the lookups), under the entries this
 * keep set or dropped. A malformed entry reads as absent: its file is compared again.
 */
class Table<T> {
  private readonly overlay = new Map<string, T | null>();
  /** True once a malformed entry was met or anything was set or dropped: the manifest needs writing. */
  changed = false;

  constructor(
    private readonly base: Record<string, unknown>,
    private readonly narrow: (v: unknown) => T | null,
  ) {}

  get(rel: string): T | undefined {
    const over = this.overlay.get(rel);
    if (over !== undefined) return over ?? undefined;
    if (!Object.hasOwn(this.base, rel)) return undefined;
    const v = this.narrow(this.base[rel]);
    if (v === null) this.drop(rel);
    return v ?? undefined;
  }

  set(rel: string, v: T): void {
    this.overlay.set(rel, v);
    this.changed = true;
  }

  /** Drops the entry; true when there was one. */
  drop(rel: string): boolean {
    const had = this.overlay.has(rel) ? this.overlay.get(rel) !== null : Object.hasOwn(this.base, rel);
    if (!had) return false;
    this.overlay.set(rel, null);
    this.changed = true;
    return true;
  }

  /** Drops every entry `keep` rejects. */
  prune(keep: (rel: string) => boolean): void {
    for (const rel of Object.keys(this.base)) if (!keep(rel)) this.drop(rel);
    for (const rel of this.overlay.keys()) if (!keep(rel)) this.drop(rel);
  }

  /** Every entry that stands, malformed ones left out. */
  entries(): [string, T][] {
    const out: [string, T][] = [];
    for (const rel of Object.keys(this.base)) {
      if (this.overlay.has(rel)) continue;
      const v = this.narrow(this.base[rel]);
      if (v !== null) out.push([rel, v]);
    }
    for (const [rel, v] of this.overlay) if (v !== null) out.push([rel, v]);
    return out;
  }
}

/** Reads the manifest's text, or null when it is absent, not a regular file, or too big to trust. */
async function readManifest(path: string): Promise<string | null> {
  const st = lstatNow(path);
  if (st === null || !st.isFile() || st.size > maxManifestBytes) return null;
  const { fd, stat } = openReadFd(path);
  try {
    const buf = Buffer.allocUnsafe(stat.size);
    const n = await readAt(fd, buf, stat.size, 0);
    return buf.toString('utf8', 0, n);
  } finally {
    closeQuiet(fd);
  }
}

export interface ManifestScope {
  /** The installation's kept root: the manifest lives at its top. */
  root: string;
  installation: string;
  /** The vendor home's canonical path: a manifest made for another home is ignored. */
  home: string;
  /** When this keep started looking at files (before any lstat): the racy rule's reference. */
  observedAt: number;
}

/** One installation's manifest for the length of one keep (under the installation's lock). */
export class KeepManifest {
  private files = new Table<FileFacts>({}, fileRow);
  private exports = new Table<ExportMark>({}, exportRow);
  private marks = new Table<SessionMark>({}, markRow);
  private readonly facts = new Set<string>();
  /** relPaths this keep looked at: on a keep of every session, other entries are dropped. */
  private readonly seen = new Set<string>();
  /** Session ids this keep looked at, for the same pruning of session marks. */
  private readonly seenSessions = new Set<string>();
  private changed = false;

  private constructor(private readonly scope: ManifestScope) {}

  /** The manifest as the last keep left it; empty when there is none or it cannot be trusted. */
  static async load(scope: ManifestScope): Promise<KeepManifest> {
    const m = new KeepManifest(scope);
    let doc: unknown;
    try {
      const text = await readManifest(join(scope.root, manifestFile));
      if (text === null) return m;
      doc = JSON.parse(text);
    } catch {
      // Unreadable or torn (it never should be: it is renamed into place whole): compare everything.
      m.changed = true;
      return m;
    }
    const parsed = manifestSchema.safeParse(doc);
    // Not ours, of another version or made for another home: not trusted, rebuilt by this keep.
    if (!parsed.success || parsed.data.installation !== scope.installation || parsed.data.home !== scope.home) {
      m.changed = true;
      return m;
    }
    m.files = new Table(parsed.data.files, fileRow);
    m.exports = new Table(parsed.data.exports, exportRow);
    m.marks = new Table(parsed.data.sessions ?? {}, markRow);
    for (const rel of parsed.data.facts) m.facts.add(rel);
    return m;
  }

  /** True when a file or folder changed too close to this keep's start to be trusted unchanged later (git's racy rule). */
  racy(mtimeMs: number): boolean {
    return mtimeMs >= this.scope.observedAt - racyMarginMs;
  }

  /**
   * True when the vendor file is exactly as it was when its kept copy was last made equal to it:
   * same size, mtime, device and inode. Like rsync's quick check this is trusted without reading
   * either side: an edit that keeps the size and restores the mtime in place (same inode) is not
   * seen until the file changes again or the manifest is gone (then the tail rule catches it).
   * A file not vouched for goes through the full comparison (kept side stat'ed, tail compared).
   */
  vouchesFor(rel: string, now: FileFacts): boolean {
    this.seen.add(rel);
    const last = this.files.get(rel);
    return last !== undefined && sameFacts(last, now);
  }

  /**
   * True when every file an export was made from (OpenCode: the database and its write-ahead log) has
   * the size and mtime it had when the export was last kept: the export would give the same bytes.
   */
  vouchesForExport(rel: string, from: readonly SessionFile[]): boolean {
    this.seen.add(rel);
    const last = this.exports.get(rel);
    return last !== undefined && from.length > 0 && sameStamps(last.from, from);
  }

  /** The kept copy now equals the vendor file as `facts` describe it (read from the opened file). */
  recordFile(rel: string, facts: FileFacts): void {
    this.seen.add(rel);
    if (this.racy(facts.mtimeMs)) {
      this.forget(rel);
      return;
    }
    const last = this.files.get(rel);
    if (last !== undefined && sameFacts(last, facts)) return;
    this.files.set(rel, { size: facts.size, mtimeMs: facts.mtimeMs, dev: facts.dev, ino: facts.ino });
  }

  /** The kept export now equals what `from` gave (stamps from discovery, taken before the export was made). */
  recordExport(rel: string, from: readonly SessionFile[], size: number): void {
    this.seen.add(rel);
    if (from.length === 0 || from.some((s) => this.racy(s.mtimeMs))) {
      this.forget(rel);
      return;
    }
    const last = this.exports.get(rel);
    if (last !== undefined && last.size === size && sameStamps(last.from, from)) return;
    this.exports.set(rel, { from: from.map((s) => ({ path: s.path, size: s.size, mtimeMs: s.mtimeMs })), size });
  }

  /**
   * What the manifest vouches for this vendor file, without anything to compare it with yet: the
   * session mark's fast path compares it with discovery's size and mtime (session-mark.ts).
   */
  vouchedFacts(rel: string): FileFacts | undefined {
    this.seen.add(rel);
    return this.files.get(rel);
  }

  /** The session's mark, if the last keep left one (session-mark.ts). */
  sessionMark(sessionId: string): SessionMark | undefined {
    this.seenSessions.add(sessionId);
    return this.marks.get(sessionId);
  }

  /** Records a session's mark (once every file of its tree is vouched for, after they are durable). */
  recordSessionMark(sessionId: string, mark: SessionMark): void {
    this.seenSessions.add(sessionId);
    this.marks.set(sessionId, mark);
  }

  /** The session's tree is not vouched for as a whole any more: the next keep asks its reader again. */
  forgetSessionMark(sessionId: string): void {
    this.seenSessions.add(sessionId);
    this.marks.drop(sessionId);
  }

  /** Nothing is vouched for this file any more (it failed, or its kept copy is in doubt). */
  forget(rel: string): void {
    this.seen.add(rel);
    this.files.drop(rel);
    this.exports.drop(rel);
  }

  /** True when the custody facts beside this main file were already written (they are never rewritten). */
  hasFacts(mainRel: string): boolean {
    return this.facts.has(mainRel);
  }

  noteFacts(mainRel: string): void {
    if (this.facts.has(mainRel)) return;
    this.facts.add(mainRel);
    this.changed = true;
  }

  /** Entries for files no session of this keep named (the vendor deleted them): dropped on a keep of every session. */
  private prune(): void {
    const seen = (rel: string): boolean => this.seen.has(rel);
    this.files.prune(seen);
    this.exports.prune(seen);
    this.marks.prune((id) => this.seenSessions.has(id));
    for (const rel of this.facts) {
      if (this.seen.has(rel)) continue;
      this.facts.delete(rel);
      this.changed = true;
    }
  }

  private serialise(): Buffer {
    const doc: ManifestDoc = {
      format,
      version,
      installation: this.scope.installation,
      home: this.scope.home,
      files: Object.fromEntries(this.files.entries().map(([rel, f]): [string, FileRow] => [rel, [f.size, f.mtimeMs, f.dev, f.ino]])),
      exports: Object.fromEntries(
        this.exports.entries().map(([rel, e]) => [rel, { from: e.from.map((s): StampRow => [s.path, s.size, s.mtimeMs]), size: e.size }]),
      ),
      facts: [...this.facts],
      sessions: Object.fromEntries(
        this.marks
          .entries()
          .map(([id, m]): [string, MarkRow] => [
            id,
            [
              m.path,
              m.tree === null ? null : encodeTree(m.tree),
              m.exports,
              m.dirs.map((d) => [d.rel, d.mtimeMs, d.ctimeMs, d.ino]),
              m.from,
            ],
          ]),
      ),
    };
    return Buffer.from(JSON.stringify(doc));
  }

  /**
   * Replaces the manifest when anything in it changed (an unchanged keep writes nothing). Call it
   * only once the kept files it vouches for are durable. `complete`: this keep looked at every
   * session of the home, so entries it did not see are dropped.
   */
  async save(complete: boolean): Promise<boolean> {
    if (complete) this.prune();
    if (!this.changed && !this.files.changed && !this.exports.changed && !this.marks.changed) return false;
    const path = join(this.scope.root, manifestFile);
    await writeFileAtomic(path, this.serialise(), { temp: tempPath(path) });
    this.changed = this.files.changed = this.exports.changed = this.marks.changed = false;
    return true;
  }
}
