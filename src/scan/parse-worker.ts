// Worker thread body: loads the readers of the agents the pool named (`workerData.agents`), says it
// is ready, then summarises the sessions the pool sends, one message each. Any other agent's reader
// is loaded on its first session: compiling all sixteen before the first session doubled the time
// a worker took to start (measured ~0.1 s → ~0.25 s), most of a small cold scan.
import { parentPort, workerData } from 'node:worker_threads';
import { loadReader } from '../agents/registry.js';
import type { AgentReader, DiscoveredSession } from '../agents/types.js';
import { errorMessage } from '../fs/errors.js';
import { type AgentId, isAgentId } from '../record/types.js';
import { summariseSession } from './summarise.js';

export interface WorkerRequest {
  id: number;
  session: DiscoveredSession;
  userHome: string | null;
}

/** What the pool hands each worker at its start. */
export interface WorkerStart {
  /** The agents whose sessions this worker will be sent. */
  agents: AgentId[];
}

/** The agents named in `workerData` (none when it is missing or malformed: then every reader loads lazily). */
function startAgents(data: unknown): AgentId[] {
  const agents = typeof data === 'object' && data !== null ? (data as { agents?: unknown }).agents : undefined;
  return Array.isArray(agents) ? agents.filter((a): a is AgentId => typeof a === 'string' && isAgentId(a)) : [];
}

const loaded = new Map<AgentId, Promise<AgentReader>>();
function readerFor(id: AgentId): Promise<AgentReader> {
  let r = loaded.get(id);
  if (r === undefined) {
    r = loadReader(id);
    loaded.set(id, r);
  }
  return r;
}

async function answer(req: WorkerRequest): Promise<{ id: number; summary?: unknown; error?: string }> {
  try {
    if (!isAgentId(req.session.agent)) return { id: req.id, error: `no reader for ${req.session.agent}` };
    const reader = await readerFor(req.session.agent);
    return { id: req.id, summary: await summariseSession(reader, req.session, req.userHome) };
  } catch (error) {
    return { id: req.id, error: errorMessage(error) };
  }
}

const port = parentPort;
if (port !== null) {
  // A reader that fails to load fails its sessions when they come (answer), not the worker.
  await Promise.allSettled(startAgents(workerData).map(readerFor));
  port.on('message', (req: WorkerRequest) => {
    void answer(req).then((reply) => port.postMessage(reply));
  });
  port.postMessage({ ready: true });
}
