// `node:worker_threads`, loaded on first use: an unchanged or small scan starts no worker, and the
// module costs every command that imports it ~11 ms to load (measured with the bin's V8 flag, which
// leaves Node's own modules without their code cache).
import { createRequire } from 'node:module';

type WorkerThreads = typeof import('node:worker_threads');

let loaded: WorkerThreads | undefined;

/** The `Worker` class, loading `node:worker_threads` the first time it is asked for. */
export function workerClass(): WorkerThreads['Worker'] {
  loaded ??= createRequire(import.meta.url)('node:worker_threads') as WorkerThreads;
  return loaded.Worker;
}
