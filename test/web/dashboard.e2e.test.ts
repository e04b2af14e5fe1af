// The dashboard in real Chromium against the real `agentlog serve`, driven by role and name as a
// screen reader would (issue 12 "Accessibility is the test contract").
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { runCli } from '../support/cli.js';
import { appendLive, ids, writeHome } from './fixtures.js';
import { type Harness, outputDir, startHarness } from './serve-harness.js';

// The page's budgets (1 s to a hit, 2 s to a live line) are measured by the bench (bench/serve.mjs) on a
// quiet machine, not asserted here: the browser shares two cores with the rest of the suite, so these
// tests check that the hit or line arrives at all, waiting up to `arrives` for it.
const arrives = 15_000;

let h: Harness;
let livePath = '';
let changingPath = '';

beforeAll(async () => {
  h = await startHarness(async (home) => {
    ({ live: livePath, changing: changingPath } = await writeHome(join(home, '.claude'), Date.now()));
  });
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

async function openDashboard(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await h.context.newPage();
  await page.emulateMedia({ colorScheme });
  await page.goto(h.loginUrl);
  await page.getByRole('list', { name: 'Sessions' }).getByRole('listitem').first().waitFor({ timeout: 10_000 });
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(outputDir, `${name}.png`) });

async function openSession(page: Page, title: string): Promise<void> {
  await page.getByRole('list', { name: 'Sessions' }).getByRole('button', { name: title }).click();
  await page
    .getByRole('region', { name: 'Transcript' })
    .getByRole('navigation', { name: 'Breadcrumb' })
    .getByText(title)
    .waitFor({ timeout: 5000 });
}

describe('the dashboard', () => {
  it('lists the sessions and draws a transcript with a subagent card that expands on "Show steps"', async () => {
    const page = await openDashboard();
    const rows = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    expect(await rows.count()).toBe(6);
    await openSession(page, 'Rename the walrus endpoint to /v2/lanterns');
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await transcript.getByText('Committed as').waitFor();
    const card = transcript.getByRole('region', { name: 'Subagent Explore' });
    await expect(card.getByText('Three callers').first().isVisible()).resolves.toBe(true);
    expect(await transcript.getByText('subagent-inner-step').count()).toBe(0);
    await card.getByRole('button', { name: /Show steps/ }).click();
    await transcript.getByText('subagent-inner-step').waitFor({ timeout: arrives });
    await shot(page, 'transcript-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'transcript-dark');
    await page.close();
  });

  it('j and k move between the prompts', async () => {
    const page = await openDashboard();
    await openSession(page, 'Rename the walrus endpoint to /v2/lanterns');
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await transcript.getByText('Committed as').waitFor();
    await page.keyboard.press('g');
    const focused = () => page.evaluate(() => document.activeElement?.querySelector('.typed')?.textContent ?? null);
    const seen: (string | null)[] = [];
    for (const key of ['j', 'j', 'j', 'j', 'k', 'k']) {
      await page.keyboard.press(key);
      seen.push(await focused());
    }
    const [p1, p2, p3] = ['Rename the walrus endpoint to /v2/lanterns', 'Now update the tests too', 'Thanks, commit it'];
    // From the top, j visits each prompt in order and stops at the last; k walks back.
    expect(seen).toEqual([p1, p2, p3, p3, p2, p1]);
    await page.close();
  });

  it('typing a word shows a highlighted hit; opening it marks the message', async () => {
    const page = await openDashboard();
    await page.getByRole('searchbox', { name: 'Search sessions and messages' }).fill('quartzite');
    const mark = page.getByRole('list', { name: 'Sessions' }).locator('mark', { hasText: 'quartzite' }).first();
    await mark.waitFor({ timeout: arrives });
    // What the message lane covered is said beside the hits, not only when nothing matches.
    await page.getByText(/messages of the last \d+ days/).waitFor({ timeout: 5000 });
    await shot(page, 'search-light');
    await mark.click();
    const current = page.getByRole('region', { name: 'Transcript' }).locator('[aria-current="true"]');
    await current.waitFor({ timeout: 5000 });
    expect(await current.textContent()).toContain('quartzite lantern endpoint');
    await page.close();
  });

  it('the palette opens on Ctrl-K and jumps to a session', async () => {
    const page = await openDashboard('dark');
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Go to' });
    await dialog.waitFor();
    await dialog.getByRole('combobox', { name: 'Go to session or message' }).fill('Watch this');
    await shot(page, 'palette-dark');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Watch this live session').waitFor({ timeout: 5000 });
    await page.close();
  });

  it('a line appended to a live session shows while the page is open', async () => {
    const page = await openDashboard();
    await openSession(page, 'Watch this live session');
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await transcript.getByText('Working on it.').waitFor();
    // The events stream has to be open before the append, as it is for a person reading along.
    await page.waitForTimeout(500);
    await appendLive(livePath, 'freshly-appended-line');
    await transcript.getByText('freshly-appended-line').waitFor({ timeout: arrives });
    await page.close();
  });

  it('a hit whose message left the log opens the transcript unanchored with a one-line notice', async () => {
    const page = await openDashboard();
    await page.getByRole('searchbox', { name: 'Search sessions and messages' }).fill('obsidian');
    const mark = page.getByRole('list', { name: 'Sessions' }).locator('mark', { hasText: 'obsidian' }).first();
    await mark.waitFor({ timeout: arrives });
    // The message's line is gone from the log (rewritten by hand, or a rewind that dropped it).
    const kept = (await readFile(changingPath, 'utf8')).split('\n').filter((l) => !l.includes('obsidian'));
    await writeFile(changingPath, kept.join('\n'));
    await mark.click();
    const transcript = page.getByRole('region', { name: 'Transcript' });
    // The header's sharing line is a status too: the notice is the one that says why the hit is not marked.
    const notice = transcript.getByRole('status').filter({ hasText: /stale|unavailable/ });
    await notice.waitFor({ timeout: 5000 });
    expect(await notice.count()).toBe(1);
    expect(await transcript.locator('[aria-current="true"]').count()).toBe(0);
    await transcript.getByText('Polish the importer').first().waitFor();
    await page.close();
  });

  it('coming back to a session shows a "last seen" line above what arrived since', async () => {
    const first = await openDashboard();
    await openSession(first, 'Watch this live session');
    await first.getByRole('region', { name: 'Transcript' }).getByText('Working on it.').waitFor();
    await first.close();
    await appendLive(livePath, 'written-while-away');
    const page = await openDashboard();
    await openSession(page, 'Watch this live session');
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await transcript.getByText('written-while-away').waitFor({ timeout: 5000 });
    const after = await page.evaluate(() => document.querySelector('.last-seen')?.nextElementSibling?.textContent ?? null);
    expect(after).toContain('written-while-away');
    await page.close();
  });

  it('a long transcript (801 turns) opens as a transcript on its last turns and pages both ways through the server', async () => {
    const page = await openDashboard();
    await openSession(page, 'A very long session');
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await transcript.getByText('question 400').waitFor({ timeout: 10_000 });
    const turns = transcript.locator('article');
    expect(await turns.count()).toBe(80);
    // Drawn as turns (the agent's text as Markdown), not as raw entries.
    expect(await transcript.getByRole('article', { name: 'Assistant' }).count()).toBe(40);
    await transcript.getByRole('button', { name: /Show 80 older turns/ }).click();
    await transcript.getByText('question 360').waitFor({ timeout: 5000 });
    // Whole pages only (scrolling near the top may already have asked for the next one).
    const after = await turns.count();
    expect(after).toBeGreaterThanOrEqual(160);
    expect(after % 80).toBe(0);
    // A hit far up opens a window centred on it, with the newer turns a button (or a scroll) away.
    await page.getByRole('searchbox', { name: 'Search sessions and messages' }).fill('zeppelin');
    const mark = page.getByRole('list', { name: 'Sessions' }).locator('mark', { hasText: 'zeppelin' }).first();
    await mark.waitFor({ timeout: arrives });
    await mark.click();
    const current = transcript.locator('[aria-current="true"]');
    await current.waitFor({ timeout: 5000 });
    expect(await current.textContent()).toContain('zeppelin hangar');
    expect(await transcript.getByText('question 400').count()).toBe(0);
    await transcript
      .getByRole('button', { name: /newer turns/ })
      .first()
      .click();
    await transcript.getByText('question 70', { exact: true }).waitFor({ timeout: 5000 });
    await page.close();
  });

  it('/, ? and Esc work from anywhere; a session renames inline; the report link points at the zip', async () => {
    const page = await openDashboard();
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Search sessions and messages');
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    await openSession(page, 'Polish the importer');
    const transcript = page.getByRole('region', { name: 'Transcript' });
    const zip = await transcript.getByRole('link', { name: /report/ }).getAttribute('href');
    expect(zip).toBe('/api/session/claude_code/44444444-5555-4666-8777-888888888888/report.zip');
    await transcript.getByRole('button', { name: 'Rename' }).click();
    await transcript.getByRole('textbox', { name: 'Session name' }).fill('Importer polish');
    await page.keyboard.press('Enter');
    await transcript.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Importer polish').waitFor({ timeout: 5000 });
    await page.getByRole('list', { name: 'Sessions' }).getByRole('button', { name: 'Importer polish' }).waitFor();
    await page.close();
  });

  it('a hostile transcript renders inert and the page stays responsive', async () => {
    const page = await openDashboard();
    await page
      .getByRole('list', { name: 'Sessions' })
      .getByRole('button', { name: /show me/ })
      .click();
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await transcript.getByText('hostile-end-marker').waitFor({ timeout: 10_000 });
    await page.evaluate(() => {
      for (const d of Array.from(document.querySelectorAll('details'))) d.open = true;
    });
    const facts = await page.evaluate(() => ({
      scripts: document.scripts.length,
      images: document.images.length,
      iframes: document.querySelectorAll('iframe').length,
      badLinks: Array.from(document.querySelectorAll('a')).filter((a) => !/^(https?:|mailto:|\/)/.test(a.getAttribute('href') ?? '/'))
        .length,
      handlers: Array.from(document.querySelectorAll('*')).filter((el) => Array.from(el.attributes).some((a) => a.name.startsWith('on')))
        .length,
      pwned: (window as unknown as { __pwned?: number }).__pwned ?? 0,
    }));
    expect(facts).toEqual({ scripts: 1, images: 0, iframes: 0, badLinks: 0, handlers: 0, pwned: 0 });
    expect(await transcript.getByText('<script>alert(5)</script>').count()).toBeGreaterThan(0);
    expect(await transcript.getByText(/␛\[31mred␛\[0m/).count()).toBeGreaterThan(0);
    // Still responsive: a search filters the list.
    await page.getByRole('searchbox', { name: 'Search sessions and messages' }).fill('walrus');
    await page
      .getByRole('list', { name: 'Sessions' })
      .getByRole('button', { name: 'Rename the walrus endpoint to /v2/lanterns' })
      .waitFor({ timeout: arrives });
    await shot(page, 'hostile-light');
    expect(h.dialogs).toEqual([]);
    expect(h.foreignRequests).toEqual([]);
    await page.close();
  });

  it('"Export as HTML" downloads one self-contained file, inert and offline, that show --html prints byte for byte', async () => {
    const page = await openDashboard();
    await page
      .getByRole('list', { name: 'Sessions' })
      .getByRole('button', { name: /show me/ })
      .click();
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await transcript.getByText('hostile-end-marker').waitFor({ timeout: 10_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), transcript.getByRole('link', { name: 'Export as HTML' }).click()]);
    const hostileFile = join(outputDir, 'export-hostile.html');
    await download.saveAs(hostileFile);
    await page.close();
    const cli = await runCli(['show', ids.hostile, '--html'], h.home);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toBe(await readFile(hostileFile, 'utf8'));
    const walrus = await runCli(['show', ids.walrus, '--html'], h.home);
    expect(walrus.code).toBe(0);
    const walrusFile = join(outputDir, 'export-walrus.html');
    await writeFile(walrusFile, walrus.stdout);

    // Opened from disk in a context of its own: nothing is fetched but the file itself.
    const context = await h.browser.newContext({ viewport: { width: 1100, height: 800 }, timezoneId: 'UTC' });
    const requests: string[] = [];
    const dialogs: string[] = [];
    context.on('request', (r) => requests.push(r.url()));
    const file = await context.newPage();
    file.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const hostileUrl = pathToFileURL(hostileFile).href;
    await file.goto(hostileUrl);
    const drawn = file.getByRole('region', { name: 'Transcript' });
    await drawn.getByText('hostile-end-marker').waitFor({ timeout: 10_000 });
    await file.evaluate(() => {
      for (const d of Array.from(document.querySelectorAll('details'))) d.open = true;
    });
    const facts = await file.evaluate(() => ({
      scripts: document.scripts.length,
      images: document.images.length,
      iframes: document.querySelectorAll('iframe').length,
      badLinks: Array.from(document.querySelectorAll('a')).filter((a) => !/^(https?:|mailto:)/.test(a.getAttribute('href') ?? '')).length,
      handlers: Array.from(document.querySelectorAll('*')).filter((el) => Array.from(el.attributes).some((a) => a.name.startsWith('on')))
        .length,
      pwned: (window as unknown as { __pwned?: number }).__pwned ?? 0,
    }));
    // The JSON data block and the inlined bundle are the file's only scripts.
    expect(facts).toEqual({ scripts: 2, images: 0, iframes: 0, badLinks: 0, handlers: 0, pwned: 0 });
    expect(await drawn.getByText('<script>alert(5)</script>').count()).toBeGreaterThan(0);
    await file.goto(pathToFileURL(walrusFile).href);
    const card = file.getByRole('region', { name: 'Transcript' }).getByRole('region', { name: 'Subagent Explore' });
    await card.getByRole('button', { name: /Show steps/ }).click();
    await card.getByText('subagent-inner-step').waitFor({ timeout: 5000 });
    await file.screenshot({ path: join(outputDir, 'export-light.png') });
    expect(dialogs).toEqual([]);
    expect(requests).toEqual([hostileUrl, pathToFileURL(walrusFile).href]);
    await context.close();
  });

  it('the list pane resizes from the keyboard (a separator with aria-valuenow) and keeps its width; the chart switches measure', async () => {
    const page = await openDashboard();
    const separator = page.getByRole('separator', { name: 'Resize the session list' });
    const now = () => separator.getAttribute('aria-valuenow');
    const listWidth = () => page.evaluate(() => document.querySelector('.list-pane')?.getBoundingClientRect().width ?? 0);
    expect(await now()).toBe('360');
    await separator.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await now()).toBe('392');
    expect(await listWidth()).toBe(392);
    await page.keyboard.press('End');
    expect(await now()).toBe('720');
    // With the pointer: dragged 200 px back.
    const box = await separator.boundingBox();
    if (box === null) throw new Error('the separator is not drawn');
    await page.mouse.move(box.x + 2, box.y + 100);
    await page.mouse.down();
    await page.mouse.move(box.x - 198, box.y + 100, { steps: 4 });
    await page.mouse.up();
    expect(await now()).toBe('520');
    await page.reload();
    await page.getByRole('list', { name: 'Sessions' }).getByRole('listitem').first().waitFor({ timeout: 10_000 });
    expect(await page.getByRole('separator', { name: 'Resize the session list' }).getAttribute('aria-valuenow')).toBe('520');
    expect(await listWidth()).toBe(520);
    await page.getByRole('separator', { name: 'Resize the session list' }).focus();
    await page.keyboard.press('Home');
    expect(await page.getByRole('separator', { name: 'Resize the session list' }).getAttribute('aria-valuenow')).toBe('240');
    // A double click puts the width back (the tests share one browser profile).
    await page.getByRole('separator', { name: 'Resize the session list' }).dblclick();
    expect(await page.getByRole('separator', { name: 'Resize the session list' }).getAttribute('aria-valuenow')).toBe('360');

    const usage = page.getByRole('region', { name: 'Usage, last 30 days' });
    const measure = usage.getByRole('group', { name: 'Chart measure' });
    await usage.getByRole('img', { name: /^Tokens per day by agent: / }).waitFor({ timeout: 5000 });
    expect(await measure.getByRole('radio', { name: 'Tokens' }).isChecked()).toBe(true);
    const cost = measure.getByRole('radio', { name: 'Cost' });
    // The fixture's models are priced, so the server sends a cost per day and Cost is offered. The radio
    // itself is hidden under its label (a segmented control), so a person clicks the label's text.
    expect(await cost.isEnabled()).toBe(true);
    await measure.getByText('Cost', { exact: true }).click();
    expect(await cost.isChecked()).toBe(true);
    await usage.getByRole('img', { name: /^Estimated cost per day by agent: \$/ }).waitFor();
    await page.close();
  });

  it('the list draws from the scripts index.html names alone; a part whose chunk fails to load says so and Retry loads it', async () => {
    const html = await (await h.context.request.get(`${h.origin}/`)).text();
    const named = new Set([...html.matchAll(/(?:src|href)="\/([^"]+\.js)"/g)].map((m) => m[1]));
    expect(named.size).toBeGreaterThan(0);
    const page = await h.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    let blocked = 0;
    let block = true;
    // Every script the page asks for beyond those (the parts loaded after the list) fails, as when
    // serve was stopped or rebuilt under an open page.
    await page.route(/\/[^/?]+\.js$/, (route) => {
      const name = new URL(route.request().url()).pathname.slice(1);
      if (block && !named.has(name)) {
        blocked++;
        return route.abort('failed');
      }
      return route.continue();
    });
    await page.goto(h.loginUrl);
    const rows = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    await rows.first().waitFor({ timeout: 10_000 });
    expect(await rows.count()).toBe(6);
    await page.getByRole('list', { name: 'Sessions' }).getByRole('button', { name: 'Rename the walrus endpoint to /v2/lanterns' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load the transcript' });
    await alert.waitFor({ timeout: 5000 });
    expect(blocked).toBeGreaterThan(0);
    block = false;
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page
      .getByRole('region', { name: 'Transcript' })
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByText('Rename the walrus endpoint to /v2/lanterns')
      .waitFor({ timeout: 5000 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('deep search streams raw-log hits with marks, and opening one marks the turn holding the term', async () => {
    const page = await openDashboard();
    await page.getByRole('searchbox', { name: 'Search sessions and messages' }).fill('zeppelin');
    await page.getByRole('button', { name: 'Search the raw logs' }).click();
    const deep = page.getByRole('region', { name: 'Deep search' });
    const hits = deep.getByRole('list', { name: 'Deep search hits' }).getByRole('button');
    await hits.first().waitFor({ timeout: arrives });
    expect(await hits.first().locator('mark').first().textContent()).toBe('zeppelin');
    await deep
      .getByRole('status')
      .filter({ hasText: /1 hits in 1 sessions/ })
      .waitFor({ timeout: arrives });
    expect(await hits.first().textContent()).toContain('A very long session');
    await hits.first().click();
    const current = page.getByRole('region', { name: 'Transcript' }).locator('[aria-current="true"]');
    await current.waitFor({ timeout: 5000 });
    expect(await current.textContent()).toContain('zeppelin hangar');
    await deep.getByRole('button', { name: 'Close deep search' }).click();
    await deep.waitFor({ state: 'detached' });
    await page.getByRole('searchbox', { name: 'Search sessions and messages' }).fill('');
    await page.getByRole('list', { name: 'Sessions' }).waitFor();
    await page.close();
  });

  it('a deep search hit opens on its own line: the message that line wrote is the one marked', async () => {
    const page = await openDashboard();
    await page.getByRole('searchbox', { name: 'Search sessions and messages' }).fill('glockenspiel');
    await page.getByRole('button', { name: 'Search the raw logs' }).click();
    const deep = page.getByRole('region', { name: 'Deep search' });
    await deep
      .getByRole('status')
      .filter({ hasText: /4 hits in 1 sessions/ })
      .waitFor({ timeout: arrives });
    const hits = deep.getByRole('list', { name: 'Deep search hits' }).getByRole('button');
    const current = page.getByRole('region', { name: 'Transcript' }).locator('[aria-current="true"]');
    // Each line holds the word; the first message holding it is not the answer for lines 2 to 4.
    for (const [line, text] of [
      [4, 'Moved every glockenspiel default'],
      [3, 'Move the glockenspiel defaults to one file'],
      [2, 'The glockenspiel config is read'],
    ] as const) {
      await hits.filter({ hasText: `· line ${line}` }).click();
      await current.filter({ hasText: text }).waitFor({ timeout: 5000 });
      expect(await current.count()).toBe(1);
    }
    await page.close();
  });
});
