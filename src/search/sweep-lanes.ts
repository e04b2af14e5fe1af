// How a sweep shares its sessions between its own thread and the worker pool (sweep.ts).
import { readerFor } from '../agents/all-readers.js';
import { offThreadMinBytes } from './extract-off-thread.js';
import type { ManifestEntry } from './manifest.js';
import type { SessionPlan } from './session-plan.js';
import type { Candidate } from './sweep-discovery.js';

export interface Work {
  c: Candidate;
  plan: SessionPlan;
}

/**
 * The sessions to index in two parts: what this thread reads itself (a large session, read in a
 * worker of its own that a signal stops; a reader the pool's workers do not have), and the rest,
 * largest first, taken from either end. A session's size is the bytes it reads of files it alone is
 * read from: a database many sessions share costs each of them its own rows, not the whole file.
 */
export function splitWork(
  work: readonly Work[],
  entries: Record<string, ManifestEntry>,
): { own: Work[]; pooledBytes: number; bytes: Map<Work, number>; largest: () => Work | undefined; smallest: () => Work | undefined } {
  const uses = new Map<string, number>();
  for (const w of work) for (const f of w.c.session.files) uses.set(f.path, (uses.get(f.path) ?? 0) + 1);
  const bytes = new Map<Work, number>();
  const own: Work[] = [];
  const pooled: Work[] = [];
  let pooledBytes = 0;
  for (const w of work) {
    // A resumed session reads from its cursors on (a map: OpenCode's sessions have thousands of files).
    const entry = w.plan.kind === 'resume' ? entries[w.c.key] : undefined;
    const read = new Map(entry?.cursors.map((x) => [x.path, x.offset]));
    let n = 0;
    for (const f of w.c.session.files) if (uses.get(f.path) === 1) n += Math.max(0, f.size - (read.get(f.path) ?? 0));
    bytes.set(w, n);
    if (n >= offThreadMinBytes || readerFor(w.c.reader.id) !== w.c.reader) own.push(w);
    else {
      pooled.push(w);
      pooledBytes += n;
    }
  }
  pooled.sort((a, b) => (bytes.get(b) ?? 0) - (bytes.get(a) ?? 0));
  let head = 0;
  let tail = pooled.length - 1;
  return {
    own,
    pooledBytes,
    bytes,
    largest: () => (head <= tail ? pooled[head++] : undefined),
    smallest: () => (head <= tail ? pooled[tail--] : undefined),
  };
}
