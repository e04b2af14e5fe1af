// The hub's routes through the app's request handler: ingest 201/200 and redaction on arrival,
// check, the listing's cursor, limits and 400 rules, projects, notes (written, unchanged, refused,
// titled), search, request limits (413), errors that never carry SQL, and the web app's files.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionJson, testHub, type TestHub, upload } from './test-support/hub.js';

let hub: TestHub;
beforeEach(async () => {
  hub = await testHub();
});
afterEach(async () => hub.close());

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;
const secret = `sk-ant-api03-${'a1B2'.repeat(10)}`;

describe('POST /v1/sources', () => {
  it('201 for a new body, 200 with the same row for the same one; a project is gained later and then kept', async () => {
    const first = await hub.request('/v1/sources', { method: 'POST', token: hub.tokens.ann, body: upload('s-1') });
    expect(first.status).toBe(201);
    const a = await json(first);
    expect(a).toMatchObject({
      ok: true,
      created: true,
      kind: 'agent_log',
      scope: 'personal',
      project: null,
      agent: 'claude_code',
      session_id: 's-1',
      title: 'ask of s-1',
      redacted: 0,
    });
    const again = await hub.request('/v1/sources', { method: 'POST', token: hub.tokens.ann, body: upload('s-1', { project: 'demo' }) });
    expect(again.status).toBe(200);
    expect(await json(again)).toMatchObject({ id: a.id, created: false, project: 'demo', sha256: a.sha256 });
    const third = await json(
      await hub.request('/v1/sources', { method: 'POST', token: hub.tokens.ann, body: upload('s-1', { project: 'other' }) }),
    );
    expect(third.project).toBe('demo');
    const { createHash } = await import('node:crypto');
    expect(a.sha256).toBe(createHash('sha256').update(sessionJson('s-1')).digest('hex'));
  });

  it('redacts on arrival: the stored body has the secret replaced and a new hash; a project with a secret is dropped', async () => {
    const body = sessionJson('s-2', `deploy with ${secret} please`);
    const res = await hub.request('/v1/sources', {
      method: 'POST',
      token: hub.tokens.ann,
      body: { kind: 'agent_log', body, project: 'ok-project' },
    });
    expect(res.status).toBe(201);
    const row = await json(res);
    expect(row.redacted).toBeGreaterThan(0);
    const stored = await json(await hub.request(`/v1/sources/${row.id}`, { token: hub.tokens.ann }));
    expect(stored.body).not.toContain(secret);
    expect(stored.body).toContain('[REDACTED:');
    expect(JSON.parse(stored.body as string)).toMatchObject({ session_id: 's-2' });
    const { createHash } = await import('node:crypto');
    expect(row.sha256).toBe(
      createHash('sha256')
        .update(stored.body as string)
        .digest('hex'),
    );
    const inDb = await hub.store.driver.all<{ body: string }>('SELECT body FROM source_bodies');
    expect(inDb.some((r) => r.body.includes(secret))).toBe(false);
    const audit = await hub.store.driver.all<{ redactions: number }>('SELECT redactions FROM arrivals');
    expect(audit[0]?.redactions).toBeGreaterThan(0);
  });

  it('400 for what is not a session record, an unknown kind or scope, a project outside the rule; 413 past 1 MiB', async () => {
    const bad: [unknown, string][] = [
      [{ kind: 'agent_log', body: 'not json' }, 'invalid_body'],
      [{ kind: 'agent_log', body: '{"schema_version":3}' }, 'invalid_record'],
      [{ kind: 'agent_log', body: JSON.stringify({ ...JSON.parse(sessionJson('x')), schema_version: 9 }) }, 'invalid_record'],
      [{ kind: 'chat', body: sessionJson('x') }, 'invalid_body'],
      [{ kind: 'agent_log', body: sessionJson('x'), scope: 'world' }, 'invalid_body'],
      [{ kind: 'agent_log', body: sessionJson('x'), project: '-starts-badly' }, 'invalid_body'],
      [{ kind: 'agent_log', body: sessionJson('x'), project: 'a'.repeat(65) }, 'invalid_body'],
      [{ kind: 'agent_log', body: sessionJson('x'), extra: 1 }, 'invalid_body'],
      ['{', 'invalid_body'],
    ];
    for (const [body, code] of bad) {
      const res = await hub.request('/v1/sources', { method: 'POST', token: hub.tokens.ann, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(((await json(res)).error as { code: string }).code).toBe(code);
    }
    const huge = sessionJson('big', 'x'.repeat(1024 * 1024));
    const res = await hub.request('/v1/sources', { method: 'POST', token: hub.tokens.ann, body: { kind: 'agent_log', body: huge } });
    expect(res.status).toBe(413);
    expect(((await json(res)).error as { code: string }).code).toBe('body_too_large');
    const rows = await hub.store.driver.all<{ n: number }>('SELECT COUNT(*) AS n FROM sources');
    expect(rows[0]?.n).toBe(0);
  });
});

describe('listing', () => {
  it('newest first in pages of the limit (default 50, clamped to 100), the cursor opaque and checked', async () => {
    for (let i = 0; i < 105; i++) {
      const res = await hub.request('/v1/sources', {
        method: 'POST',
        token: hub.tokens.ann,
        body: upload(`p-${i}`, { project: i % 2 === 0 ? 'even' : 'odd' }),
      });
      expect(res.status).toBe(201);
    }
    const first = await json(await hub.request('/v1/sources', { token: hub.tokens.ann }));
    const rows = first.sources as { session_id: string; id: string }[];
    expect(rows).toHaveLength(50);
    expect(rows[0]?.session_id).toBe('p-104');
    expect(rows).not.toContainEqual(expect.objectContaining({ body: expect.anything() }));
    const clamped = await json(await hub.request('/v1/sources?limit=500', { token: hub.tokens.ann }));
    expect((clamped.sources as unknown[]).length).toBe(100);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Record<string, unknown> = await json(
        await hub.request(`/v1/sources?project=even&limit=20${cursor === null ? '' : `&cursor=${cursor}`}`, { token: hub.tokens.ann }),
      );
      seen.push(...(page.sources as { session_id: string }[]).map((s) => s.session_id));
      cursor = page.cursor as string | null;
    } while (cursor !== null);
    expect(seen).toHaveLength(53);
    expect(seen[0]).toBe('p-104');
    expect(seen.at(-1)).toBe('p-0');
    for (const q of [
      'kind=bogus',
      'project=has%20space',
      'project=',
      'agent=Bad-Agent',
      'limit=0',
      'limit=x',
      'cursor=abc',
      'cursor=01ZZZZZZZZZZZZZZZZZZZZZZZZ',
    ]) {
      const res = await hub.request(`/v1/sources?${q}`, { token: hub.tokens.ann });
      expect(res.status, q).toBe(400);
    }
    expect(((await json(await hub.request('/v1/sources?kind=chat', { token: hub.tokens.ann }))).sources as unknown[]).length).toBe(0);
    expect(await json(await hub.request('/v1/sources/projects?kind=agent_log', { token: hub.tokens.ann }))).toEqual({
      ok: true,
      projects: [
        { project: 'even', sources: 53 },
        { project: 'odd', sources: 52 },
      ],
    });
    expect((await hub.request('/v1/sources/projects?kind=nope', { token: hub.tokens.ann })).status).toBe(400);
  });

  it('check answers which hashes the scope holds', async () => {
    const row = await json(await hub.request('/v1/sources', { method: 'POST', token: hub.tokens.ann, body: upload('c-1') }));
    const other = 'f'.repeat(64);
    expect(
      await json(await hub.request('/v1/sources/check', { method: 'POST', token: hub.tokens.ann, body: { hashes: [other, row.sha256] } })),
    ).toEqual({
      ok: true,
      held: [row.sha256],
    });
    expect((await hub.request('/v1/sources/check', { method: 'POST', token: hub.tokens.ann, body: { hashes: ['nothex'] } })).status).toBe(
      400,
    );
  });
});

describe('notes and search', () => {
  const note = {
    slug: 'agent-log-codex-s1',
    title: 'demo · Codex · 2026-10-01 · Fix the zeppelin',
    body: '# Session\n\nUser: fix the zeppelin',
    project: 'demo',
  };

  it('written (201), unchanged (200), a new version (200), refused with a reason after a person edited it (409)', async () => {
    const w = await hub.request('/v1/notes', { method: 'POST', token: hub.tokens.ann, body: note });
    expect(w.status).toBe(201);
    expect(await json(w)).toMatchObject({ ok: true, status: 'written', id: 'personal/agent-log-codex-s1', version: 1, project: 'demo' });
    const same = await hub.request('/v1/notes', { method: 'POST', token: hub.tokens.ann, body: note });
    expect(same.status).toBe(200);
    expect(await json(same)).toMatchObject({ status: 'unchanged', version: 1 });
    const v2 = await json(
      await hub.request('/v1/notes', { method: 'POST', token: hub.tokens.ann, body: { ...note, body: `${note.body}\nmore` } }),
    );
    expect(v2).toMatchObject({ status: 'written', version: 2 });
    const edit = await hub.request(`/v1/notes/${note.slug}`, {
      method: 'PATCH',
      token: hub.tokens.ann,
      body: { body: 'a person rewrote this' },
    });
    expect(edit.status).toBe(200);
    expect(await json(edit)).toMatchObject({ status: 'written', version: 3 });
    const refused = await hub.request('/v1/notes', { method: 'POST', token: hub.tokens.ann, body: { ...note, body: 'machine again' } });
    expect(refused.status).toBe(409);
    expect(await json(refused)).toMatchObject({
      ok: false,
      error: { code: 'note_edited', message: expect.stringMatching(/person edited/) },
    });
  });

  it('an id-only title is read from the note; secrets in a note are redacted on arrival', async () => {
    const res = await json(
      await hub.request('/v1/notes', {
        method: 'POST',
        token: hub.tokens.ann,
        body: {
          slug: 'agent-log-claude-code-a15f',
          title: 'claude_code session a15fba01',
          project: 'EarthOS.world',
          body: `**User:** Fix auth redirect\n\nkey ${secret}`,
        },
      }),
    );
    expect(res).toMatchObject({ title: 'EarthOS.world · Fix auth redirect' });
    expect(res.redacted).toBeGreaterThan(0);
    const stored = await hub.store.driver.all<{ body: string }>('SELECT body FROM notes');
    expect(stored[0]?.body).not.toContain(secret);
  });

  it('a note sent again with its secret is redacted again and unchanged; one sent as held is unchanged too', async () => {
    const withSecret = { ...note, slug: 'agent-log-codex-s2', body: `${note.body}\nkey ${secret}` };
    expect((await hub.request('/v1/notes', { method: 'POST', token: hub.tokens.ann, body: withSecret })).status).toBe(201);
    const again = await json(await hub.request('/v1/notes', { method: 'POST', token: hub.tokens.ann, body: withSecret }));
    expect(again).toMatchObject({ status: 'unchanged', version: 1 });
    expect(again.redacted).toBeGreaterThan(0);
    const stored = await hub.store.driver.all<{ body: string }>('SELECT body FROM notes WHERE slug = ?', [withSecret.slug]);
    const held = stored[0]?.body ?? '';
    expect(held).not.toContain(secret);
    // The held (redacted) text sent back, as sync sends it after redacting on its side: no new version.
    const asHeld = await json(
      await hub.request('/v1/notes', { method: 'POST', token: hub.tokens.ann, body: { ...withSecret, body: held } }),
    );
    expect(asHeld).toMatchObject({ status: 'unchanged', version: 1, redacted: 0 });
    // Another person (another workspace) never finds it held: their first send is a write of their own.
    const other = await hub.request('/v1/notes', { method: 'POST', token: hub.tokens.eve, body: { ...withSecret, body: held } });
    expect(other.status).toBe(201);
  });

  it('413 for a note past 64 KiB; 400 for a bad slug or an empty body', async () => {
    const big = await hub.request('/v1/notes', { method: 'POST', token: hub.tokens.ann, body: { ...note, body: 'x'.repeat(65 * 1024) } });
    expect(big.status).toBe(413);
    const bigPatch = await hub.request(`/v1/notes/${note.slug}`, {
      method: 'PATCH',
      token: hub.tokens.ann,
      body: { body: 'x'.repeat(65 * 1024) },
    });
    expect(bigPatch.status).toBe(413);
    expect((await hub.request('/v1/notes', { method: 'POST', token: hub.tokens.ann, body: { ...note, slug: 'Bad Slug' } })).status).toBe(
      400,
    );
    expect((await hub.request('/v1/notes', { method: 'POST', token: hub.tokens.ann, body: { ...note, body: '' } })).status).toBe(400);
  });

  it('search: the project filter before the limit, hostile queries inert, no words a 400', async () => {
    for (let i = 0; i < 12; i++)
      await hub.request('/v1/notes', {
        method: 'POST',
        token: hub.tokens.ann,
        body: { slug: `n-${i}`, title: `page ${i}`, body: `zeppelin notes ${i}`, project: i < 10 ? 'big' : 'small' },
      });
    const small = await json(await hub.request('/v1/search?q=zeppelin&project=small&limit=2', { token: hub.tokens.ann }));
    expect((small.results as { slug: string; project: string }[]).map((r) => r.project)).toEqual(['small', 'small']);
    const all = await json(await hub.request('/v1/search?q=zeppelin&limit=500', { token: hub.tokens.ann }));
    expect((all.results as unknown[]).length).toBe(12);
    const hostile = await hub.request(`/v1/search?q=${encodeURIComponent('"zeppelin" OR NEAR(* ) --')}`, { token: hub.tokens.ann });
    expect(hostile.status).toBe(200);
    expect((await hub.request('/v1/search?q=%22%22', { token: hub.tokens.ann })).status).toBe(400);
    expect((await hub.request('/v1/search', { token: hub.tokens.ann })).status).toBe(400);
    expect((await hub.request('/v1/search?q=x&project=bad%20one', { token: hub.tokens.ann })).status).toBe(400);
  });
});

describe('errors and files', () => {
  it('a database failure is a generic 500: the SQL goes to the log, never to the client', async () => {
    await hub.store.driver.run('DROP TABLE arrivals');
    const res = await hub.request('/v1/sources', { method: 'POST', token: hub.tokens.ann, body: upload('e-1') });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/INSERT|arrivals|SELECT/);
    expect(hub.logs.join('\n')).toMatch(/INSERT INTO arrivals/);
  });

  it('unknown /v1 routes are JSON 404s; every answer carries the security headers', async () => {
    const res = await hub.request('/v1/nothing', { token: hub.tokens.ann });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect((await hub.request('/')).status).toBe(404);
  });

  it('serves the web app from its folder when it exists, with the same CSP', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentlog-hub-web-'));
    try {
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'index.html'), '<!doctype html><title>hub</title>');
      writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
      const withWeb = await testHub({ webRoot: dir });
      try {
        const index = await withWeb.request('/');
        expect(index.status).toBe(200);
        expect(await index.text()).toContain('<title>hub</title>');
        expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
        expect((await withWeb.request('/assets/app.js')).headers.get('content-type')).toContain('javascript');
        expect((await withWeb.request('/wiki.html?view=sessions')).status).toBe(404);
        expect((await withWeb.request('/sessions')).status).toBe(200);
        expect((await withWeb.request('/../../etc/passwd')).status).not.toBe(500);
        expect((await withWeb.request('/v1/sources')).status).toBe(401);
      } finally {
        await withWeb.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
