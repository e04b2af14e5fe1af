// The hub app on a real socket on 127.0.0.1 (the same app the CLI serves): credentials, the sign-in
// cookie round trip, and a cross-workspace read answered exactly like a missing one.
import { expect, it } from 'vitest';
import { socketHubPerTest, upload } from './test-support/hub.js';

const at = socketHubPerTest();

it('over a socket: 401 without credentials, the cookie signs in, a cross-workspace read is the missing 404', async () => {
  expect((await fetch(`${at.base}/v1/sources`)).status).toBe(401);
  const created = await fetch(`${at.base}/v1/sources`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${at.hub.tokens.ann}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(upload('sock-1')),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const signIn = await fetch(`${at.base}/v1/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: at.base },
    body: JSON.stringify({ token: at.hub.tokens.eve }),
  });
  expect(signIn.status).toBe(200);
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const theirs = await fetch(`${at.base}/v1/sources/${id}`, { headers: { Cookie: cookie } });
  const missing = await fetch(`${at.base}/v1/sources/01ZZZZZZZZZZZZZZZZZZZZZZZZ`, { headers: { Cookie: cookie } });
  expect(theirs.status).toBe(404);
  expect(await theirs.text()).toBe(await missing.text());
  const mine = await fetch(`${at.base}/v1/sources/${id}`, { headers: { Authorization: `Bearer ${at.hub.tokens.ann}` } });
  expect(mine.status).toBe(200);
  const tooBig = await fetch(`${at.base}/v1/notes`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${at.hub.tokens.ann}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ slug: 'big', title: 't', body: 'z'.repeat(70_000) }),
  });
  expect(tooBig.status).toBe(413);
});
