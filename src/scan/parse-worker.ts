// Worker thread body: says it is ready, then reads the sessions the pool sends, one message each:
// a summary for a scan, the messages for the index sweep. The readers come with the registry this
// module imports: one bundle chunk, which a worker starts as fast as it started when each reader
// was loaded on first use (measured: 46 against 48 ms to ready).
import { parentPort } from 'node:worker_threads';
import { loadReader } from '../agents/registry.js';
import type { DiscoveredSession } from '../agents/types.js';
import { errorMessage } from '../fs/errors.js';
import type { MessageResume } from '../record/message-index.js';
import { isAgentId } from '../record/types.js';
import { summariseSession } from './summarise.js';

export type WorkerRequest = { id: number; session: DiscoveredSession } & (
  | { kind: 'summarise'; userHome: string | null }
  | { kind: 'extract'; from: MessageResume | null }
);

async function answer(req: WorkerRequest): Promise<{ id: number; value?: unknown; error?: string }> {
  try {
    if (!isAgentId(req.session.agent)) return { id: req.id, error: `no reader for ${req.session.agent}` };
    const reader = await loadReader(req.session.agent);
    const value =
      req.kind === 'summarise'
        ? await summariseSession(reader, req.session, req.userHome)
        : await reader.messages.extract(req.session, req.from);
    return { id: req.id, value };
  } catch (error) {
    return { id: req.id, error: errorMessage(error) };
  }
}

const port = parentPort;
if (port !== null) {
  port.on('message', (req: WorkerRequest) => {
    void answer(req).then((reply) => port.postMessage(reply));
  });
  port.postMessage({ ready: true });
}
