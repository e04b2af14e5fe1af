// Starts the built `agentlog serve` on a temporary home and a free port, and a headless Chromium that
// logs in through the printed link; records every request the page makes and every dialog it opens.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import type { HealthBody } from '../../src/server/api-types.js';
import { cliPath } from '../support/cli.js';
import { repoRoot } from '../support/temp.js';

export interface Harness {
  home: string;
  origin: string;
  loginUrl: string;
  browser: Browser;
  context: BrowserContext;
  /** URLs the pages asked for that are not on the server's origin. */
  foreignRequests: string[];
  /** Messages of every alert/confirm/prompt a page opened. */
  dialogs: string[];
  stop(): Promise<void>;
}

export const outputDir = join(repoRoot, 'test-output');

function waitForUrl(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`serve printed no login URL in ${timeoutMs} ms:\n${seen}`)), timeoutMs);
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      seen += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(seen);
      if (m !== null) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${seen}`)));
  });
}

/**
 * Waits until the server's first index sweep has finished, so the tests' search budgets time the search
 * and not the sweep a loaded machine may take seconds to finish (the session list needs no sweep).
 */
async function firstSweep(context: BrowserContext, loginUrl: string, origin: string): Promise<void> {
  const page = await context.newPage();
  try {
    await page.goto(loginUrl);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const health = (await (await page.request.get(`${origin}/api/health`)).json()) as HealthBody;
      if (health.last_sweep !== null && !health.sweeping) return;
      if (Date.now() > deadline) throw new Error(`serve finished no index sweep in 60 s: ${JSON.stringify(health)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await page.close();
  }
}

/** `prepare` fills `<home>/.claude` before the server starts. */
export async function startHarness(prepare: (home: string) => Promise<void>): Promise<Harness> {
  const home = await mkdtemp(join(tmpdir(), 'agentlog-web-'));
  await mkdir(join(home, '.claude'), { recursive: true });
  await prepare(home);
  await mkdir(outputDir, { recursive: true });
  const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', '--interval', '2'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      AGENTLOG_HOME: join(home, '.agentlog'),
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      CODEX_HOME: join(home, '.codex'),
      TZ: 'UTC',
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const loginUrl = await waitForUrl(child, 20_000);
  const origin = new URL(loginUrl).origin;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' });
  const foreignRequests: string[] = [];
  const dialogs: string[] = [];
  context.on('request', (r) => {
    if (!r.url().startsWith(`${origin}/`)) foreignRequests.push(r.url());
  });
  context.on('page', (p) => {
    p.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });
  await firstSweep(context, loginUrl, origin);
  return {
    home,
    origin,
    loginUrl,
    browser,
    context,
    foreignRequests,
    dialogs,
    async stop() {
      await browser.close().catch(() => undefined);
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
      await rm(home, { recursive: true, force: true });
    },
  };
}
