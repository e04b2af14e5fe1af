// `agentlog serve` as a user runs it: the login line, one server per AGENTLOG_HOME, a clean stop on
// SIGTERM in the middle of the first sweep (no lock left), and a restart that serves at once.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliPath } from '../../test/support/cli.js';
import { corpusPath, tempDir } from '../../test/support/temp.js';
import type { HealthBody } from './api-types.js';
import { envFor, fillHomes } from './test-support/fixture-home.js';
import { hasCorpus } from '../../test/support/corpus.js';

/** Every server a test started, stopped after it even when an assertion failed mid-way. */
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

interface Running {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>, args: string[] = []): Running & { ready: Promise<string> } {
  const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  const running = { child, url: '', stderr: () => err } as Running & { ready: Promise<string> };
  running.exited = new Promise((r) => child.on('close', (code) => r(code)));
  running.ready = new Promise((resolve, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      const m = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(err);
      if (m !== null && running.url === '') {
        running.url = m[1] as string;
        resolve(running.url);
      }
    });
    void running.exited.then((code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return running;
}

/** Every lock file under a folder (serve, index writer, custody installations). */
function locks(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/lock$/i.test(e.name)) out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

describe.skipIf(!hasCorpus)('agentlog serve', () => {
  it('prints the login URL, refuses a second server, stops cleanly on SIGTERM mid-sweep and restarts at once', async () => {
    const root = await tempDir('agentlog-serve-e2e-');
    await fillHomes(root);
    // Enough sessions (~90 MB) that the first keep + index sweep, which starts with the server, is
    // still running when the health check below asks and SIGTERM follows at once: the check comes
    // first, before anything that takes a process start (a fast sweep was over by then).
    const big = readFileSync(corpusPath('claude/projects/-sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'));
    await mkdir(join(root, '.claude', 'projects', '-bulk'), { recursive: true });
    for (let i = 0; i < 120; i++) await writeFile(join(root, '.claude', 'projects', '-bulk', `${randomUUID()}.jsonl`), big);
    const env = envFor(root);
    const first = start(env);
    const url = await first.ready;
    const token = readFileSync(join(env.AGENTLOG_HOME as string, 'serve.token'), 'utf8').trim();
    const auth = { headers: { Authorization: `Bearer ${token}` } };
    const origin = new URL(url).origin;
    const during = (await (await fetch(`${origin}/api/health`, auth)).json()) as HealthBody;
    expect(during.sweeping).toBe(true);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(url).toContain(`?token=${token}`);
    expect(first.stderr().trim().split('\n')).toHaveLength(1);
    expect(locks(env.AGENTLOG_HOME as string)).toEqual([]);
    const log = readFileSync(join(env.AGENTLOG_HOME as string, 'logs', 'serve.log'), 'utf8');
    expect(log).toMatch(/start pid \d+/);
    expect(log).toMatch(/stop \(SIGTERM\)/);

    const again = start(env, ['--no-sweep']);
    const t0 = Date.now();
    const url2 = await again.ready;
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(url2.endsWith(`?token=${token}`)).toBe(true);
    const origin2 = new URL(url2).origin;
    expect((await fetch(`${origin2}/api/health`, auth)).status).toBe(200);
    expect((await fetch(`${origin2}/api/health`)).status).toBe(401);
    const ok = await fetch(`${origin2}/api/sessions?limit=1`, auth);
    expect(ok.status).toBe(200);

    // A second server on the same state is refused while one serves.
    const second = start(env);
    second.ready.catch(() => undefined);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toMatch(new RegExp(`process ${again.child.pid} already serves`));

    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
    expect(locks(env.AGENTLOG_HOME as string)).toEqual([]);
  }, 60_000);
});
