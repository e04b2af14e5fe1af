// One durability barrier for a whole filesystem: Linux's syncfs(2), which Node does not expose, run
// through coreutils' `sync -f <path>`. After it returns 0 every write made before it on that
// filesystem (file data, new names, links) is on disk: a keep that copied a thousand small files
// makes them durable with one call instead of a thousand fsyncs (each a journal commit). Where it is
// not there (another system, no `sync -f`, a kernel before 5.8, whose syncfs could lose a writeback
// error), callers fsync file by file as before.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { release } from 'node:os';

/** coreutils' `sync` at its usual places: looked up by path, never through PATH or a shell. */
const syncBinaries = ['/usr/bin/sync', '/bin/sync'] as const;

/** Linux 5.8 made syncfs report writeback errors (errseq): before it a failed write could go unseen. */
export function kernelReportsErrors(version: string): boolean {
  const m = /^(\d+)\.(\d+)/.exec(version);
  if (m === null) return false;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  return major > 5 || (major === 5 && minor >= 8);
}

let binary: string | null | undefined;

function syncBinary(): string | null {
  if (binary === undefined) {
    binary = process.platform === 'linux' && kernelReportsErrors(release()) ? (syncBinaries.find((b) => existsSync(b)) ?? null) : null;
  }
  return binary;
}

/**
 * Flushes the filesystem holding `path` (a folder inside it). True when it did and reported success;
 * false when the barrier is not available here or failed, so the caller must fsync each file itself.
 */
export async function syncFileSystem(path: string): Promise<boolean> {
  const bin = syncBinary();
  if (bin === null) return false;
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(bin, ['-f', '--', path], { stdio: 'ignore', env: {} });
    child.on('error', () => resolve(null));
    child.on('close', (c) => resolve(c));
  });
  if (code === 0) return true;
  // A `sync` without -f (busybox builds, coreutils before 8.24) exits non-zero, and so does a failed
  // writeback: either way this process stops trying, and the caller's fsyncs (on files reopened after
  // the failure, which still report an error no one has seen) say which file it hit.
  binary = null;
  return false;
}
