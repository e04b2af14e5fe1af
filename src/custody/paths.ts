// Where custody keeps things: `<state>/kept/<installation-key>/` mirrors the agent home by relPath,
// with custody's own files (installation.json, .lock, .keep-manifest, facts, backups, temps) named so
// no reader's discovery can mistake them for a session.
import { basename, dirname, join, posix, sep } from 'node:path';
import { custodyErrors } from './errors.js';

export const installationFile = 'installation.json';
export const lockFile = '.lock';
/** What the last keeps saw of each vendor file (keep-manifest.ts); no reader's discovery looks at it. */
export const manifestFile = '.keep-manifest';
const factsSuffix = '.custody';
const tempSuffix = '.keep-tmp';
const backupPattern = /\.\d+\.bak$/;

export function keptBase(stateRoot: string): string {
  return join(stateRoot, 'kept');
}

export function keptRoot(stateRoot: string, key: string): string {
  return join(keptBase(stateRoot), key);
}

/**
 * A tree entry's path relative to the home, checked: relative, forward slashes, no `.`/`..`/empty
 * segment, no NUL or control characters, and not one of custody's own names.
 */
export function safeRelPath(rel: string): string {
  const bad = rel === '' || rel.startsWith('/') || rel.includes('\\') || /[\u0000-\u001f\u007f]/.test(rel);
  const parts = rel.split('/');
  // No empty, `.` or `..` segment: exactly the paths `posix.normalize` leaves as they are.
  if (bad || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw custodyErrors.unsafePath(rel, 'a tree entry must be a plain path inside the agent home');
  }
  const leaf = parts[parts.length - 1] as string;
  if (
    (parts.length === 1 && (leaf === installationFile || leaf === lockFile || leaf === manifestFile)) ||
    leaf.endsWith(factsSuffix) ||
    leaf.endsWith(tempSuffix) ||
    backupPattern.test(leaf)
  ) {
    throw custodyErrors.unsafePath(rel, "its name collides with custody's own files (.custody, .N.bak, .keep-tmp, .keep-manifest)");
  }
  return rel;
}

/** The custody facts beside a session's main file. */
export function factsRel(mainRel: string): string {
  return `${mainRel}${factsSuffix}`;
}

/** One fixed temporary name per target, so a keep killed mid-copy leaves no growing litter. */
export function tempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}${tempSuffix}`);
}

/** A temp name no other process uses, for writes made outside the installation lock. */
export function uniqueTempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}-${Math.random().toString(36).slice(2, 10)}${tempSuffix}`);
}

/** True for a temp name `tempPath` gives (what a killed keep can leave behind). */
export function isTempName(name: string): boolean {
  return name.startsWith('.') && name.endsWith(tempSuffix);
}

export function backupPath(path: string, n: number): string {
  return `${path}.${n}.bak`;
}

/** The number of a backup of `name` (`<name>.<n>.bak`), or null for any other file. */
export function backupNumber(name: string, file: string): number | null {
  if (!file.startsWith(`${name}.`) || !file.endsWith('.bak')) return null;
  const middle = file.slice(name.length + 1, -'.bak'.length);
  return /^\d+$/.test(middle) ? Number(middle) : null;
}

/**
 * `join(root, rel)` for a normalised absolute root and a relPath `safeRelPath` accepted: a plain
 * concatenation (a keep builds one per file).
 */
export function underRoot(root: string, rel: string): string {
  if (sep !== '/') return join(root, rel);
  return root.endsWith('/') ? `${root}${rel}` : `${root}/${rel}`;
}

/** The relPath's folder part ('' at the root). */
export function relDir(rel: string): string {
  const d = posix.dirname(rel);
  return d === '.' ? '' : d;
}
