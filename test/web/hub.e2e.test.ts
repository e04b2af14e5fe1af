// The hub's web app in real Chromium against a real `agentlog hub serve` (built CLI, SQLite in a temp
// folder, users made with `hub user add`), driven by role and name: sign in with a token, the Agent
// sessions list with its filters and "Load more", a hostile transcript drawn inert, a subagent card
// expanding, the notes search with the project filter, sign out (issue 13 "Tests").
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, type HubProcess, postSource, startHub } from '../../src/hub/test-support/spawn.js';
import { tempDir } from '../support/temp.js';
import { outputDir } from './serve-harness.js';

let hub: HubProcess;
let browser: Browser;
let token = '';
const foreign: string[] = [];
const dialogs: string[] = [];

const totals = {
  input_tokens: 1200,
  output_tokens: 300,
  cache_read_tokens: 0,
  cache_creation_tokens: 0,
  reasoning_tokens: 0,
  cost_usd: null,
};

function record(id: string, agent: string, turns: unknown[]): string {
  return JSON.stringify({
    schema_version: 3,
    collector_version: 3,
    agent,
    detail: 'full',
    session_id: id,
    repo: '~/work/demo',
    branch: 'main',
    models: ['claude-sonnet-4-5'],
    started_at: '2026-11-30T10:00:00.000Z',
    ended_at: '2026-11-30T10:30:00.000Z',
    turns,
    totals,
    truncated: false,
    omitted_turns: 0,
    omitted_subagent_turns: 0,
  });
}

const walrus = record('walrus-1', 'claude_code', [
  { role: 'user', at: '2026-11-30T10:00:00.000Z', text: 'Rename the walrus endpoint to /v2/lanterns' },
  {
    role: 'assistant',
    at: '2026-11-30T10:01:00.000Z',
    text: "I'll find every caller of the **walrus** endpoint.",
    tool_calls: [
      { name: 'Bash', format: 'shell', input: 'rg -n walrus src/', output: 'src/a.ts:1: walrus()', status: 'ok', exit_code: 0 },
      {
        name: 'Task',
        input: 'Find every caller of /walrus',
        output: 'Three callers: src/api, src/cli and the tests.',
        status: 'ok',
        subagent: {
          id: 'a1111',
          name: 'Explore',
          description: 'Find callers',
          models: ['claude-haiku-4-5'],
          started_at: '2026-11-30T10:01:00.000Z',
          ended_at: '2026-11-30T10:01:41.000Z',
          status: 'completed',
          totals,
          turns: [
            { role: 'user', at: '2026-11-30T10:01:00.000Z', text: 'Find every caller of /walrus' },
            { role: 'assistant', at: '2026-11-30T10:01:20.000Z', text: 'Searching for subagent-inner-step callers.', tool_calls: [] },
          ],
          truncated: false,
          omitted_turns: 0,
        },
      },
    ],
  },
  { role: 'user', at: '2026-11-30T10:05:00.000Z', text: 'Thanks, commit it' },
  { role: 'assistant', at: '2026-11-30T10:06:00.000Z', text: 'Committed as `Rename walrus to lanterns`.', tool_calls: [] },
]);

const hostile = record('hostile-1', 'codex', [
  {
    role: 'user',
    at: '2026-11-30T11:00:00.000Z',
    text: 'hostile-title <script>window.__pwned = 1; alert("user")</script> <img src=x onerror="alert(2)">',
  },
  {
    role: 'assistant',
    at: '2026-11-30T11:00:05.000Z',
    text: [
      'Raw HTML: <img src="http://127.0.0.1:1/beacon.png" onerror="alert(3)"> <iframe src="javascript:alert(4)"></iframe>',
      '',
      '<script>alert(5)</script>',
      '',
      '[a javascript link](javascript:alert(6)) and <a href="javascript:alert(8)" onclick="alert(9)">raw a</a> <div onmouseover="alert(10)">hover</div>',
      '',
      '![tracker](http://127.0.0.1:1/pixel.gif)',
    ].join('\n'),
    tool_calls: [
      {
        name: 'Bash',
        input: '<script>alert(11)</script>',
        output: '\u001b[31m<img src=x onerror=alert(12)>\u001b[0m',
        status: 'error',
        exit_code: 1,
      },
    ],
  },
  { role: 'reasoning', at: '2026-11-30T11:00:06.000Z', text: '<svg onload="alert(13)"></svg>' },
  { role: 'assistant', at: '2026-11-30T11:00:07.000Z', text: 'hostile-end-marker', tool_calls: [] },
]);

beforeAll(async () => {
  const home = await tempDir();
  const db = `sqlite:${join(home, 'hub.db')}`;
  token = await addUser(db, home, 'ann', 'red');
  const eve = await addUser(db, home, 'eve', 'blue');
  hub = await startHub(db, home);
  const post = async (tok: string, body: string, project: string | null): Promise<void> => {
    const r = await postSource(hub.url, tok, { kind: 'agent_log', body, ...(project !== null ? { project } : {}) });
    if (r.status !== 201) throw new Error(`upload answered ${r.status}: ${JSON.stringify(r.json)}`);
  };
  // Oldest first, so the two that matter are the newest.
  for (let i = 0; i < 52; i++)
    await post(token, record(`filler-${i}`, 'claude_code', [{ role: 'user', at: null, text: `filler ask ${i}` }]), 'other');
  await post(token, walrus, 'demo');
  await post(token, hostile, 'demo');
  await post(eve, record('eve-1', 'claude_code', [{ role: 'user', at: null, text: 'eve-only ask' }]), 'demo');
  for (const [slug, project, body] of [
    ['lantern-rename', 'demo', 'We renamed the walrus endpoint; the lantern routes answer on /v2.'],
    ['lantern-other', 'other', 'A lantern note filed under the other project.'],
  ] as const) {
    const res = await fetch(new URL('/v1/notes', hub.url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ slug, title: `Note ${slug}`, body, project }),
    });
    if (!res.ok) throw new Error(`note answered ${res.status}`);
  }
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await hub?.stop();
});

async function signedIn(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' });
  const origin = new URL(hub.url).origin;
  context.on('request', (r) => {
    if (!r.url().startsWith(`${origin}/`)) foreign.push(r.url());
  });
  const page = await context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(hub.url);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Token').fill('alh_not-a-real-token');
  await form.getByRole('button', { name: 'Sign in' }).click();
  await form.getByRole('alert').waitFor();
  await form.getByLabel('Token').fill(token);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('list', { name: 'Agent sessions' }).getByRole('listitem').first().waitFor({ timeout: 10_000 });
  return page;
}

describe('the hub web app', () => {
  it('signs in with a token, lists the agent sessions newest first with filters and "Load more", signs out', async () => {
    const page = await signedIn();
    const list = page.getByRole('list', { name: 'Agent sessions' });
    const rows = list.getByRole('listitem');
    expect(await rows.count()).toBe(50);
    expect(await rows.first().textContent()).toContain('hostile-title');
    expect(await rows.nth(1).textContent()).toContain('Rename the walrus endpoint');
    // Nobody else's sessions: eve is in another workspace.
    expect(await list.getByText('eve-only ask').count()).toBe(0);
    await page.getByRole('button', { name: 'Load more' }).click();
    await rows.nth(53).waitFor({ timeout: 5000 });
    expect(await rows.count()).toBe(54);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await page.getByRole('combobox', { name: 'Project' }).selectOption('demo');
    await list.getByRole('listitem').nth(1).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Agent sessions"] li').length === 2);
    await page.getByRole('combobox', { name: 'Agent' }).selectOption('codex');
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Agent sessions"] li').length === 1);
    expect(await rows.first().textContent()).toContain('hostile-title');
    await page.screenshot({ path: join(outputDir, 'hub-list-light.png') });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('form', { name: 'Sign in' }).waitFor();
    // The cookie is gone: a reload asks for the token again.
    await page.reload();
    await page.getByRole('form', { name: 'Sign in' }).waitFor();
    await page.context().close();
  });

  it('draws a session with the dashboard components: a subagent card expands on "Show steps"; a hostile transcript is inert', async () => {
    const page = await signedIn();
    const list = page.getByRole('list', { name: 'Agent sessions' });
    await list.getByRole('button', { name: /Rename the walrus endpoint/ }).click();
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await transcript.getByText('Committed as').waitFor({ timeout: 5000 });
    expect(await transcript.locator('strong', { hasText: 'walrus' }).count()).toBe(1);
    const card = transcript.getByRole('region', { name: 'Subagent Explore' });
    expect(await card.getByText('Three callers').first().isVisible()).toBe(true);
    expect(await transcript.getByText('subagent-inner-step').count()).toBe(0);
    await card.getByRole('button', { name: /Show steps/ }).click();
    await transcript.getByText(/subagent-inner-step/).waitFor({ timeout: 5000 });
    await page.screenshot({ path: join(outputDir, 'hub-transcript-light.png') });

    await list.getByRole('button', { name: /hostile-title/ }).click();
    await transcript.getByText('hostile-end-marker').waitFor({ timeout: 5000 });
    await page.evaluate(() => {
      for (const d of Array.from(document.querySelectorAll('details'))) d.open = true;
    });
    await transcript.getByText('hover').hover();
    const facts = await page.evaluate(() => ({
      scripts: document.scripts.length,
      images: document.images.length,
      iframes: document.querySelectorAll('iframe').length,
      svgs: document.querySelectorAll('svg').length,
      badLinks: Array.from(document.querySelectorAll('a')).filter((a) => !/^(https?:|mailto:)/.test(a.getAttribute('href') ?? '')).length,
      handlers: Array.from(document.querySelectorAll('*')).filter((el) => Array.from(el.attributes).some((a) => a.name.startsWith('on')))
        .length,
      pwned: (window as unknown as { __pwned?: number }).__pwned ?? 0,
    }));
    expect(facts).toEqual({ scripts: 1, images: 0, iframes: 0, svgs: 0, badLinks: 0, handlers: 0, pwned: 0 });
    expect(await transcript.getByText('<script>alert(5)</script>').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(outputDir, 'hub-hostile-light.png') });
    expect(dialogs).toEqual([]);
    expect(foreign).toEqual([]);
    await page.context().close();
  });

  it('searches the notes with the project filter, the words marked', async () => {
    const page = await signedIn();
    await page.getByRole('searchbox', { name: 'Search notes' }).fill('lantern');
    const notes = page.getByRole('region', { name: 'Notes' });
    const results = notes.getByRole('list', { name: 'Note results' }).getByRole('listitem');
    await results.nth(1).waitFor({ timeout: 5000 });
    expect(await results.count()).toBe(2);
    expect(await results.first().locator('mark').first().textContent()).toMatch(/^lantern$/i);
    await page.getByRole('combobox', { name: 'Project' }).selectOption('demo');
    await notes.getByRole('status').filter({ hasText: '1 notes match “lantern” in demo' }).waitFor({ timeout: 5000 });
    expect(await results.count()).toBe(1);
    expect(await results.first().textContent()).toContain('Note lantern-rename');
    await page.context().close();
  });
});
