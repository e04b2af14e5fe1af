// A session mark: what lets a keep pass an unchanged session without asking its reader for the
// tree (a folder walk, a path computed per file) and without an lstat for the files discovery has
// just stat'ed. The keep manifest (keep-manifest.ts) holds, per session, the tree the reader last
// gave and the folders its listings came from; a later keep trusts that tree while
//  - the session's path and its discovered files are the same (a reader makes its tree from them),
//    and each of those files has the size and mtime the manifest vouches for (discovery stat'ed
//    them a moment ago: a grown or rewritten one differs);
//  - each watched folder has the mtime, ctime and inode it had (the scan's discovery cache rule:
//    an entry added, removed or renamed in a folder moves its mtime and ctime, a folder put in its
//    place is another inode), so no file appeared in, left or was replaced in any of them;
//  - every other file of the tree is vouched for by its own lstat, as without a mark.
// The folders watched are the whole folder tree below each folder holding a discovered file (and
// below the session's path when it is a folder): every listing a reader's tree is made from (its
// session folder, a transcript's sibling folder) is one of them, down to empty sub-folders where a
// file may appear later. A mark is recorded only when every file of the tree is vouched for and
// no watched folder changed within the racy margin before the keep began (git's racy rule): a
// change in the same timestamp tick as the look would leave the stat as it was.
import { readdirSync, type Stats } from 'node:fs';
import { sep } from 'node:path';
import type { DiscoveredSession, TreeEntry } from '../agents/types.js';
import type { DirFacts, KeepManifest, SessionMark } from './keep-manifest.js';
import { sameTime } from './keep-plan.js';
import { relDir, underRoot } from './paths.js';
import { lstatNow } from './safe-fs.js';
import { osPath } from '../fs/byte-path.js';
import { hash16 } from '../fs/hash.js';

/** Folders one mark may watch: a session spread wider is asked of its reader each time. */
const maxMarkDirs = 4096;
const maxMarkDepth = 16;

/** What the marks need of a keep run. */
export interface MarkRun {
  /** The vendor home's real path: every stat is made below it. */
  home: string;
  manifest: KeepManifest;
  /** relPaths a session of this run already handles (the tree's other sessions' files are theirs). */
  claimed: Set<string>;
  /** Watched folders stat'ed this run (sessions of one folder share it): one lstat per folder. */
  dirStats: Map<string, Stats | null>;
}

/** `path` relative to `home` when it is inside it (a plain prefix: readers name files below the home so). */
function relUnder(home: string, path: string): string | null {
  const prefix = home.endsWith(sep) ? home : home + sep;
  if (!path.startsWith(prefix) || path.length === prefix.length) return null;
  const rel = path.slice(prefix.length);
  return sep === '/' ? rel : rel.split(sep).join('/');
}

function dirStat(run: MarkRun, rel: string): Stats | null {
  let st = run.dirStats.get(rel);
  if (st === undefined) {
    try {
      st = lstatNow(underRoot(run.home, rel));
    } catch {
      st = null;
    }
    run.dirStats.set(rel, st);
  }
  return st;
}

const sameDir = (st: Stats | null, d: DirFacts): boolean =>
  st?.isDirectory() === true && st.mtimeMs === d.mtimeMs && st.ctimeMs === d.ctimeMs && st.ino === d.ino;

/** One lstat: the vendor file is a regular file the manifest vouches for. */
function vouchedNow(run: MarkRun, rel: string): boolean {
  let st: Stats | null;
  try {
    st = lstatNow(underRoot(run.home, rel));
  } catch {
    return false;
  }
  return st?.isFile() === true && run.manifest.vouchesFor(rel, st);
}

/**
 * The session's files to report skipped (sorted) when its mark shows it unchanged, claimed for this
 * run; null when it does not (then nothing is claimed, and the keep asks the reader for the tree).
 */
export function unchangedByMark(run: MarkRun, session: DiscoveredSession): string[] | null {
  const mark = run.manifest.sessionMark(session.sessionId);
  if (mark === undefined || mark.path !== session.path) return null;
  const watched = new Set<string>();
  for (const d of mark.dirs) {
    if (!sameDir(dirStat(run, d.rel), d)) return null;
    watched.add(d.rel);
  }
  const exported = mark.exports.length > 0;
  // Discovered files whose stat (discovery's, this run) is what the manifest vouches for: their
  // folder is watched and unchanged, so each is still the inode the manifest names.
  const stamped = new Set<string>();
  const discovered: string[] = [];
  for (const f of session.files) {
    const rel = relUnder(session.home, f.path);
    const facts = rel === null ? undefined : run.manifest.vouchedFacts(rel);
    if (rel === null || facts === undefined) {
      // A database's files are compared by the export's own vouch below.
      if (exported) {
        discovered.push(rel ?? f.path);
        continue;
      }
      return null;
    }
    if (facts.size !== f.size || !sameTime(facts.mtimeMs, f.mtimeMs)) return null;
    if (watched.has(relDir(rel))) stamped.add(rel);
    discovered.push(rel);
  }
  // The reader made the tree from the files discovery gave then: the same tree needs the same ones.
  if (digestOf(discovered) !== mark.from) return null;
  const tree = mark.tree ?? discovered;
  const skipped: string[] = [];
  for (let i = 0; i < tree.length; i++) {
    const rel = tree[i] as string;
    if (run.claimed.has(rel)) continue;
    const vouched =
      exported && mark.exports.includes(i) ? run.manifest.vouchesForExport(rel, session.files) : stamped.has(rel) || vouchedNow(run, rel);
    if (!vouched) return null;
    skipped.push(rel);
  }
  // Facts not yet written beside the main file: the full path writes them.
  const main = tree[0];
  if (main !== undefined && !run.claimed.has(main) && !run.manifest.hasFacts(main)) return null;
  for (const rel of skipped) run.claimed.add(rel);
  return skipped.sort();
}

/** Every folder below `rel` (itself included) into `out`, each stat'ed before it is listed; false when one cannot be watched. */
function watch(run: MarkRun, rel: string, depth: number, out: Map<string, DirFacts>): boolean {
  if (out.has(rel)) return true;
  if (out.size >= maxMarkDirs || depth > maxMarkDepth) return false;
  const path = underRoot(run.home, rel);
  let st: Stats | null;
  try {
    st = lstatNow(path);
  } catch {
    return false;
  }
  // A folder changed since shortly before the keep began may have been listed before the change.
  if (st === null || !st.isDirectory() || run.manifest.racy(st.mtimeMs) || run.manifest.racy(st.ctimeMs)) return false;
  out.set(rel, { rel, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino });
  let names: string[];
  try {
    names = readdirSync(osPath(path), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return false;
  }
  for (const name of names) if (!watch(run, `${rel}/${name}`, depth + 1, out)) return false;
  return true;
}

/**
 * Records the session's mark once its keep settled with every file of `tree` vouched for (the files
 * are durable by the time the manifest is saved); otherwise drops any mark it had.
 */
export function markSession(run: MarkRun, session: DiscoveredSession, tree: readonly TreeEntry[], clean: boolean): void {
  const mark = clean ? makeMark(run, session, tree) : null;
  if (mark === null) run.manifest.forgetSessionMark(session.sessionId);
  else run.manifest.recordSessionMark(session.sessionId, mark);
}

/** A digest of a list of relPaths (names hold no NUL), by the one content hash. */
function digestOf(rels: readonly string[]): string {
  return hash16(rels.join('\0'));
}

/** True when the tree is the session's discovered files, in order (most readers' trees): the mark need not hold it. */
function sameAsDiscovered(session: DiscoveredSession, rels: readonly string[]): boolean {
  return rels.length === session.files.length && session.files.every((f, i) => relUnder(session.home, f.path) === rels[i]);
}

function makeMark(run: MarkRun, session: DiscoveredSession, tree: readonly TreeEntry[]): SessionMark | null {
  const exports: number[] = [];
  for (const [i, e] of tree.entries()) {
    if (e.kind === 'export') {
      if (!run.manifest.vouchesForExport(e.relPath, session.files)) return null;
      exports.push(i);
    } else if (run.manifest.vouchedFacts(e.relPath) === undefined) return null;
  }
  const rels = tree.map((e) => e.relPath);
  // As the check lists them: relative to the home (a database's files outside it by path).
  const from = digestOf(session.files.map((f) => relUnder(session.home, f.path) ?? f.path));
  const base = { path: session.path, tree: sameAsDiscovered(session, rels) ? null : rels, exports, from };
  // A tree of exports alone is vouched for by the discovered files' sizes and times: no folder to watch.
  if (exports.length === tree.length) return { ...base, dirs: [] };
  // Files and exports in one tree (no reader makes one): asked of the reader each time.
  if (exports.length > 0) return null;
  const anchors = new Set<string>();
  for (const f of session.files) {
    const rel = relUnder(session.home, f.path);
    if (rel === null) return null;
    anchors.add(relDir(rel));
  }
  const own = relUnder(session.home, session.path);
  if (own !== null && lstatNow(underRoot(run.home, own))?.isDirectory() === true) anchors.add(own);
  // A file in the home itself would make the whole home the watched tree.
  if (anchors.has('')) return null;
  const dirs = new Map<string, DirFacts>();
  for (const a of anchors) if (!watch(run, a, 0, dirs)) return null;
  // Every file of the tree lies in a watched folder, or its listing could change unseen.
  for (const e of tree) if (e.kind === 'file' && !dirs.has(relDir(e.relPath))) return null;
  return { ...base, dirs: [...dirs.values()] };
}
