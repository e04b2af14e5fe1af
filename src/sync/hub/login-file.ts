// Where `agentlog login` keeps the hub's URL and token: `<config>/hub.json`, mode 0600, written
// atomically. The token never comes from argv (it would sit in the process list and shell history).
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../../fs/atomic-write.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { SyncError } from '../allow/errors.js';

const loginSchema = z.object({ version: z.literal(1), hub: z.url(), token: z.string().min(1).max(200) }).strict();
export type HubLogin = { hub: string; token: string };

export function loginFilePath(configDir: string): string {
  return join(configDir, 'hub.json');
}

/** The stored login, or null when there is none. A corrupt file is an error. */
export async function readLogin(path: string): Promise<HubLogin | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return null;
    throw new SyncError('HubLoginUnreadable', 'failed', `cannot read ${path}: ${errorMessage(error)}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SyncError('HubLoginUnreadable', 'failed', `${path} is not JSON: run agentlog login again`, { cause: error });
  }
  const parsed = loginSchema.safeParse(json);
  if (!parsed.success) throw new SyncError('HubLoginUnreadable', 'failed', `${path} is not a hub login: run agentlog login again`);
  return { hub: parsed.data.hub, token: parsed.data.token };
}

export function writeLogin(path: string, login: HubLogin): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(path, `${JSON.stringify({ version: 1, hub: login.hub, token: login.token }, null, 2)}\n`, { mode: 0o600 });
}
