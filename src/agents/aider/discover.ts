// Aider's sessions under one home: the home is a directory holding `.aider.chat.history.md` (a
// repository), or the history file itself (`AIDER_CHAT_HISTORY_FILE`). Each run is a session,
// named `<history file>#<byte offset of its header>` where a path is expected.
import { sha256Hex } from '../../fs/hash.js';
import { closeSync, statSync } from 'node:fs';
import { readExactSync } from '../../fs/read-exact.js';
import { basename, dirname, join } from 'node:path';
import { openRegularSync } from '../../fs/read-open.js';
import { statFileSync } from '../../fs/stat.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { type DiscoveryFs, uncachedFs } from '../../fs/dir-listing.js';
import type { DiscoveredSession, Discovery, SessionFile } from '../types.js';
import { findRuns, runHeader, type RunStart } from './history-file.js';

export const historyFileName = '.aider.chat.history.md';
/** How much of a run names it: its header and the banner after it (not what grows later). */
const identityBytes = 4096;

/** `<file>#<offset>` ↔ its parts; undefined for a path without a run offset. */
export function runLocator(file: string, offset: number): string {
  return `${file}#${offset}`;
}

export function parseRunLocator(path: string): { file: string; offset: number } | undefined {
  const m = /^(.*)#(\d+)$/.exec(path);
  return m === null ? undefined : { file: m[1] as string, offset: Number(m[2]) };
}

/** The history file a home names (a folder's `.aider.chat.history.md`, or the file itself), and the folder it lies in. */
function historyFile(home: string): { file: SessionFile; folder: string } | null {
  let isDir = false;
  try {
    isDir = statSync(home).isDirectory();
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
  const file = statFileSync(isDir ? join(home, historyFileName) : home);
  return file === null ? null : { file, folder: isDir ? home : dirname(home) };
}

/** The run's header and banner up to the first prompt: what names the run, whatever path it is read from. */
function identity(fd: number, run: RunStart, next: number): string {
  const length = Math.min(identityBytes, next - run.offset);
  const buf = Buffer.allocUnsafe(Math.max(0, length));
  const got = length > 0 ? readExactSync(fd, buf, length, run.offset) : 0;
  const text = buf.toString('utf8', 0, got);
  const prompt = text.indexOf('\n#### ');
  return prompt === -1 ? text : text.slice(0, prompt);
}

/** Session ids: the run's local start time and a hash of its banner (a kept copy lists the same ids). */
function sessionIds(path: string, runs: RunStart[], size: number): string[] {
  const { fd } = openRegularSync(path);
  try {
    const seen = new Map<string, number>();
    return runs.map((run, i) => {
      const hash = sha256Hex(identity(fd, run, runs[i + 1]?.offset ?? size)).slice(0, 8);
      const base = `${run.stamp.replace(/[-:]/g, '').replace(' ', 'T')}-${hash}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      return n === 1 ? base : `${base}-${n}`;
    });
  } finally {
    closeSync(fd);
  }
}

/** Where each run starts in a history file and the id it is listed by: a pure function of the file's bytes. */
interface Runs {
  offsets: number[];
  ids: string[];
}

function runsOf(path: string): Runs {
  const { runs, size } = findRuns(path);
  return { offsets: runs.map((r) => r.offset), ids: sessionIds(path, runs, size) };
}

const isRuns = (v: unknown): v is Runs => {
  if (typeof v !== 'object' || v === null) return false;
  const { offsets, ids } = v as Record<string, unknown>;
  return (
    Array.isArray(offsets) &&
    Array.isArray(ids) &&
    offsets.length === ids.length &&
    offsets.every((o) => Number.isSafeInteger(o) && (o as number) >= 0) &&
    ids.every((id) => typeof id === 'string')
  );
};

function sessionsOf(file: SessionFile, home: string, cwd: string | null, { offsets, ids }: Runs): DiscoveredSession[] {
  return offsets.map((offset, i) => ({
    agent: 'aider' as const,
    sessionId: ids[i] as string,
    home,
    path: runLocator(file.path, offset),
    files: [file],
    ...(cwd === null ? {} : { cwd }),
  }));
}

/** The repository a history file at its default name lies in. */
export function repoOf(file: string): string | null {
  return basename(file) === historyFileName ? dirname(file) : null;
}

/**
 * The runs of one history file. Found by reading the whole file, so they are remembered through
 * `fs` while the file is provably unchanged: an unchanged scan of a home with 100 histories read
 * 32 MB for them every time (~55 ms of its CPU, measured).
 */
export async function discoverAider(home: string, fs: DiscoveryFs = uncachedFs): Promise<Discovery> {
  try {
    const found = historyFile(home);
    if (found === null) return { sessions: [], problems: [] };
    const path = found.file.path;
    const runs = await fs.derive(
      found.file,
      'aider:runs',
      (v) => (isRuns(v) ? v : undefined),
      async () => runsOf(path),
    );
    return { sessions: sessionsOf(found.file, found.folder, repoOf(path), runs), problems: [] };
  } catch (error) {
    return { sessions: [], problems: [{ path: home, kind: 'unreadable', reason: errorMessage(error) }] };
  }
}

/** True when the file opens the way aider writes it (a blank line, then a run header). */
function looksLikeHistory(path: string): boolean {
  const { fd } = openRegularSync(path);
  try {
    const buf = Buffer.alloc(256);
    const got = readExactSync(fd, buf, buf.length, 0);
    return buf.toString('utf8', 0, got).trimStart().startsWith(runHeader);
  } finally {
    closeSync(fd);
  }
}

/** A run (`<file>#<offset>`) or a history file (its newest run) given on the command line. */
export async function claimAider(path: string): Promise<DiscoveredSession | null> {
  const locator = parseRunLocator(path);
  const file = locator?.file ?? path;
  try {
    const f = statFileSync(file);
    if (f === null || !looksLikeHistory(file)) return null;
    const sessions = sessionsOf(f, dirname(file), repoOf(file), runsOf(file));
    if (locator === undefined) return sessions.at(-1) ?? null;
    return sessions.find((s) => s.path === path) ?? null;
  } catch {
    return null;
  }
}
