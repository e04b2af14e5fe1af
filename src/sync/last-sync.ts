// A line of what the last sync did, for `agentlog status`. Informational only: nothing decides what
// to send from it (the hub's ledger is the only dedupe).
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../fs/atomic-write.js';

const lastSyncSchema = z.object({
  at: z.string(),
  hub: z.string(),
  uploaded: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  /** `agent:session_id` → when a sync last found the session on the hub (uploaded or unchanged). */
  sessions: z.record(z.string(), z.string()).optional(),
});
export type LastSync = z.infer<typeof lastSyncSchema>;

export async function readLastSync(path: string): Promise<LastSync | null> {
  try {
    const parsed = lastSyncSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writeLastSync(path: string, last: LastSync): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(path, JSON.stringify(last), { mode: 0o600, durable: false });
}

/** The key of a session in `LastSync.sessions`. */
export function sessionKeyOf(agent: string, sessionId: string): string {
  return `${agent}:${sessionId}`;
}

/** The previous run's per-session times with this run's sessions that reached the hub set to `at`. */
export function mergeSent(
  previous: LastSync | null,
  at: string,
  sessions: readonly { agent: string; session_id: string; status: string }[],
): Record<string, string> {
  const out: Record<string, string> = { ...previous?.sessions };
  for (const s of sessions) if (s.status === 'uploaded' || s.status === 'unchanged') out[sessionKeyOf(s.agent, s.session_id)] = at;
  return out;
}
