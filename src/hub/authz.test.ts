// The authorization matrix (issue 13): ann and bob in workspace red, eve in blue, against every
// route through the app's request handler: 401 without credentials, with a malformed or a revoked
// token; no read crosses a person's personal scope or a workspace; not-yours and missing are the
// same 404, byte for byte.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testHub, type TestHub, upload } from './test-support/hub.js';

interface Route {
  method: string;
  path: string;
  body?: unknown;
}

let hub: TestHub;
let annOwn: { id: string; sha256: string };
let annShared: { id: string; sha256: string };

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

beforeEach(async () => {
  hub = await testHub();
  const own = await hub.request('/v1/sources', { method: 'POST', token: hub.tokens.ann, body: upload('own-1', { project: 'alpha' }) });
  expect(own.status).toBe(201);
  annOwn = (await json(own)) as unknown as typeof annOwn;
  const shared = await hub.request('/v1/sources', {
    method: 'POST',
    token: hub.tokens.ann,
    body: upload('shared-1', { project: 'beta', scope: 'shared' }),
  });
  annShared = (await json(shared)) as unknown as typeof annShared;
  for (const [slug, scope] of [
    ['ann-own', 'personal'],
    ['ann-team', 'shared'],
  ] as const)
    expect(
      (
        await hub.request('/v1/notes', {
          method: 'POST',
          token: hub.tokens.ann,
          body: { slug, scope, title: `${slug} page`, body: 'the zeppelin migration', project: 'alpha' },
        })
      ).status,
    ).toBe(201);
});
afterEach(async () => hub.close());

function routes(): Route[] {
  return [
    { method: 'GET', path: '/v1/session' },
    { method: 'POST', path: '/v1/sources', body: upload('x-1') },
    { method: 'POST', path: '/v1/sources/check', body: { hashes: [annOwn.sha256] } },
    { method: 'GET', path: '/v1/sources' },
    { method: 'GET', path: `/v1/sources/${annOwn.id}` },
    { method: 'GET', path: '/v1/sources/projects' },
    { method: 'POST', path: '/v1/notes', body: { slug: 'n-1', title: 't', body: 'b' } },
    { method: 'PATCH', path: '/v1/notes/ann-own', body: { body: 'edited' } },
    { method: 'GET', path: '/v1/search?q=zeppelin' },
  ];
}

describe('credentials', () => {
  it('every route but health and sign-in answers 401 without a token, with a malformed one, a wrong one, or a revoked one', async () => {
    await hub.store.revokeTokens('bob', '2026-10-02T00:00:00.000Z');
    const cases: [string, Record<string, string>][] = [
      ['none', {}],
      ['malformed', { Authorization: 'Bearer nope' }],
      ['not bearer', { Authorization: `Basic ${hub.tokens.ann}` }],
      ['unknown', { Authorization: `Bearer alh_${'A'.repeat(43)}` }],
      ['revoked', { Authorization: `Bearer ${hub.tokens.bob}` }],
      ['revoked cookie', { Cookie: `agentlog_hub=${hub.tokens.bob}` }],
    ];
    for (const route of routes())
      for (const [label, headers] of cases) {
        const res = await hub.request(route.path, { method: route.method, body: route.body, headers });
        expect(res.status, `${route.method} ${route.path} with ${label}`).toBe(401);
        expect(res.headers.get('www-authenticate')).toContain('Bearer');
        expect(await json(res)).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
      }
    expect((await hub.request('/v1/health')).status).toBe(200);
    const count = await hub.store.driver.all<{ n: number }>('SELECT COUNT(*) AS n FROM sources');
    expect(count[0]?.n).toBe(2);
  });

  it('the sign-in cookie stands for the token: HttpOnly, SameSite=Strict, Secure only over TLS; sign-out clears it', async () => {
    const bad = await hub.request('/v1/session', { method: 'POST', body: { token: 'alh_wrong' } });
    expect(bad.status).toBe(401);
    const res = await hub.request('/v1/session', { method: 'POST', body: { token: hub.tokens.ann } });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ ok: true, user: 'ann', workspace: 'red' });
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^agentlog_hub=alh_/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/);
    const pair = cookie.split(';')[0] as string;
    const list = await hub.request('/v1/sources', { headers: { Cookie: pair } });
    expect(list.status).toBe(200);
    const tls = await hub.app.request('https://hub.test/v1/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: hub.tokens.ann }),
    });
    expect(tls.headers.get('set-cookie')).toMatch(/Secure/);
    const out = await hub.request('/v1/session', { method: 'DELETE', headers: { Cookie: pair } });
    expect(out.headers.get('set-cookie')).toMatch(/agentlog_hub=;.*Max-Age=0/);
  });

  it('a write from another site is refused even with the cookie', async () => {
    const res = await hub.request('/v1/notes', {
      method: 'POST',
      body: { slug: 'csrf', title: 't', body: 'b' },
      headers: { Cookie: `agentlog_hub=${hub.tokens.ann}`, Origin: 'http://evil.example', Host: 'hub.test' },
    });
    expect(res.status).toBe(403);
    const same = await hub.request('/v1/notes', {
      method: 'POST',
      body: { slug: 'same-site', title: 't', body: 'b' },
      headers: { Cookie: `agentlog_hub=${hub.tokens.ann}`, Origin: 'http://hub.test', Host: 'hub.test' },
    });
    expect(same.status).toBe(201);
  });
});

describe('scopes', () => {
  async function notFoundOf(path: string, token: string, init: { method?: string; body?: unknown } = {}) {
    const res = await hub.request(path, { ...init, token });
    const headers: [string, string][] = [];
    res.headers.forEach((v, k) => {
      if (k !== 'date') headers.push([k, v]);
    });
    return { status: res.status, body: await res.text(), headers };
  }

  it("another workspace's member reads nothing of ann's: one identical 404 for not-yours, missing and malformed", async () => {
    const eve = hub.tokens.eve;
    const theirs = await notFoundOf(`/v1/sources/${annOwn.id}`, eve);
    const shared = await notFoundOf(`/v1/sources/${annShared.id}`, eve);
    const missing = await notFoundOf('/v1/sources/01ZZZZZZZZZZZZZZZZZZZZZZZZ', eve);
    const malformed = await notFoundOf('/v1/sources/not-an-id', eve);
    expect(theirs.status).toBe(404);
    for (const other of [shared, missing, malformed]) expect(other).toEqual(theirs);
    const list = await json(await hub.request('/v1/sources', { token: eve }));
    expect(list).toEqual({ ok: true, sources: [], cursor: null });
    expect(await json(await hub.request('/v1/sources/projects', { token: eve }))).toEqual({ ok: true, projects: [] });
    for (const scope of ['personal', 'shared'])
      expect(
        await json(
          await hub.request('/v1/sources/check', {
            method: 'POST',
            token: eve,
            body: { hashes: [annOwn.sha256, annShared.sha256], scope },
          }),
        ),
      ).toEqual({ ok: true, held: [] });
    expect(await json(await hub.request('/v1/search?q=zeppelin', { token: eve }))).toEqual({ ok: true, results: [] });
    const patchTheirs = await notFoundOf('/v1/notes/ann-team', eve, { method: 'PATCH', body: { body: 'x' } });
    const patchMissing = await notFoundOf('/v1/notes/no-such-page', eve, { method: 'PATCH', body: { body: 'x' } });
    expect(patchTheirs.status).toBe(404);
    expect(patchMissing).toEqual(patchTheirs);
    // The same slug filed by eve is eve's own page; ann's is untouched.
    const own = await hub.request('/v1/notes', { method: 'POST', token: eve, body: { slug: 'ann-own', title: 'mine', body: 'eve text' } });
    expect(own.status).toBe(201);
    const annHits = (await json(await hub.request('/v1/search?q=zeppelin', { token: hub.tokens.ann }))).results as { slug: string }[];
    expect(annHits.map((h) => h.slug).sort()).toEqual(['ann-own', 'ann-team']);
  });

  it("a member of the same workspace sees its shared sources and pages, never ann's personal ones", async () => {
    const bob = hub.tokens.bob;
    const own = await notFoundOf(`/v1/sources/${annOwn.id}`, bob);
    const missing = await notFoundOf('/v1/sources/01ZZZZZZZZZZZZZZZZZZZZZZZZ', bob);
    expect(own.status).toBe(404);
    expect(own).toEqual(missing);
    const shared = await hub.request(`/v1/sources/${annShared.id}`, { token: bob });
    expect(shared.status).toBe(200);
    expect(await json(shared)).toMatchObject({ id: annShared.id, scope: 'shared', project: 'beta' });
    const list = (await json(await hub.request('/v1/sources', { token: bob }))).sources as { id: string }[];
    expect(list.map((s) => s.id)).toEqual([annShared.id]);
    expect(await json(await hub.request('/v1/sources/projects', { token: bob }))).toEqual({
      ok: true,
      projects: [{ project: 'beta', sources: 1 }],
    });
    expect(
      await json(
        await hub.request('/v1/sources/check', { method: 'POST', token: bob, body: { hashes: [annShared.sha256], scope: 'shared' } }),
      ),
    ).toEqual({
      ok: true,
      held: [annShared.sha256],
    });
    expect(await json(await hub.request('/v1/sources/check', { method: 'POST', token: bob, body: { hashes: [annOwn.sha256] } }))).toEqual({
      ok: true,
      held: [],
    });
    const hits = (await json(await hub.request('/v1/search?q=zeppelin', { token: bob }))).results as { slug: string }[];
    expect(hits.map((h) => h.slug)).toEqual(['ann-team']);
    expect(
      (await hub.request('/v1/notes/ann-team', { method: 'PATCH', token: bob, body: { body: 'bob edits the team page' } })).status,
    ).toBe(200);
    const personal = await notFoundOf('/v1/notes/ann-own', bob, { method: 'PATCH', body: { body: 'x' } });
    expect(personal.status).toBe(404);
  });

  it('the owner reads both, and a revoked owner reads nothing', async () => {
    const ann = hub.tokens.ann;
    const body = await json(await hub.request(`/v1/sources/${annOwn.id}`, { token: ann }));
    expect(JSON.parse(body.body as string)).toMatchObject({ session_id: 'own-1' });
    expect(((await json(await hub.request('/v1/sources', { token: ann }))).sources as unknown[]).length).toBe(2);
    await hub.store.revokeTokens('ann', '2026-10-02T00:00:00.000Z');
    expect((await hub.request(`/v1/sources/${annOwn.id}`, { token: ann })).status).toBe(401);
  });
});
