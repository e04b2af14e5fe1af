// Worker thread body: says it is ready once its modules have loaded, then summarises the sessions
// the pool sends, one message each.
import { parentPort } from 'node:worker_threads';
import { readerFor } from '../agents/all-readers.js';
import type { DiscoveredSession } from '../agents/types.js';
import { errorMessage } from '../fs/errors.js';
import { summariseSession } from './summarise.js';

export interface WorkerRequest {
  id: number;
  session: DiscoveredSession;
  userHome: string | null;
}

const port = parentPort;
if (port !== null) {
  port.on('message', (req: WorkerRequest) => {
    const reader = readerFor(req.session.agent);
    if (reader === undefined) {
      port.postMessage({ id: req.id, error: `no reader for ${req.session.agent}` });
      return;
    }
    summariseSession(reader, req.session, req.userHome).then(
      (summary) => port.postMessage({ id: req.id, summary }),
      (error: unknown) => port.postMessage({ id: req.id, error: errorMessage(error) }),
    );
  });
  port.postMessage({ ready: true });
}
