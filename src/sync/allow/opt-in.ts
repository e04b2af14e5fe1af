// Whether a session may be sent, and at which level (seed 003): every working directory it records
// (its subagents' too) must sit inside an allowed path, in its recorded form or the path it really
// is; each takes the level of the most specific path it sits in, and the session the most
// restrictive of those. No directory recorded means not opted in: fail closed.
import { posix } from 'node:path';
import { detailLevels, type Detail } from '../../record/types.js';
import type { Allowlist } from './allow-file.js';

export type OptIn = { allowed: true; detail: Detail } | { allowed: false; reason: string };

/** The reason the seed's report gives a session left out. */
export const notOptedIn = 'repo not opted in';

/** Resolves symlinks; null when the path does not exist here. */
export type RealPath = (path: string) => string | null;

/** A clean absolute path (no `.`, `..`, doubled or trailing slashes); null when not absolute. */
export function normalisePath(path: string): string | null {
  if (!path.startsWith('/')) return null;
  const n = posix.normalize(path);
  return n.length > 1 ? n.replace(/\/+$/, '') : n;
}

/** Component-wise: `/a/b` holds `/a/b` and `/a/b/c`, not `/a/bc`; `/` holds everything. */
export function isInside(path: string, root: string): boolean {
  return path === root || root === '/' || path.startsWith(`${root}/`);
}

/** `summary` is more restrictive than `messages`, which is more than `full` (the tuple's order). */
function restrictiveness(d: Detail): number {
  return detailLevels.indexOf(d);
}

/** The level of the most specific allowed root holding `dir` (raw or real), or null. */
export function levelOf(dir: string, allow: Allowlist, real: RealPath): Detail | null {
  const raw = normalisePath(dir);
  if (raw === null) return null;
  const resolved = real(raw);
  const forms = resolved === null || resolved === raw ? [raw] : [raw, resolved];
  let best: { root: string; detail: Detail } | null = null;
  for (const [root, detail] of allow)
    for (const f of forms) if (isInside(f, root) && (best === null || root.length > best.root.length)) best = { root, detail };
  return best?.detail ?? null;
}

/** The decision for a session's directories. */
export function decideOptIn(cwds: readonly string[], allow: Allowlist, real: RealPath): OptIn {
  if (cwds.length === 0) return { allowed: false, reason: 'no working directory recorded' };
  let level: Detail | null = null;
  for (const dir of cwds) {
    const l = levelOf(dir, allow, real);
    if (l === null) return { allowed: false, reason: notOptedIn };
    if (level === null || restrictiveness(l) > restrictiveness(level)) level = l;
  }
  return { allowed: true, detail: level ?? 'summary' };
}

/** The most specific allowed path `dir` sits in (as named or through its symlinks), or null. */
export function coveringRoot(dir: string, allow: Allowlist, real: RealPath): string | null {
  const forms = [dir, real(dir) ?? dir];
  return [...allow.keys()].filter((r) => forms.some((f) => isInside(f, r))).sort((a, b) => b.length - a.length)[0] ?? null;
}
