// What the dashboard shows and changes about sync (issue 14): a session's sharing state (is its
// directory allowed, at which level, through which allowed path, and when a sync last put it on the
// hub), and allowing or denying a repository. Judged as sync first judges: on the session's header
// or the scan cache, never by reading the session. The routes sit behind the app's token, Host,
// Origin and body-size checks like every other route; bodies are validated with zod.
import type { Hono } from 'hono';
import { z } from 'zod';
import { readKnownProjects } from '../scan/known-projects.js';
import { readAllowlist, writeAllowlist } from '../sync/allow/allow-file.js';
import { coveringRoot, decideOptIn, normalisePath } from '../sync/allow/opt-in.js';
import { readLastSync, sessionKeyOf } from '../sync/last-sync.js';
import { cwdCandidates, knownCwds } from '../sync/prepare.js';
import { cachedRealPath } from '../sync/settings.js';
import { detailLevels, type Detail } from '../record/types.js';
import type { SharingBody, SharingChangeBody } from './sharing-types.js';
import { HttpError } from './http-error.js';
import { check, sessionParams } from './params.js';
import type { ServerStore } from './store.js';

/** Where sync keeps its opt-in file and its last run (`syncPaths`). */
export interface SharingFiles {
  allowFile: string;
  lastSync: string;
}

const pathField = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => p.startsWith('/'), 'an absolute path');

export const allowBody = z.object({ path: pathField, detail: z.enum(detailLevels).default('full') }).strict();
export const denyBody = z.object({ path: pathField }).strict();

async function jsonBody(c: { req: { json(): Promise<unknown> } }, example: string): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new HttpError(400, 'invalid_body', `the body must be JSON: ${example}`);
  }
}

function rootOf(raw: string): string {
  const abs = normalisePath(raw);
  if (abs === null) throw new HttpError(400, 'invalid_body', 'invalid body path: not a path');
  return abs;
}

export function registerSharing(app: Hono, store: ServerStore, files: SharingFiles): void {
  const listed = (allow: ReadonlyMap<string, Detail>) =>
    [...allow.keys()].sort().map((path) => ({ path, detail: allow.get(path) as Detail }));

  app.get('/api/session/:agent/:id/sharing', async (c) => {
    const { agent, id } = sessionParams(c.req.param('agent'), c.req.param('id'));
    const loc = await store.sources.locate(agent, id);
    const allow = await readAllowlist(files.allowFile);
    const real = cachedRealPath();
    const known = await knownCwds(loc.reader, await loc.session(), null, cwdCandidates(allow, readKnownProjects(store.stateRoot), real));
    const decision = known === null ? null : decideOptIn(known.cwds, allow, real);
    const last = await readLastSync(files.lastSync);
    const repo = known?.cwds[0] ?? null;
    const body: SharingBody = {
      agent,
      session_id: id,
      repo,
      allowed: decision?.allowed === true,
      detail: decision?.allowed === true ? decision.detail : null,
      allowed_by: repo === null ? null : coveringRoot(repo, allow, real),
      reason: decision === null ? 'no working directory known without reading the session' : decision.allowed ? null : decision.reason,
      last_uploaded: last?.sessions?.[sessionKeyOf(agent, id)] ?? null,
      hub: last?.hub ?? null,
    };
    return c.json(body);
  });

  app.post('/api/sharing/allow', async (c) => {
    const { path, detail } = check(allowBody, await jsonBody(c, '{"path": "/abs/repo", "detail": "full"}'), 'body');
    const root = rootOf(path);
    const allow = new Map(await readAllowlist(files.allowFile));
    const changed = allow.get(root) !== detail;
    allow.set(root, detail);
    writeAllowlist(files.allowFile, allow);
    const body: SharingChangeBody = { ok: true, changed, allowed: listed(allow) };
    return c.json(body);
  });

  app.post('/api/sharing/deny', async (c) => {
    const { path } = check(denyBody, await jsonBody(c, '{"path": "/abs/repo"}'), 'body');
    const root = rootOf(path);
    const allow = new Map(await readAllowlist(files.allowFile));
    const changed = allow.delete(root);
    writeAllowlist(files.allowFile, allow);
    const body: SharingChangeBody = { ok: true, changed, allowed: listed(allow) };
    return c.json(body);
  });
}
