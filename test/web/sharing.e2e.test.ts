// The dashboard's sharing line in real Chromium against the real `agentlog serve` (issue 14): the
// session header says whether sync would send the session, and Allow and Deny (found by role and
// name) write the same opt-in file `agentlog allow` and `agentlog deny` write. The write routes
// refuse a request without the token, from another origin, or with a body that does not fit.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaudeSession, mainPath } from './fixtures.js';
import { type Harness, startHarness } from './serve-harness.js';
import { writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

const repo = '/work/share-repo';
const title = 'Ship the sharing panel';
let h: Harness;

beforeAll(async () => {
  h = await startHarness(async (home) => {
    const s = new ClaudeSession('5a5a5a5a-1111-4222-8333-444444444444', repo, Date.now() - 60_000);
    s.user(title);
    s.text('Shipped.');
    const path = mainPath(join(home, '.claude'), s);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, s.jsonl());
  });
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

const allowFile = (): string => join(h.home, '.config', 'agentlog', 'allow.json');

describe('sharing from the dashboard', () => {
  it('shows the sharing state in the session header; Allow and Deny change the opt-in file', async () => {
    const page = await h.context.newPage();
    await page.goto(h.loginUrl);
    await page.getByRole('list', { name: 'Sessions' }).getByRole('button', { name: title }).click();
    const header = page.getByRole('region', { name: 'Transcript' });
    const sharing = header.getByRole('group', { name: 'Sharing' });
    const state = sharing.getByRole('status');
    await state.getByText(/Not shared: repo not opted in/).waitFor({ timeout: 15_000 });
    expect(await sharing.getByRole('button', { name: 'Deny this repository from sync' }).count()).toBe(0);

    await sharing.getByRole('button', { name: 'Allow this repository to sync' }).click();
    await state.getByText(`Shared at full detail (allowed by ${repo}) · not uploaded yet`).waitFor({ timeout: 15_000 });
    expect(JSON.parse(await readFile(allowFile(), 'utf8'))).toEqual({ version: 1, allowed: { [repo]: 'full' } });

    await sharing.getByRole('button', { name: 'Deny this repository from sync' }).click();
    await state.getByText(/Not shared: repo not opted in/).waitFor({ timeout: 15_000 });
    expect(JSON.parse(await readFile(allowFile(), 'utf8'))).toEqual({ version: 1, allowed: {} });
    await sharing.getByRole('button', { name: 'Allow this repository to sync' }).waitFor();
    await page.close();
  }, 60_000);

  it('refuses an allow without the token, from another origin, or with a relative path', async () => {
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${h.origin}/api/sharing/allow`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    expect((await post({}, { path: '/work/x' })).status).toBe(401);
    const token = new URL(h.loginUrl).searchParams.get('token') ?? '';
    const auth = { authorization: `Bearer ${token}` };
    expect((await post({ ...auth, origin: 'http://evil.example' }, { path: '/work/x' })).status).toBe(403);
    expect((await post(auth, { path: 'relative/x' })).status).toBe(400);
    expect((await post(auth, { path: '/work/x', detail: 'everything' })).status).toBe(400);
    expect((await post(auth, { path: '/work/x', extra: 1 })).status).toBe(400);
    // None of them wrote anything.
    const file = await readFile(allowFile(), 'utf8').catch(() => null);
    expect(file === null ? {} : (JSON.parse(file) as { allowed: object }).allowed).not.toHaveProperty('/work/x');
  });
});
