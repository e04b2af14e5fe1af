// Worker thread body: runs one session's message extraction off the sweep's thread, so a signal
// stops the sweep at once (the thread is terminated) however long one large session takes to read.
import { parentPort } from 'node:worker_threads';
import { readerFor } from '../agents/all-readers.js';
import type { DiscoveredSession } from '../agents/types.js';
import { errorMessage } from '../fs/errors.js';
import type { MessageResume } from '../record/message-index.js';

export interface ExtractRequest {
  session: DiscoveredSession;
  from: MessageResume | null;
}

const port = parentPort;
if (port !== null) {
  port.once('message', (req: ExtractRequest) => {
    const reader = readerFor(req.session.agent);
    if (reader === undefined) {
      port.postMessage({ error: `no reader for ${req.session.agent}` });
      return;
    }
    reader.messages.extract(req.session, req.from).then(
      (result) => port.postMessage({ result }),
      (error: unknown) => port.postMessage({ error: errorMessage(error) }),
    );
  });
}
