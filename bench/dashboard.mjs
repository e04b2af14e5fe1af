// The dashboard benchmark (issue 12): `node bench/dashboard.mjs <home> [<big session file>]` after
// `npm run build`, with Debian's chromium at /usr/bin/chromium. Starts `agentlog serve` on the bench
// home (a fresh state folder in a temporary directory, so the home is only read), waits for its first
// sweep, and measures in Chromium with the Performance API, each figure beside a baseline of the same
// run:
//   first paint of the session list, beside the same page's static HTML first paint (JavaScript off)
//   and the list API's own response time, and again right after serve restarts on the same state
//   (the page opened as soon as the URL is printed, the start-up sweeps running);
//   keystroke → rendered message hits, beside the message-search API's response time;
//   first entries of the big (87 MB) transcript, beside the turns API's response time and the whole
//   parse that page used to wait for;
//   scrolling a 10,000-row list (a temporary home of 10,000 small sessions), beside the same page idle;
//   the gzipped bundle size.
// It also writes docs/dashboard.png, the README's screenshot, from the small home (no personal paths).
// `BENCH_DASH_ONLY=bundle,big,small,shot` runs some parts.
import { spawn, execSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { agentEnv } from './run.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
// BENCH_DASH_CLI_ROOT: another checkout's build to serve (a before/after pair run at the same time).
const cli = join(process.env.BENCH_DASH_CLI_ROOT ?? root, 'dist', 'cli', 'main.js');
const home = resolve(process.argv[2] ?? join(here, '.cache', 'home-1024m'));
const bigFile = process.argv[3] !== undefined && process.argv[3] !== '' ? process.argv[3] : null;
const only = process.env.BENCH_DASH_ONLY?.split(',');
const want = (name) => only === undefined || only.includes(name);
const work = mkdtempSync(join(tmpdir(), 'agentlog-dash-bench-'));

const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '—');
const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : (s[Math.floor((s.length - 1) / 2)] ?? Number.NaN);
};
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? (a / b).toFixed(2) : '—');
const row = (label, value, baseLabel, baseValue, r, goal = '') =>
  console.log(
    `  ${label.padEnd(40)} ${value.padStart(10)}   ${baseLabel.padEnd(34)} ${baseValue.padStart(10)}   ratio ${r.padStart(5)}   ${goal}`,
  );
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  execSync('uptime')
    .toString()
    .trim()
    .replace(/^.*load/, 'load');

/**
 * Starts the built CLI's serve with `env`; resolves once its first index sweep reported, or at once
 * with `sweep: false` (the session list needs no sweep) or `wait: false` (sweeping, not waited for).
 */
async function startServe(env, { sweep = true, wait = sweep } = {}) {
  const args = [cli, 'serve', '--port', '0', ...(sweep ? [] : ['--no-sweep'])];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const started = performance.now();
  const loginUrl = await new Promise((resolveUrl, reject) => {
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(stderr);
      if (m !== null) resolveUrl(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  const origin = new URL(loginUrl).origin;
  const headers = { Authorization: `Bearer ${new URL(loginUrl).searchParams.get('token')}` };
  const api = async (path) => {
    const t0 = performance.now();
    const res = await fetch(`${origin}${path}`, { headers });
    const body = await res.json();
    return { body, ms: performance.now() - t0 };
  };
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  };
  let health;
  try {
    for (;;) {
      // A busy server may drop a poll while its first sweep runs: only its answer counts.
      health = (await api('/api/health').catch(() => ({ body: null }))).body;
      if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}: ${stderr}`);
      // The first index sweep has reported (a home this busy may sweep again at once on a change).
      if (
        health !== null &&
        (!wait || (health.last_sweep !== null && health.last_sweep.index !== null && health.last_sweep.index !== undefined))
      )
        break;
      await sleep(250);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const sweepS = (performance.now() - started) / 1000;
  return {
    origin,
    loginUrl,
    api,
    health,
    sweepS,
    stop,
  };
}

// Runs in the page before its own scripts: marks when the list rows, message hits and transcript
// turns first reach the screen (a frame after the DOM change that drew them), and collects long tasks.
const probe = `
  window.__m = {};
  window.__watch = {};
  window.__longTasks = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration }); })
    .observe({ type: 'longtask', buffered: true });
  addEventListener('keydown', () => { window.__lastKey = performance.now(); }, true);
  const painted = (name) => requestAnimationFrame(() => setTimeout(() => { window.__m[name] = performance.now(); }, 0));
  const seen = { rows: '[aria-label="Sessions"] li', hits: '[aria-label="Sessions"] .hit mark', turns: '[aria-label="Transcript"] article' };
  new MutationObserver(() => {
    for (const [name, selector] of Object.entries(seen)) {
      if (name === 'rows' ? window.__m.rows === undefined && !window.__watch.rowsSeen : window.__watch[name] === true) {
        if (document.querySelector(selector) === null) continue;
        if (name === 'rows') window.__watch.rowsSeen = true; else window.__watch[name] = false;
        painted(name);
      }
    }
  }).observe(document, { childList: true, subtree: true });
`;

/** A browser context signed in to `serve` (the login link trades the token for a cookie). */
async function signedInContext(browser, serve) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' });
  // The machine may be loaded: a navigation gets minutes, not the default 30 s.
  context.setDefaultTimeout(180_000);
  context.setDefaultNavigationTimeout(180_000);
  const login = await context.newPage();
  await login.goto(serve.loginUrl);
  await login.close();
  return context;
}

async function newPage(context) {
  const page = await context.newPage();
  await page.addInitScript(probe);
  return page;
}

const waitMark = (page, name, timeout = 60_000) =>
  page
    .waitForFunction((n) => window.__m[n] !== undefined, name, { timeout, polling: 50 })
    .then(() => page.evaluate((n) => window.__m[n], name));

/** The duration of the newest resource entry whose URL contains `part` (request start to response end). */
const resourceMs = (page, part) =>
  page.evaluate((p) => {
    const e = performance
      .getEntriesByType('resource')
      .filter((r) => r.name.includes(p))
      .at(-1);
    return e === undefined ? Number.NaN : e.responseEnd - e.startTime;
  }, part);

async function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

function benchBundle() {
  const dir = join(root, 'dist', 'web');
  const files = readdirSync(dir).filter((f) => f.endsWith('.js') || f.endsWith('.css'));
  let js = 0;
  let jsRaw = 0;
  let css = 0;
  for (const f of files) {
    const body = readFileSync(join(dir, f));
    if (f.endsWith('.js')) {
      js += gzipSync(body, { level: 9 }).length;
      jsRaw += body.length;
    } else css += gzipSync(body, { level: 9 }).length;
  }
  row(
    'bundle JavaScript, gzipped',
    `${fmt(js / 1024, 1)} KB`,
    'unzipped',
    `${fmt(jsRaw / 1024, 1)} KB`,
    ratio(js, jsRaw),
    'goal ≤ 150 KB gzipped',
  );
  row('bundle CSS, gzipped', `${fmt(css / 1024, 1)} KB`, 'JavaScript gzipped', `${fmt(js / 1024, 1)} KB`, ratio(css, js));
  // What the list's first paint loads: the scripts index.html names (the app and its modulepreloads);
  // the rest are chunks fetched after it.
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const named = [...html.matchAll(/(?:src|href)="\/([^"]+\.js)"/g)].map((m) => m[1]);
  const first = named.reduce((n, f) => n + gzipSync(readFileSync(join(dir, f)), { level: 9 }).length, 0);
  row(
    `first scripts (${named.length}), gzipped`,
    `${fmt(first / 1024, 1)} KB`,
    'all JavaScript gzipped',
    `${fmt(js / 1024, 1)} KB`,
    ratio(first, js),
    `${files.filter((f) => f.endsWith('.js')).length - named.length} chunks after the first paint`,
  );
}

async function benchBig(browser) {
  const state = join(work, 'state-big');
  console.log(`  serve on ${home} (state in a temporary folder)…`);
  const serve = await startServe({ ...process.env, ...agentEnv(home, state) });
  console.log(
    `  first sweep ${fmt(serve.sweepS, 1)} s: ${serve.health.indexed.sessions} sessions, ${serve.health.indexed.messages} messages indexed; ${load()}`,
  );
  try {
    // Log in once; every page after this is a plain visit.
    const context = await signedInContext(browser, serve);

    // The same page's static HTML, JavaScript off: what the browser paints with no app at all (the
    // same URL and cookie as the app's page: no login redirect in front of it).
    const staticContext = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    await staticContext.addCookies(await context.cookies());
    const staticPaints = [];
    const busyAtStart = await serveBusy(serve);
    for (let i = 0; i < 5; i++) {
      const p = await staticContext.newPage();
      await p.goto(`${serve.origin}/`);
      await p.waitForLoadState('load');
      staticPaints.push(await p.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN));
      await p.close();
    }
    await staticContext.close();

    const listPaints = [];
    const listApi = [];
    for (let i = 0; i < 5; i++) {
      const page = await newPage(context);
      await page.goto(`${serve.origin}/`);
      listPaints.push(await waitMark(page, 'rows'));
      listApi.push(await resourceMs(page, '/api/sessions?'));
      await page.close();
    }
    row(
      'session list first paint (from navigation)',
      `${fmt(median(listPaints))} ms`,
      'static HTML first paint (no JS)',
      `${fmt(median(staticPaints))} ms`,
      ratio(median(listPaints), median(staticPaints)),
      'goal ≤ 500 ms',
    );
    row('', '', 'GET /api/sessions first page (API)', `${fmt(median(listApi))} ms`, ratio(median(listPaints), median(listApi)));
    console.log(`  (serve while measured: ${busyAtStart} at the start, ${await serveBusy(serve)} at the end)`);

    // Keystroke → hits: words of the generated homes' prose, each typed into a cleared box.
    const page = await newPage(context);
    await page.goto(`${serve.origin}/`);
    await waitMark(page, 'rows');
    const box = page.getByRole('searchbox', { name: 'Search sessions and messages' });
    const words = [];
    for (const w of ['migration', 'parser', 'deploy', 'schema', 'lantern', 'release']) {
      const r = await serve.api(`/api/sessions/message-search?q=${encodeURIComponent(w)}&limit=50`);
      if ((r.body.sessions ?? []).length > 0) words.push(w);
    }
    const toHits = [];
    const searchApi = [];
    for (const w of words) {
      await box.fill('');
      await page.waitForFunction(() => document.querySelector('[aria-label="Sessions"] .hit mark') === null, null, { timeout: 10_000 });
      await sleep(400);
      await page.evaluate(() => {
        window.__m.hits = undefined;
        window.__watch.hits = true;
      });
      await box.pressSequentially(w, { delay: 40 });
      const at = await waitMark(page, 'hits', 20_000).catch(() => Number.NaN);
      const lastKey = await page.evaluate(() => window.__lastKey);
      toHits.push(at - lastKey);
      searchApi.push(await resourceMs(page, `message-search?q=${encodeURIComponent(w)}`));
    }
    const hitsMs = median(toHits);
    row(
      `keystroke → hits drawn (${words.length} words)`,
      `${fmt(hitsMs)} ms`,
      'message-search API response',
      `${fmt(median(searchApi))} ms`,
      ratio(hitsMs, median(searchApi)),
      `after the 225 ms debounce: ${fmt(hitsMs - 225)} ms; goal ≤ 300 ms`,
    );
    await box.fill('');

    if (bigFile !== null) {
      const id = basename(bigFile, '.jsonl');
      const size = statSync(bigFile).size;
      const opens = [];
      const turnsApi = [];
      for (let i = 0; i < 3; i++) {
        await page.evaluate(() => {
          location.hash = '';
        });
        await page.waitForFunction(() => document.querySelector('[aria-label="Transcript"] article') === null, null, { timeout: 10_000 });
        const t0 = await page.evaluate((sid) => {
          window.__m.turns = undefined;
          window.__watch.turns = true;
          const now = performance.now();
          location.hash = `#/s/claude_code/${sid}`;
          return now;
        }, id);
        opens.push((await waitMark(page, 'turns', 120_000)) - t0);
        turnsApi.push(await resourceMs(page, '/turns?'));
      }
      // What the first page waited for before the tail read: the whole parse (here, the page above it).
      const whole = await serve.api(`/api/session/claude_code/${id}/turns?limit=80&before_end=0`);
      row(
        `first entries of the ${fmt(size / 1e6)} MB transcript (cold)`,
        `${fmt(opens[0])} ms`,
        'GET …/turns, newest page (API)',
        `${fmt(turnsApi[0])} ms`,
        ratio(opens[0], turnsApi[0]),
        'goal ≤ 500 ms',
      );
      row(
        '  the same, opened again',
        `${fmt(median(opens.slice(1)))} ms`,
        'GET …/turns again',
        `${fmt(median(turnsApi.slice(1)))} ms`,
        ratio(median(opens.slice(1)), median(turnsApi.slice(1))),
      );
      row(
        '  the whole parse it no longer waits for',
        `${fmt(whole.ms)} ms`,
        'tail read (cold API)',
        `${fmt(turnsApi[0])} ms`,
        ratio(whole.ms, turnsApi[0]),
        `${whole.body.total} turns in all`,
      );
    }
    await page.close();
    await context.close();
  } finally {
    await serve.stop();
  }
  await benchRestart(browser, state);
}

/** What the serve process is doing besides answering: sweeping or not, as its health says. */
async function serveBusy(serve) {
  const h = (await serve.api('/api/health').catch(() => ({ body: null }))).body;
  return h === null ? 'no answer' : h.sweeping ? 'sweeping' : 'idle';
}

/**
 * A person's morning: serve restarted on the same state (its scan cache, index and kept copy from the
 * run above), the page opened as soon as the URL is printed, while the start-up sweeps run. First
 * paint of the list from navigation, beside the time from starting serve.
 */
async function benchRestart(browser, state) {
  const t0 = performance.now();
  const serve = await startServe({ ...process.env, ...agentEnv(home, state) }, { wait: false });
  try {
    const context = await signedInContext(browser, serve);
    const page = await newPage(context);
    const navAt = performance.now();
    await page.goto(`${serve.origin}/`);
    const paint = await waitMark(page, 'rows', 600_000);
    const api = await resourceMs(page, '/api/sessions?');
    row(
      'after a restart: list first paint',
      `${fmt(paint)} ms`,
      'GET /api/sessions first page (API)',
      `${fmt(api)} ms`,
      ratio(paint, api),
      `page opened ${fmt((navAt - t0) / 1000, 1)} s after starting serve (${await serveBusy(serve)}); goal ≤ 500 ms`,
    );
    await context.close();
  } finally {
    await serve.stop();
  }
}

// ---------------------------------------------------------------------------------------------------
// The small home: 10,000 short Claude Code sessions over the last 30 days, and one richer one on top.

const asks = [
  'Fix the flaky upload test in CI',
  'Rename the walrus endpoint to /v2/lanterns',
  'Add pagination to the audit log API',
  'Why does the importer drop the last row?',
  'Write a migration for the invoices table',
  'Speed up the cold start of the CLI',
  'Explain how the retry queue backs off',
  'Add dark mode to the settings page',
  'Port the date helpers to Temporal',
  'Find every caller of parseConfig',
  'Bump the SQLite driver and fix the build',
  'Review the diff of the search ranking change',
];
const repos = ['api-server', 'web', 'cli', 'billing', 'docs', 'infra', 'mobile', 'search'];
const models = ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'];

function line(sid, cwd, n, t, type, message, extra = {}) {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    type,
    sessionId: sid,
    cwd,
    gitBranch: 'main',
    uuid: `${sid.slice(0, 8)}-${n}`,
    timestamp: new Date(t).toISOString(),
    message,
    ...extra,
  });
}

function smallHome(dir, count) {
  const now = Date.now();
  const projects = join(dir, '.claude', 'projects');
  for (let i = 0; i < count; i++) {
    const sid = randomUUID();
    const repo = repos[i % repos.length];
    const cwd = `/work/${repo}`;
    const start = now - (i / count) * 29 * 86_400_000 - 3_600_000;
    const model = models[i % models.length];
    const usage = {
      input_tokens: 900 + (i % 700),
      output_tokens: 200 + (i % 300),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 12_000,
    };
    const lines = [
      line(sid, cwd, 1, start, 'user', { role: 'user', content: `${asks[i % asks.length]} (#${i})` }),
      line(sid, cwd, 2, start + 40_000, 'assistant', {
        id: `msg_${i}`,
        role: 'assistant',
        model,
        content: [{ type: 'text', text: `Done: ${asks[(i + 3) % asks.length].toLowerCase()} was the cause.` }],
        usage,
      }),
    ];
    const folder = join(projects, cwd.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(folder, { recursive: true });
    const file = join(folder, `${sid}.jsonl`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    // Written long ago, as its lines say: not a live session.
    utimesSync(file, new Date(start + 40_000), new Date(start + 40_000));
  }
  // The newest session, the one the screenshot opens: Markdown, a tool call with its output, a reply.
  const sid = '0b6f9a52-3c1d-4e8f-9a7b-2d4c6e8f0a1b';
  const cwd = '/work/api-server';
  const t = now - 20 * 60_000;
  const usage = { input_tokens: 2400, output_tokens: 610, cache_creation_input_tokens: 1200, cache_read_input_tokens: 48_000 };
  const a = (n, id, content) =>
    line(sid, cwd, n, t + n * 25_000, 'assistant', { id, role: 'assistant', model: 'claude-sonnet-4-5', content, usage });
  const rich = [
    line(sid, cwd, 1, t, 'user', {
      role: 'user',
      content: 'Rename the walrus endpoint to /v2/lanterns and keep the old path as a redirect',
    }),
    a(2, 'msg_r1', [
      {
        type: 'text',
        text: "I'll find every caller of the **walrus** endpoint first, then rename the route and add a redirect:\n\n1. `src/api/routes.ts` declares it\n2. `src/cli/main.ts` and the tests call it",
      },
    ]),
    a(3, 'msg_r2', [{ type: 'tool_use', id: 'toolu_r1', name: 'Bash', input: { command: 'rg -n "walrus" src/ test/' } }]),
    line(sid, cwd, 4, t + 4 * 25_000, 'user', {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_r1',
          content:
            'src/api/routes.ts:42:  router.get("/walrus", walrus)\nsrc/cli/main.ts:88:  await client.get("/walrus")\ntest/api.test.ts:17:  expect(await get("/walrus")).toBe(200)',
        },
      ],
    }),
    a(5, 'msg_r3', [
      {
        type: 'tool_use',
        id: 'toolu_r2',
        name: 'Edit',
        input: {
          file_path: `${cwd}/src/api/routes.ts`,
          old_string: 'router.get("/walrus", walrus)',
          new_string: 'router.get("/v2/lanterns", lanterns)\nrouter.get("/walrus", redirect("/v2/lanterns"))',
        },
      },
    ]),
    line(sid, cwd, 6, t + 6 * 25_000, 'user', {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_r2', content: 'The file src/api/routes.ts has been updated.' }],
    }),
    a(7, 'msg_r4', [
      {
        type: 'text',
        text: 'Renamed. `/walrus` now answers **308** to `/v2/lanterns`, and the CLI and tests call the new path.\n\n```diff\n- router.get("/walrus", walrus)\n+ router.get("/v2/lanterns", lanterns)\n+ router.get("/walrus", redirect("/v2/lanterns"))\n```',
      },
    ]),
    line(sid, cwd, 8, t + 8 * 25_000, 'user', { role: 'user', content: 'Run the tests' }),
    a(9, 'msg_r5', [{ type: 'text', text: 'All 214 tests pass.' }]),
  ];
  const folder = join(projects, '-work-api-server');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${sid}.jsonl`), `${rich.join('\n')}\n`);
  utimesSync(join(folder, `${sid}.jsonl`), new Date(t + 9 * 25_000), new Date(t + 9 * 25_000));
  return sid;
}

async function benchSmall(browser) {
  const dir = join(work, 'small');
  const count = Number(process.env.BENCH_DASH_ROWS ?? 10_000);
  smallHome(dir, count);
  // The list needs no index: serve runs without its sweeps, which would compete with the page.
  const serve = await startServe({ ...process.env, ...agentEnv(dir, join(dir, '.agentlog')) }, { sweep: false });
  console.log(`  serve --no-sweep on ${count.toLocaleString('en')} small sessions; ${load()}`);
  try {
    const context = await signedInContext(browser, serve);
    const page = await newPage(context);
    await page.goto(`${serve.origin}/`);
    await waitMark(page, 'rows');
    await page.waitForFunction(
      (n) => document.querySelector('[aria-label="Sessions"] li')?.getAttribute('aria-setsize') === String(n),
      count + 1,
      { timeout: 120_000, polling: 200 },
    );
    await sleep(1000);
    /** Long tasks and the longest frame over `frames` animation frames, scrolling the list or not. */
    const run = (scroll, frames) =>
      page.evaluate(
        ({ scroll, frames }) =>
          new Promise((done) => {
            const el = document.querySelector('.list-scroll');
            const step = (el.scrollHeight - el.clientHeight) / frames;
            const t0 = performance.now();
            let last = t0;
            let worst = 0;
            let i = 0;
            const frame = (now) => {
              worst = Math.max(worst, now - last);
              last = now;
              if (scroll) el.scrollTop = Math.round(step * (i + 1));
              if (++i < frames) requestAnimationFrame(frame);
              else {
                const t1 = performance.now();
                const tasks = window.__longTasks.filter((t) => t.start >= t0 && t.start <= t1);
                done({
                  ms: t1 - t0,
                  worstFrame: worst,
                  longest: tasks.reduce((m, t) => Math.max(m, t.duration), 0),
                  over50: tasks.filter((t) => t.duration > 50).length,
                  reachedEnd: !scroll || el.scrollTop + el.clientHeight >= el.scrollHeight - 2,
                });
              }
            };
            requestAnimationFrame(frame);
          }),
        { scroll, frames },
      );
    const idle = await run(false, 300);
    const scrolled = await run(true, 300);
    row(
      `scroll ${count.toLocaleString('en')} rows top → bottom (300 frames)`,
      `${fmt(scrolled.longest)} ms`,
      'longest task, same page idle',
      `${fmt(idle.longest)} ms`,
      ratio(scrolled.longest, idle.longest || 1),
      `${scrolled.over50} long tasks > 50 ms (goal 0); reached the end: ${scrolled.reachedEnd}`,
    );
    row(
      '  longest frame while scrolling',
      `${fmt(scrolled.worstFrame)} ms`,
      'longest frame idle',
      `${fmt(idle.worstFrame)} ms`,
      ratio(scrolled.worstFrame, idle.worstFrame),
      `${fmt((300 / scrolled.ms) * 1000)} frames/s scrolling, ${fmt((300 / idle.ms) * 1000)} idle`,
    );

    await context.close();
  } finally {
    await serve.stop();
  }
}

/** The README's screenshot (docs/dashboard.png): a home of 60 sessions, swept, light, the rich one open. */
async function screenshot(browser) {
  const dir = join(work, 'shot');
  const richId = smallHome(dir, 60);
  const serve = await startServe({ ...process.env, ...agentEnv(dir, join(dir, '.agentlog')) });
  try {
    const context = await signedInContext(browser, serve);
    const page = await newPage(context);
    await page.goto(`${serve.origin}/`);
    await waitMark(page, 'rows');
    // The README's screenshot: light, the list on top, the rich session open.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate((sid) => {
      location.hash = `#/s/claude_code/${sid}`;
    }, richId);
    await page.getByRole('region', { name: 'Transcript' }).getByText('All 214 tests pass.').waitFor({ timeout: 30_000 });
    await page
      .getByRole('region', { name: 'Usage, last 30 days' })
      .getByRole('img')
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(() => undefined);
    await sleep(500);
    const shot = join(root, 'docs', 'dashboard.png');
    mkdirSync(dirname(shot), { recursive: true });
    await page.screenshot({ path: shot });
    console.log(`  screenshot: ${shot.slice(root.length + 1)}`);
    await context.close();
  } finally {
    await serve.stop();
  }
}

try {
  console.log(`  ${load()}`);
  if (want('bundle')) benchBundle();
  const browser = want('big') || want('small') || want('shot') ? await launch() : null;
  try {
    if (want('big')) await benchBig(browser);
    if (want('small')) await benchSmall(browser);
    if (want('shot')) await screenshot(browser);
  } finally {
    await browser?.close();
  }
  console.log(`  ${load()}`);
} catch (error) {
  console.log(`  the dashboard bench failed: ${error.stack ?? error}`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
