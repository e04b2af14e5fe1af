// One session's extraction, run in a worker thread when the session is large and the sweep can be
// stopped: the sweep's thread stays free to see a signal, and stopping terminates the worker, so
// Ctrl-C ends `index` within a second even in the middle of a 300 MB session (issue 10). The session
// being read is not published: the next sweep reads it again.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { workerClass } from '../threads/worker-class.js';
import type { DiscoveredSession, MessageExtractor } from '../agents/types.js';
import { FsError } from '../fs/errors.js';
import type { MessageExtract, MessageResume } from '../record/message-index.js';
import type { ExtractRequest } from './extract-worker.js';

/** Below this many bytes to read, a session is read in the sweep's thread (a worker costs ~50 ms to start). */
export const offThreadMinBytes = 16 << 20;

export interface OffThreadOptions {
  /** The bytes this read costs: what the session alone reads (sweep-lanes.ts sizes it). */
  bytes: number;
  signal?: AbortSignal;
  /** The compiled worker body; defaults to `extract-worker.js` beside this module. */
  workerFile?: string;
  minBytes?: number;
}

function stopped(session: DiscoveredSession): FsError {
  return new FsError('Interrupted', `stopped while reading ${session.path}; the next sweep reads it again`, session.path);
}

/** `extractor.extract(session, from)`, in a worker when it pays and a signal can stop it. */
export function extractStoppable(
  extractor: MessageExtractor,
  session: DiscoveredSession,
  from: MessageResume | null,
  opts: OffThreadOptions,
): Promise<MessageExtract> {
  const file = opts.workerFile ?? fileURLToPath(new URL('./extract-worker.js', import.meta.url));
  const signal = opts.signal;
  if (signal === undefined || opts.bytes < (opts.minBytes ?? offThreadMinBytes) || !existsSync(file))
    return extractor.extract(session, from);
  if (signal.aborted) return Promise.reject(stopped(session));
  return new Promise((resolve, reject) => {
    const worker = new (workerClass())(file);
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const onAbort = (): void => settle(() => reject(stopped(session)));
    signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (reply: { result?: MessageExtract; error?: string }) =>
      settle(() => (reply.result !== undefined ? resolve(reply.result) : reject(new Error(reply.error ?? 'the extract worker failed')))),
    );
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the extract worker stopped (exit code ${code})`))));
    const req: ExtractRequest = { session, from };
    worker.postMessage(req);
  });
}
