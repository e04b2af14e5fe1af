// The directories sessions ran in, as agentlog's scans saw them, newest first: the homes of agents
// that keep their sessions inside the projects themselves (Aider's `.aider.chat.history.md`), which
// nothing else lists. Kept beside the scan cache; a missing or unreadable list is an empty one.
import { mkdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { writeFileAtomicSync } from '../fs/atomic-write.js';

/** How many directories are remembered (each costs a stat or two per scan of such an agent). */
export const maxKnownProjects = 1000;

/**
 * `{version: 1, projects: string[]}`, checked by hand: every command that reads sessions reads this
 * file at start-up, and zod's load there cost more than the rest of a `tail` by id (measured).
 */
function projectsOf(v: unknown): string[] | null {
  if (typeof v !== 'object' || v === null || (v as { version?: unknown }).version !== 1) return null;
  const { projects } = v as { projects?: unknown };
  return Array.isArray(projects) && projects.every((p) => typeof p === 'string') ? projects : null;
}

export function knownProjectsPath(stateRoot: string): string {
  return join(stateRoot, 'cache', 'known-projects.json');
}

/** The remembered directories, newest first; none when the list is missing or not one. */
export function readKnownProjects(stateRoot: string): string[] {
  try {
    return projectsOf(JSON.parse(readFileSync(knownProjectsPath(stateRoot), 'utf8'))) ?? [];
  } catch {
    return [];
  }
}

/** This scan's directories first, then the earlier ones, absolute and each once, up to the bound: what `rememberProjects` keeps. */
export function mergedProjects(seen: Iterable<string>, earlier: readonly string[]): string[] {
  const next: string[] = [];
  const kept = new Set<string>();
  for (const dir of [...seen, ...earlier]) {
    if (next.length >= maxKnownProjects) break;
    if (!isAbsolute(dir) || kept.has(dir)) continue;
    kept.add(dir);
    next.push(dir);
  }
  return next;
}

/**
 * Puts this scan's directories first, keeps the earlier ones after them, up to the bound. Answers
 * an error message when the list could not be written (the next scan then knows fewer projects).
 */
export async function rememberProjects(stateRoot: string, seen: Iterable<string>): Promise<string | null> {
  const earlier = readKnownProjects(stateRoot);
  const next = mergedProjects(seen, earlier);
  if (next.length === earlier.length && next.every((d, i) => d === earlier[i])) return null;
  try {
    const path = knownProjectsPath(stateRoot);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    // Re-derivable (the next scan lists them again) and checked on read: no fsync.
    writeFileAtomicSync(path, JSON.stringify({ version: 1, projects: next }), { durable: false });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
