// The hub's HTTP app (issue 13): the sources ledger, notes and search under /v1, token or session
// cookie auth, request limits, and the hub web app's files at `/`. Built like `serve`'s app (its
// security headers, error boundary and validation); no environment is read here: the store, the
// clock and the web root come in as options, so tests drive it through `app.request()`.
import { existsSync } from 'node:fs';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { monotonicFactory } from 'ulid';
import type { Clock } from '../fs/clock.js';
import { errorBody, errorBoundary, HttpError } from '../server/http-error.js';
import { check } from '../server/params.js';
import { securityHeaders } from '../server/security.js';
import { serveStatic } from '../server/static-files.js';
import type {
  CheckBody,
  HubHealthBody,
  IngestBody,
  NoteWriteBody,
  ProjectsBody,
  SearchBody,
  SessionBody,
  SourceBody,
} from './api-types.js';
import {
  clearSessionCookie,
  type HubEnv,
  principalOf,
  requirePrincipal,
  sameOriginWrites,
  setSessionCookie,
  unauthorized,
} from './auth.js';
import { decodeCursor, encodeCursor, isUlid } from './cursor.js';
import { prepareSource } from './ingest.js';
import {
  checkBody,
  noteBody,
  notePatch,
  projectsQuery,
  searchQuery,
  searchTerms,
  sessionBody,
  slugRule,
  sourceBody,
  sourcesQuery,
} from './params.js';
import { redactText } from './redact.js';
import { HubQueryError } from './sql-driver.js';
import type { HubStore, NoteRow } from './store.js';

/** The largest session record (a source's body) the hub files; past it, a 413. */
export const hubBodyLimit = 1024 * 1024;
export const noteBodyLimit = 64 * 1024;
/**
 * What an upload may carry: its record travels as a JSON string inside the request, and escaping
 * at most doubles JSON text (a quote, a backslash or a newline between tokens becomes two bytes;
 * every other character is kept or was escaped already), so any record within `hubBodyLimit` fits,
 * with the envelope's few fields beside it. The record itself is measured once parsed.
 */
export const uploadRequestLimit = 2 * hubBodyLimit + 64 * 1024;

export interface HubAppOptions {
  store: HubStore;
  clock: Clock;
  version: string;
  /** The hub web app's build (dist/web-hub), served at `/` when the folder exists. */
  webRoot?: string | null;
  /** Where errors the boundary meets are logged (driver errors with their SQL). */
  log?: (line: string) => void;
  /** Believe `X-Forwarded-Proto: https` from a TLS-terminating proxy in front (for the cookie's `Secure`). */
  trustProxy?: boolean;
}

const notFound = (what: string) => new HttpError(404, 'not_found', `no such ${what}`);

const bodiless = new Set(['GET', 'HEAD']);

/**
 * 413 past `bytes`. A GET carries no body, and a declared Content-Length is the size Node's parser
 * holds the body to: both pass without touching `c.req.raw.body`, which on the Node adapter builds a
 * whole web Request per request (a tenth of a listing's cost). A chunked body is counted as it streams.
 */
function limit(bytes: number, what: string): MiddlewareHandler {
  const tooLarge = () => new HttpError(413, 'body_too_large', `${what} are limited to ${bytes / 1024} KiB`);
  const streamed = bodyLimit({
    maxSize: bytes,
    onError: () => {
      throw tooLarge();
    },
  });
  return async (c, next) => {
    if (bodiless.has(c.req.method)) return next();
    const declared = c.req.header('content-length');
    if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return streamed(c, next);
    if (!/^\d+$/.test(declared) || Number(declared) > bytes) throw tooLarge();
    return next();
  };
}

async function jsonOf(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new HttpError(400, 'invalid_body', 'the body must be JSON');
  }
}

function noteAnswer(note: NoteRow, status: 'written' | 'unchanged', redacted: number): NoteWriteBody {
  return {
    ok: true,
    status,
    id: `${note.scope}/${note.slug}`,
    slug: note.slug,
    scope: note.scope,
    title: note.title,
    project: note.project,
    version: note.version,
    redacted,
  };
}

export function createHubApp(opts: HubAppOptions): Hono<HubEnv> {
  const { store, clock } = opts;
  const log = opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const trustProxy = opts.trustProxy === true;
  const nextId = monotonicFactory();
  const now = () => new Date(clock.now()).toISOString();
  const webRoot = opts.webRoot !== undefined && opts.webRoot !== null && existsSync(opts.webRoot) ? opts.webRoot : null;

  const app = new Hono<HubEnv>();
  const boundary = errorBoundary(log);
  app.onError((error, c) => {
    // The SQL goes to the log only; the client gets the generic message.
    if (error instanceof HubQueryError) log(`database error ${c.req.method} ${c.req.routePath}: ${error.detail}`);
    return boundary(error, c);
  });
  app.notFound((c) => c.json(errorBody('not_found', 'no such route'), 404));
  app.use('*', securityHeaders());
  app.use('*', sameOriginWrites());
  const noteLimit = limit(noteBodyLimit, 'notes');
  const uploadLimit = limit(uploadRequestLimit, 'uploads');
  const requestLimit = limit(hubBodyLimit, 'request bodies');
  app.use('*', (c, next) => {
    const path = c.req.path;
    if (path === '/v1/notes' || path.startsWith('/v1/notes/')) return noteLimit(c, next);
    return (path === '/v1/sources' ? uploadLimit : requestLimit)(c, next);
  });

  app.get('/v1/health', (c) => c.json({ ok: true, version: opts.version, store: store.dialect } satisfies HubHealthBody));

  app.post('/v1/session', async (c) => {
    const { token } = check(sessionBody, await jsonOf(c), 'body');
    const who = await principalOf(store, token);
    if (who === null) throw unauthorized();
    setSessionCookie(c, token, trustProxy);
    c.header('Cache-Control', 'no-store');
    return c.json({ ok: true, user: who.user, workspace: who.workspace } satisfies SessionBody);
  });
  app.delete('/v1/session', (c) => {
    clearSessionCookie(c, trustProxy);
    return c.json({ ok: true });
  });

  app.use('/v1/*', requirePrincipal(store));
  app.use('/v1/*', async (c, next) => {
    // Set before the route answers: a header added to a finished response makes the Node adapter
    // rebuild it as a web Response and stream its body, instead of writing the string at once.
    c.header('Cache-Control', 'no-store');
    await next();
  });

  app.get('/v1/session', (c) => {
    const who = c.get('who');
    return c.json({ ok: true, user: who.user, workspace: who.workspace } satisfies SessionBody);
  });

  app.post('/v1/sources', async (c) => {
    const upload = check(sourceBody, await jsonOf(c), 'body');
    if (Buffer.byteLength(upload.body, 'utf8') > hubBodyLimit)
      throw new HttpError(413, 'body_too_large', `session records are limited to ${hubBodyLimit / 1024} KiB`);
    const input = prepareSource(upload);
    const stamp = clock.now();
    const { row, created } = await store.ingestSource(c.get('who'), input, nextId(stamp), new Date(stamp).toISOString());
    return c.json({ ok: true, ...row, created, redacted: input.redactions } satisfies IngestBody, created ? 201 : 200);
  });

  app.post('/v1/sources/check', async (c) => {
    const { hashes, scope } = check(checkBody, await jsonOf(c), 'body');
    return c.json({ ok: true, held: await store.heldHashes(c.get('who'), scope, hashes) } satisfies CheckBody);
  });

  app.get('/v1/sources', async (c) => {
    const q = check(sourcesQuery, c.req.query());
    let before: string | undefined;
    if (q.cursor !== undefined) {
      const id = decodeCursor(q.cursor);
      if (id === null) throw new HttpError(400, 'invalid_parameter', 'invalid parameter cursor: not a cursor this hub gave');
      before = id;
    }
    const page = await store.listSourcesJson(c.get('who'), {
      limit: q.limit,
      ...(q.kind !== undefined ? { kind: q.kind } : {}),
      ...(q.project !== undefined ? { project: q.project } : {}),
      ...(q.agent !== undefined ? { agent: q.agent } : {}),
      ...(before !== undefined ? { before } : {}),
    });
    // A `SourcesBody` whose rows the database wrote as JSON: sent as they come, not parsed and written again.
    const cursor = page.next === null ? null : encodeCursor(page.next);
    return c.body(`{"ok":true,"sources":${page.json},"cursor":${JSON.stringify(cursor)}}`, 200, { 'Content-Type': 'application/json' });
  });

  // Before /v1/sources/:id, which would otherwise take "projects" for an id.
  app.get('/v1/sources/projects', async (c) => {
    const q = check(projectsQuery, c.req.query());
    return c.json({ ok: true, projects: await store.projects(c.get('who'), q.kind) } satisfies ProjectsBody);
  });

  app.get('/v1/sources/:id', async (c) => {
    const id = c.req.param('id');
    // Malformed, missing and not-yours are one answer: nothing tells them apart.
    const row = isUlid(id) ? await store.readSource(c.get('who'), id) : null;
    if (row === null) throw notFound('source');
    return c.json({ ok: true, ...row } satisfies SourceBody);
  });

  app.post('/v1/notes', async (c) => {
    const input = check(noteBody, await jsonOf(c), 'body');
    // What is stored was redacted on arrival, and redaction is idempotent: a note sent exactly as it
    // is held is unchanged without redacting it again (an unchanged re-sync sends one per session).
    const held = await store.readNote(c.get('who'), input.scope, input.slug);
    if (held !== null && held.title === input.title && held.body === input.body && held.project === (input.project ?? null))
      return c.json(noteAnswer(held, 'unchanged', 0), 200);
    const title = redactText(input.title);
    const body = redactText(input.body);
    let project: string | null = null;
    if (input.project !== undefined && input.project !== null) {
      const p = redactText(input.project);
      project = p.redactions === 0 ? p.text : null;
    }
    const redacted =
      title.redactions + body.redactions + (input.project !== undefined && input.project !== null && project === null ? 1 : 0);
    const stamp = clock.now();
    const out = await store.putNote(
      c.get('who'),
      { scope: input.scope, slug: input.slug, title: title.text, body: body.text, project },
      nextId(stamp),
      new Date(stamp).toISOString(),
    );
    if (out.status === 'refused') throw new HttpError(409, 'note_edited', out.reason);
    return c.json(noteAnswer(out.note, out.status, redacted), out.status === 'written' && out.created ? 201 : 200);
  });

  app.patch('/v1/notes/:slug', async (c) => {
    const slug = c.req.param('slug');
    const patch = check(notePatch, await jsonOf(c), 'body');
    if (!slugRule.test(slug)) throw notFound('note');
    let redacted = 0;
    const clean = (text: string): string => {
      const r = redactText(text);
      redacted += r.redactions;
      return r.text;
    };
    const note = await store.editNote(
      c.get('who'),
      slug,
      {
        ...(patch.title !== undefined ? { title: clean(patch.title) } : {}),
        ...(patch.body !== undefined ? { body: clean(patch.body) } : {}),
        ...(patch.project !== undefined ? { project: patch.project === null ? null : clean(patch.project) } : {}),
      },
      now(),
    );
    if (note === null) throw notFound('note');
    return c.json(noteAnswer(note, 'written', redacted));
  });

  app.get('/v1/search', async (c) => {
    const q = check(searchQuery, c.req.query());
    const terms = searchTerms(q.q);
    if (terms.length === 0) throw new HttpError(400, 'invalid_parameter', 'invalid parameter q: give at least one word');
    const results = await store.searchNotes(c.get('who'), {
      terms,
      limit: q.limit,
      ...(q.project !== undefined ? { project: q.project } : {}),
    });
    return c.json({ ok: true, results } satisfies SearchBody);
  });

  app.all('/v1/*', (c) => c.json(errorBody('not_found', 'no such route'), 404));
  if (webRoot !== null) app.get('*', (c) => serveStatic(c, webRoot));
  return app;
}
