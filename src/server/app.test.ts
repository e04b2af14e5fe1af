import { describe, expect, it } from 'vitest';
import { readerFor } from '../agents/all-readers.js';
import type { MessageRecord } from '../record/message-index.js';
import type { AgentId } from '../record/types.js';
import type { ErrorBody, HealthBody, SessionDetailBody, SessionsBody, UsageBody } from './api-types.js';
import { authed, machine, testHost, testToken, type Machine } from './test-support/fixture-home.js';
import { hasCorpus } from '../../test/support/corpus.js';

async function json<T>(m: Machine, path: string, init: RequestInit = {}): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await m.app.request(path, { ...init, headers: { ...authed(), ...(init.headers as Record<string, string> | undefined) } });
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
}

/** Every session of an agent with the records its extractor mints now. */
async function recordsOf(m: Machine, agent: AgentId): Promise<{ id: string; records: MessageRecord[] }[]> {
  const reader = readerFor(agent);
  if (reader?.messages === undefined) throw new Error(`no extractor for ${agent}`);
  const out: { id: string; records: MessageRecord[] }[] = [];
  for (const { homes } of m.store.vendorAgents.filter((a) => a.reader.id === agent)) {
    for (const home of homes) {
      const found = await reader.discover(home);
      for (const s of found.sessions) out.push({ id: s.sessionId, records: (await reader.messages.extract(s, null)).records });
    }
  }
  return out.filter((s) => s.records.length > 0);
}

const detailPath = (agent: string, id: string, q = ''): string => `/api/session/${agent}/${id}${q}`;
const locateQ = (loc: unknown, extra = ''): string => `?locate=${encodeURIComponent(JSON.stringify(loc))}${extra}`;

describe.skipIf(!hasCorpus)('security', () => {
  it('answers 401 without the token, 403 for a foreign Host or Origin, and sets the headers on every answer', async () => {
    const m = await machine({ fill: false });
    const none = await m.app.request('/api/health', { headers: { Host: testHost } });
    expect(none.status).toBe(401);
    expect(((await none.json()) as ErrorBody).error.code).toBe('unauthorized');
    expect(none.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(none.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(none.headers.get('x-content-type-options')).toBe('nosniff');
    expect(none.headers.get('referrer-policy')).toBe('no-referrer');
    const wrong = await m.app.request('/api/health', { headers: { Host: testHost, Authorization: `Bearer ${'y'.repeat(43)}` } });
    expect(wrong.status).toBe(401);
    const rebound = await m.app.request('/api/health', { headers: authed({ Host: 'evil.example:7420' }) });
    expect(rebound.status).toBe(403);
    expect(rebound.headers.get('x-content-type-options')).toBe('nosniff');
    const foreign = await m.app.request('/api/session/claude_code/abc/name', {
      method: 'PUT',
      headers: authed({ Origin: 'http://evil.example', 'Content-Type': 'application/json' }),
      body: JSON.stringify({ name: 'x' }),
    });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as ErrorBody).error.code).toBe('forbidden_origin');
    const ok = await m.app.request('/api/health', { headers: authed() });
    expect(ok.status).toBe(200);
  });

  it('trades the login link for an HttpOnly SameSite=Strict cookie and redirects to /', async () => {
    const m = await machine({ fill: false });
    const bad = await m.app.request('/?token=nope', { headers: { Host: testHost } });
    expect(bad.status).toBe(401);
    const res = await m.app.request(`/?token=${testToken}`, { headers: { Host: testHost } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    const jar = cookie.split(';')[0] as string;
    const api = await m.app.request('/api/health', { headers: { Host: testHost, Cookie: jar } });
    expect(api.status).toBe(200);
  });

  it('limits bodies to 16 KiB and never puts a path or a stack in an error', async () => {
    const m = await machine();
    const big = await m.app.request('/api/session/claude_code/fe5e1c67-53e7-4862-81ae-d0e013e3270b/name', {
      method: 'PUT',
      headers: authed({ 'Content-Type': 'application/json' }),
      body: JSON.stringify({ name: 'x'.repeat(20_000) }),
    });
    expect(big.status).toBe(413);
    const missing = await json<ErrorBody>(m, detailPath('claude_code', '99999999-0000-4000-8000-000000000000'));
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('SessionNotFound');
    expect(missing.body.error.message).not.toContain(m.root);
    expect(JSON.stringify(missing.body)).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe.skipIf(!hasCorpus)('routes', () => {
  it('health, sessions (paged, filtered), detail pages, record, usage', async () => {
    const m = await machine();
    const health = await json<HealthBody>(m, '/api/health');
    expect(health.body).toMatchObject({ ok: true, version: 'test', store: { state: 'empty' } });

    const all = await json<SessionsBody>(m, '/api/sessions?limit=500');
    expect(all.status).toBe(200);
    const agents = new Set(all.body.sessions.map((s) => s.agent));
    for (const a of ['claude_code', 'codex', 'kimi', 'pi', 'intendant']) expect(agents).toContain(a);
    expect(all.body.cursor).toBeNull();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: SessionsBody } = await json<SessionsBody>(
        m,
        `/api/sessions?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`,
      );
      expect(page.body.sessions.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.sessions.map((s) => `${s.agent}:${s.session_id}`));
      cursor = page.body.cursor;
    } while (cursor !== null);
    expect(seen).toEqual(all.body.sessions.map((s) => `${s.agent}:${s.session_id}`));
    const pi = await json<SessionsBody>(m, '/api/sessions?agent=pi');
    expect(pi.body.sessions.map((s) => s.agent)).toEqual(['pi']);
    const byId = await json<SessionsBody>(m, '/api/sessions?q=fe5e1c67');
    expect(byId.body.sessions.map((s) => s.session_id)).toEqual(['fe5e1c67-53e7-4862-81ae-d0e013e3270b']);
    expect((await json<ErrorBody>(m, '/api/sessions?limit=501')).status).toBe(400);
    expect((await json<ErrorBody>(m, '/api/sessions?agent=nobody')).status).toBe(400);
    expect((await json<ErrorBody>(m, '/api/sessions?cursor=garbage')).status).toBe(400);

    const id = 'fe5e1c67-53e7-4862-81ae-d0e013e3270b';
    const last = await json<SessionDetailBody>(m, detailPath('claude_code', id, '?limit=10'));
    expect(last.status).toBe(200);
    expect(last.body.entries).toHaveLength(10);
    expect(last.body.page_end).toBe(last.body.total);
    expect(last.body.page_start).toBe(last.body.total - 10);
    expect(last.body.has_older).toBe(true);
    expect(last.body.root).toBe('vendor');
    expect(last.body.entries.map((e) => e.index)).toEqual(Array.from({ length: 10 }, (_, i) => last.body.total - 10 + i));
    const older = await json<SessionDetailBody>(m, detailPath('claude_code', id, `?limit=10&before=${last.body.page_start}`));
    expect(older.body.page_end).toBe(last.body.page_start);
    expect(older.body.entries.at(-1)?.offset).toBeLessThan(last.body.entries[0]?.offset as number);
    const first = await json<SessionDetailBody>(m, detailPath('claude_code', id, '?limit=5&before=3'));
    expect(first.body).toMatchObject({ page_start: 0, page_end: 3, has_older: false });
    expect(first.body.entries[0]?.line).toBe(1);
    expect((await json<ErrorBody>(m, detailPath('claude_code', id, '?limit=0'))).status).toBe(400);
    expect((await json<ErrorBody>(m, detailPath('claude_code', '..%2Fetc'))).status).toBe(400);
    expect((await json<ErrorBody>(m, detailPath('nobody', id))).status).toBe(404);

    const record = await m.app.request(`${detailPath('claude_code', id)}/record?detail=summary`, { headers: authed() });
    expect(record.status).toBe(200);
    const rec = (await record.json()) as { agent: string; session_id: string; detail: string };
    expect(rec).toMatchObject({ agent: 'claude_code', session_id: id, detail: 'summary' });
    expect((await json<ErrorBody>(m, `${detailPath('claude_code', id)}/record?detail=everything`)).status).toBe(400);

    const usage = await json<UsageBody>(m, '/api/usage?days=366');
    expect(usage.body).toMatchObject({ ok: true, days: 366 });
    expect(Array.isArray(usage.body.rows)).toBe(true);
    expect((await json<ErrorBody>(m, '/api/usage?days=0')).status).toBe(400);
  });
});

describe.skipIf(!hasCorpus)('locate', () => {
  const agents: AgentId[] = ['claude_code', 'codex', 'kimi', 'pi', 'intendant'];

  for (const agent of agents) {
    it(`resolves, goes stale and is unavailable for ${agent}`, async () => {
      const m = await machine();
      const sessions = await recordsOf(m, agent);
      expect(sessions.length).toBeGreaterThan(0);
      for (const { id, records } of sessions) {
        for (const r of records.filter((x) => x.subagent !== true).slice(0, 3)) {
          const res = await json<SessionDetailBody>(m, detailPath(agent, id, locateQ(r.locator, '&limit=20')));
          expect(res.status).toBe(200);
          expect(res.body.locate?.state, JSON.stringify(r.locator)).toBe('resolved');
          if (res.body.locate?.state !== 'resolved') continue;
          expect(res.body.entries[res.body.locate.entry_index]?.index).toBe(res.body.locate.total_index);
          if (r.locator.kind === 'external_line') expect(res.body.entries[res.body.locate.entry_index]?.offset).toBe(r.locator.line_offset);
        }
      }
      const { id, records } = sessions[0] as { id: string; records: MessageRecord[] };
      const loc = (records[0] as MessageRecord).locator;
      const broken =
        'content_hash16' in loc
          ? { ...loc, content_hash16: '0000000000000000' }
          : loc.kind === 'native_message_id'
            ? { ...loc, message_id: 'gone' }
            : { ...loc, record_id: 'gone' };
      const res = await json<SessionDetailBody>(m, detailPath(agent, id, locateQ(broken)));
      expect(res.status).toBe(200);
      expect(res.body.locate?.state).toBe('content_hash16' in loc ? 'stale' : 'unavailable');
      // Served as an unanchored request would be.
      expect(res.body.page_end).toBe(res.body.total);
      const mismatch =
        agent === 'intendant' ? { kind: 'external_record_id', record_id: 'x' } : { kind: 'native_message_id', message_id: 'x' };
      const wrongKind = await json<SessionDetailBody>(m, detailPath(agent, id, locateQ(mismatch)));
      expect(wrongKind.body.locate?.state).toBe('unavailable');
    });
  }

  it('resolves a subagent message in its own transcript', async () => {
    const m = await machine();
    const sub = (await recordsOf(m, 'claude_code')).flatMap((s) =>
      s.records.filter((r) => r.subagent === true && 'file' in r.locator).map((r) => ({ id: s.id, r })),
    );
    expect(sub.length).toBeGreaterThan(0);
    const { id, r } = sub[0] as { id: string; r: MessageRecord };
    const res = await json<SessionDetailBody>(m, detailPath('claude_code', id, locateQ(r.locator)));
    expect(res.body.locate).toMatchObject({ state: 'resolved', anchor: 'exact' });
    expect(res.body.thread).toMatch(/subagents\/agent-.*\.jsonl$/);
    expect(res.body.threads).toContain(res.body.thread);
    const paged = await json<SessionDetailBody>(
      m,
      detailPath('claude_code', id, `?thread=${encodeURIComponent(res.body.thread as string)}`),
    );
    expect(paged.body.total).toBe(res.body.total);
    expect((await json<ErrorBody>(m, detailPath('claude_code', id, '?thread=..%2F..%2Fetc%2Fpasswd'))).status).toBe(404);
  });

  it('answers 400 to a malformed locator', async () => {
    const m = await machine();
    const id = 'fe5e1c67-53e7-4862-81ae-d0e013e3270b';
    for (const bad of [
      '',
      'not-json{',
      JSON.stringify({ kind: 'teleport' }),
      JSON.stringify({ kind: 'external_line', line_offset: -1, content_hash16: 'x' }),
    ]) {
      const res = await json<ErrorBody>(m, detailPath('claude_code', id, `?locate=${encodeURIComponent(bad)}`));
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe('invalid_locate');
    }
    const b64 = Buffer.from(JSON.stringify({ kind: 'external_record_id', record_id: 'nope' })).toString('base64url');
    expect((await json<SessionDetailBody>(m, detailPath('claude_code', id, `?locate=${b64}`))).body.locate?.state).toBe('unavailable');
  });
});
