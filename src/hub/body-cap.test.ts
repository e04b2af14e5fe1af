// The sync side's body cap and the hub's request limit agree (issue 13: a source body over 1 MiB is
// a 413; whatever the sync cap lets through must fit). The record travels inside the upload's JSON
// as an escaped string, so a record at the cap written mostly in characters JSON escapes (quotes,
// backslashes, newlines, control characters) is up to twice its size on the wire.
import { expect, it } from 'vitest';
import { newRecord } from '../record/draft.js';
import type { Turn } from '../record/types.js';
import { bodyCapBytes, capRecord } from '../sync/body/cap.js';
import { HubClient } from '../sync/hub/client.js';
import { hubBodyLimit, uploadRequestLimit } from './app.js';
import { sessionJson, socketHubPerTest } from './test-support/hub.js';

const at = socketHubPerTest();

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** A session far past the cap whose text is nearly all characters JSON escapes, twice over once uploaded. */
function escapingRecord(id: string) {
  const r = newRecord('claude_code', id);
  const hostile = '"\\"\\\n\\"\u0001"\\\t"\\\u001f"\\"\\'.repeat(200);
  r.turns = Array.from(
    { length: 400 },
    (_, i): Turn =>
      i === 0
        ? { role: 'user', at: '2026-10-01T10:00:00.000Z', text: `ask ${hostile}` }
        : { role: 'assistant', at: null, text: `${i} ${hostile}`, tool_calls: [] },
  );
  return r;
}

/** Uploads as `agentlog logs sync` does (src/sync/upload.ts), through its own HTTP client. */
function syncUpload(body: string, id: string) {
  const client = new HubClient({ url: at.base, token: at.hub.tokens.ann, userAgent: 'agentlog-test', retry: { attempts: 1 } });
  return client.request('POST', '/v1/sources', {
    kind: 'agent_log',
    scope: 'personal',
    path: `claude_code session ${id}`,
    project: 'demo',
    body,
  });
}

it('a record at the sync cap made of escaping characters is accepted, though its upload is past 1 MiB', async () => {
  const capped = capRecord(escapingRecord('cap-escapes'));
  const body = capped.body as string;
  expect(byteLength(body)).toBeLessThanOrEqual(bodyCapBytes);
  expect(byteLength(body)).toBeGreaterThan(bodyCapBytes - 16 * 1024);
  // The case the limit must allow for: the escaped upload is well past 1 MiB.
  const wire = JSON.stringify({ kind: 'agent_log', scope: 'personal', path: 'claude_code session cap-escapes', project: 'demo', body });
  expect(byteLength(wire)).toBeGreaterThan(1.25 * hubBodyLimit);

  const answer = await syncUpload(body, 'cap-escapes');
  expect(answer.status).toBe(201);
  const id = (answer.body as { id: string }).id;
  const stored = await fetch(`${at.base}/v1/sources/${id}`, { headers: { Authorization: `Bearer ${at.hub.tokens.ann}` } });
  expect(((await stored.json()) as { body: string }).body).toBe(body);
});

it('a record past 1 MiB is a 413 however it travels; one just under is filed', async () => {
  const over = sessionJson('big-plain', 'x'.repeat(hubBodyLimit));
  expect((await syncUpload(over, 'big-plain')).status).toBe(413);
  // Escaped to nearly twice its size on the wire, the record itself is what is measured.
  const escaping = sessionJson('big-quotes', '"'.repeat(hubBodyLimit / 2));
  expect(byteLength(escaping)).toBeGreaterThan(hubBodyLimit);
  const refused = await syncUpload(escaping, 'big-quotes');
  expect(refused.status).toBe(413);
  expect((refused.body as { error: { code: string } }).error.code).toBe('body_too_large');
  const under = sessionJson('under-quotes', '"'.repeat(hubBodyLimit / 2 - 1024));
  expect(byteLength(under)).toBeLessThanOrEqual(hubBodyLimit);
  expect((await syncUpload(under, 'under-quotes')).status).toBe(201);
  const rows = await at.hub.store.driver.all<{ n: number }>('SELECT COUNT(*) AS n FROM sources');
  expect(rows[0]?.n).toBe(1);
});

it('the request itself is bounded: an upload past room for an escaped 1 MiB record, any other route past 1 MiB', async () => {
  const post = (path: string, body: string) =>
    fetch(`${at.base}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${at.hub.tokens.ann}`, 'Content-Type': 'application/json' },
      body,
    });
  const upload = await post('/v1/sources', `{"kind":"agent_log","body":"${'x'.repeat(uploadRequestLimit)}"}`);
  expect(upload.status).toBe(413);
  expect(((await upload.json()) as { error: { code: string } }).error.code).toBe('body_too_large');
  const check = await post('/v1/sources/check', `{"hashes":[],"pad":"${'x'.repeat(hubBodyLimit)}"}`);
  expect(check.status).toBe(413);
});
