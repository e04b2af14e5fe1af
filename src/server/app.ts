// The HTTP app of `agentlog serve` (issue 11): security middleware, the JSON routes, events,
// searches, and the dashboard's files. No environment is read here: paths, clock, token and the
// store handles come in as options, so tests drive it through `app.request()` as the server does.
import { join } from 'node:path';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { stream } from 'hono/streaming';
import { finaliseRecord } from '../record/finalise.js';
import { makeHomeElider } from '../record/home-elide.js';
import { writeRecord } from '../record/serialise.js';
import { renameSession, sessionName } from '../names/session-names.js';
import { search } from '../search/query.js';
import type { HealthBody, RenameBody } from './api-types.js';
import { deepSearch } from './deep-search.js';
import { errorBody, errorBoundary, HttpError } from './http-error.js';
import { parseLocateParam } from './locator-param.js';
import {
  check,
  deepSearchQuery,
  detailQuery,
  messageSearchQuery,
  nameBody,
  recordQuery,
  sessionParams,
  sessionsQuery,
  turnsQuery,
  usageQuery,
} from './params.js';
import { exportHtml, loadExportAssets } from './export-html.js';
import { reportZip } from './report-zip.js';
import { allowedHosts, hostCheck, loginLink, originCheck, requireToken, securityHeaders } from './security.js';
import { readDetail } from './session-detail.js';
import { sessionEvents } from './session-events.js';
import { RecordCache, readTurns } from './session-turns.js';
import { registerSharing, type SharingFiles } from './sharing.js';
import { StaticSite } from './static-files.js';
import { firstSessionsUrl } from '../web/sessions-url.js';
import type { ServerStore } from './store.js';
import { usageByDay } from './usage.js';

export interface AppOptions {
  store: ServerStore;
  token: string;
  /** The bound address: requests must name it in Host. */
  host: string;
  port: number;
  /** The dashboard build (dist/web), or null when there is none. */
  webRoot: string | null;
  userHome: string;
  /** How often a live event stream polls besides watching (ms). */
  eventsPollMs?: number;
  /** Sync's files, for the sharing routes (absent: no sharing routes). */
  sharing?: SharingFiles;
}

export const bodyLimitBytes = 16 * 1024;

export function createApp(opts: AppOptions): Hono {
  const { store } = opts;
  const app = new Hono();
  const hosts = allowedHosts(opts.host, opts.port);
  const records = new RecordCache(makeHomeElider(opts.userHome), store.now);
  app.onError(errorBoundary((line) => store.log.write(line)));
  app.notFound((c) => c.json(errorBody('not_found', 'no such route'), 404));
  app.use('*', securityHeaders());
  app.use('*', hostCheck(hosts));
  app.use('*', originCheck(hosts));
  app.use(
    '*',
    bodyLimit({
      maxSize: bodyLimitBytes,
      onError: () => {
        throw new HttpError(413, 'body_too_large', `request bodies are limited to ${bodyLimitBytes / 1024} KiB`);
      },
    }),
  );
  app.use('/api/*', requireToken(opts.token));
  app.use('/', loginLink(opts.token));

  app.get('/api/health', async (c) => {
    const sweeper = store.sweeper;
    const facts = store.index.facts;
    const sweeping = (sweeper?.sweeping ?? 0) > 0;
    const body: HealthBody = {
      ok: true,
      version: store.version,
      started_at_ms: store.startedAt,
      store: {
        state: facts.state === 'empty' && sweeping ? 'building' : facts.state,
        revision: facts.revision,
        window_days: facts.window_days,
      },
      watching: sweeper?.watching ?? 'off',
      sweeping,
      last_sweep: sweeper?.last ?? null,
      indexed: { sessions: facts.sessions, messages: facts.messages },
    };
    return c.json(body);
  });

  app.get('/api/sessions', async (c) => {
    const q = check(sessionsQuery, c.req.query());
    return c.json(await store.list.page({ agents: q.agent, repo: q.repo, q: q.q, limit: q.limit, cursor: q.cursor }));
  });

  app.get('/api/sessions/message-search', async (c) => {
    const q = check(messageSearchQuery, c.req.query());
    c.header('Cache-Control', 'no-store');
    const body = await store.gate.run(() =>
      search(
        {
          q: q.q ?? '',
          ...(q.agent !== undefined ? { agents: q.agent } : {}),
          includeSuperseded: q.include_superseded,
          includeSubagents: q.include_subagents,
          ...(q.limit !== undefined ? { limit: q.limit } : {}),
          cursor: q.cursor ?? null,
          ...(q.window_days !== undefined ? { windowDays: q.window_days } : {}),
        },
        { root: store.searchRoot, cache: store.shards, now: store.now },
      ),
    );
    return c.json(body);
  });

  app.get('/api/sessions/deep-search', async (c) => {
    const q = check(deepSearchQuery, c.req.query());
    const terms = q.q.split(/\s+/).filter((t) => t !== '');
    if (terms.length === 0 || terms.length > 8) throw new HttpError(400, 'invalid_parameter', 'give 1 to 8 search terms');
    const agents = store.readableAgents().filter((a) => q.agent === undefined || q.agent.length === 0 || q.agent.includes(a.reader.id));
    c.header('Content-Type', 'application/x-ndjson; charset=utf-8');
    c.header('Cache-Control', 'no-store');
    return stream(c, async (s) => {
      const stop = new AbortController();
      s.onAbort(() => stop.abort());
      await deepSearch(
        agents,
        { terms, timeMs: q.timeout_ms, maxHits: q.max_hits },
        async (line) => {
          await s.write(`${JSON.stringify(line)}\n`);
        },
        stop.signal,
        store.now,
      );
    });
  });

  app.get('/api/session/:agent/:id', async (c) => {
    const { agent, id } = sessionParams(c.req.param('agent'), c.req.param('id'));
    const q = check(detailQuery, c.req.query());
    const locate = q.locate === undefined ? undefined : parseLocateParam(q.locate);
    return c.json(
      await readDetail(
        store.sources,
        {
          agent,
          id,
          limit: q.limit,
          ...(q.before !== undefined ? { before: q.before } : {}),
          ...(q.thread !== undefined ? { thread: q.thread } : {}),
          ...(locate !== undefined ? { locate } : {}),
        },
        store.now(),
      ),
    );
  });

  app.get('/api/session/:agent/:id/record', async (c) => {
    const { agent, id } = sessionParams(c.req.param('agent'), c.req.param('id'));
    const { detail } = check(recordQuery, c.req.query());
    const loc = await store.sources.locate(agent, id);
    const parsed = await loc.reader.parse(await loc.session(), { detail });
    if (parsed.record === null)
      throw new HttpError(422, 'unparsed', `the files of ${agent} session ${id} hold no session agentlog can read`);
    const record = finaliseRecord(parsed.record, { detail, elide: makeHomeElider(opts.userHome) });
    c.header('Content-Type', 'application/json; charset=utf-8');
    return stream(c, async (s) => {
      const chunks: string[] = [];
      writeRecord(record, (chunk) => chunks.push(chunk));
      for (const chunk of chunks) await s.write(chunk);
      await s.write('\n');
    });
  });

  app.get('/api/session/:agent/:id/turns', async (c) => {
    const { agent, id } = sessionParams(c.req.param('agent'), c.req.param('id'));
    const q = check(turnsQuery, c.req.query());
    const loc = await store.sources.locate(agent, id);
    const { limit, before, from, around, match, before_end, line } = q;
    return c.json(
      await readTurns(records, loc, {
        limit,
        ...(before_end !== undefined ? { beforeEnd: before_end } : {}),
        ...(before !== undefined ? { before } : {}),
        ...(from !== undefined ? { from } : {}),
        ...(around !== undefined ? { around } : {}),
        ...(match !== undefined ? { match } : {}),
        ...(line !== undefined ? { line } : {}),
      }),
    );
  });

  app.get('/api/session/:agent/:id/events', async (c) => {
    const { agent, id } = sessionParams(c.req.param('agent'), c.req.param('id'));
    return sessionEvents(c, store.sources, agent, id, { pollMs: opts.eventsPollMs ?? 250 });
  });

  app.put('/api/session/:agent/:id/name', async (c) => {
    const { agent, id } = sessionParams(c.req.param('agent'), c.req.param('id'));
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw new HttpError(400, 'invalid_body', 'the body must be JSON: {"name": "…"}');
    }
    const { name } = check(nameBody, raw, 'body');
    const loc = await store.sources.locate(agent, id);
    const session = await loc.session();
    const renamed = await renameSession(store.stateRoot, agent, id, session.path, name);
    await store.list.renamed();
    const body: RenameBody = { ok: true, agent, session_id: id, name: renamed.name, stored_in: renamed.where };
    return c.json(body);
  });

  app.get('/api/session/:agent/:id/report.zip', async (c) => {
    const { agent, id } = sessionParams(c.req.param('agent'), c.req.param('id'));
    const zip = await reportZip(store.sources, store.log, agent, id, { version: store.version, now: store.now() });
    c.header('Content-Type', 'application/zip');
    c.header('Content-Disposition', `attachment; filename="${zip.name}"`);
    return c.body(zip.body);
  });

  app.get('/api/session/:agent/:id/export.html', async (c) => {
    const { agent, id } = sessionParams(c.req.param('agent'), c.req.param('id'));
    if (opts.webRoot === null) throw new HttpError(503, 'export_unbuilt', 'the HTML export is not built: run npm run build');
    const loc = await store.sources.locate(agent, id);
    const [record, assets, name] = await Promise.all([
      records.record(loc),
      // The export bundle is built beside the dashboard's (dist/web-export next to dist/web).
      loadExportAssets(join(opts.webRoot, '..', 'web-export')),
      loc.session().then((s) => sessionName(store.stateRoot, agent, id, s.path)),
    ]);
    c.header('Content-Type', 'text/html; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="${agent}-${id}.html"`);
    return c.body(exportHtml(record, name, assets));
  });

  app.get('/api/usage', async (c) => {
    const { days, tz } = check(usageQuery, c.req.query());
    // The person's days: the browser may name its zone; else the server's own (set by TZ at start-up).
    const timeZone = tz ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    return c.json(usageByDay(await store.list.usageSources(), days, store.now(), timeZone));
  });

  if (opts.sharing !== undefined) registerSharing(app, store, opts.sharing);
  app.all('/api/*', (c) => c.json(errorBody('not_found', 'no such route'), 404));
  const site = new StaticSite(opts.webRoot, { preload: [firstSessionsUrl] });
  site.warm();
  app.get('*', (c) => site.serve(c));
  return app;
}
