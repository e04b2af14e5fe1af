// The built CLI end to end against a real `hub serve` process (SQLite) on 127.0.0.1, every home in a
// temporary folder: login (token on stdin), allow, sync --json, status --json. What reaches the hub
// is counted by a pass-through proxy in front of it, so "a second sync sends no body" is a count of
// the requests the hub received, not the CLI's word for it.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli.js';
import { tempDir } from '../../../test/support/temp.js';
import { assistant, jsonl, toolResult, toolUse, usage, user, write } from '../../agents/claude-code/test-support/fixtures.js';
import { addUser, type HubProcess, startHub } from '../../hub/test-support/spawn.js';
import { dashEncode } from '../../sync/home-elide.js';

interface Seen {
  method: string;
  path: string;
  bytes: number;
}

/** Forwards every request to `target` unchanged and notes what it was. */
async function countingProxy(target: string): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? '', path: new URL(req.url ?? '/', 'http://x').pathname, bytes: body.length });
      const out = request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => {
        res.writeHead(502).end();
      });
      out.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const hubs: HubProcess[] = [];
const proxies: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const p of proxies.splice(0)) await p.close();
  for (const h of hubs.splice(0)) await h.stop();
});

async function writeSession(claude: string, id: string, repo: string, secret: string): Promise<void> {
  const at = { sessionId: id, cwd: repo };
  await write(
    join(claude, 'projects', dashEncode(repo), `${id}.jsonl`),
    jsonl([
      user(`Deploy with ${secret} please`, 1, at),
      assistant(`m1-${id}`, [{ type: 'text', text: 'Reading.' }, toolUse(`t-${id}`, 'Bash', { command: 'ls' })], 2, at, {
        usage: usage(10, 5),
      }),
      user([toolResult(`t-${id}`, 'README.md')], 3, at),
      assistant(`m2-${id}`, [{ type: 'text', text: 'Done.' }], 4, at, { usage: usage(3, 2) }),
    ]),
  );
}

const sessionFields = [
  'agent',
  'session_id',
  'repo',
  'models',
  'turns',
  'tool_calls',
  'totals',
  'truncated',
  'detail',
  'status',
  'branch',
  'started_at',
  'ended_at',
  'file',
];

describe('agentlog login, allow, sync and status against a hub serve process', () => {
  it('syncs with the seed JSON object, sends no body on an unchanged re-sync, and exits 1 when sessions fail', async () => {
    const root = await tempDir();
    const home = join(root, 'home');
    const repo = join(home, 'code', 'demo');
    const claude = join(home, '.claude');
    const secret = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A';
    const ids = ['aaaaaaaa-1111-4222-8333-444444444444', 'bbbbbbbb-1111-4222-8333-444444444444'];
    for (const id of ids) await writeSession(claude, id, repo, secret);
    await writeSession(claude, 'cccccccc-1111-4222-8333-444444444444', join(home, 'code', 'private'), secret);

    const db = `sqlite:${join(root, 'hub.db')}`;
    const hub = await startHub(db, home);
    hubs.push(hub);
    const token = await addUser(db, home, 'ann', 'red');
    const proxy = await countingProxy(hub.url);
    proxies.push(proxy);

    const login = await runCli(['login', '--hub', proxy.url, '--token-stdin', '--json'], home, {}, `${token}\n`);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({ hub: proxy.url, user: 'ann', workspace: 'red' });
    expect(login.stdout).not.toContain(token);

    const allow = await runCli(['allow', repo, '--json'], home);
    expect(allow.code).toBe(0);
    expect(JSON.parse(allow.stdout)).toMatchObject({ allowed: [{ path: repo, detail: 'full' }], changed: true });

    proxy.seen.length = 0;
    const first = await runCli(['sync', '--json'], home);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout) as Record<string, unknown> & { sessions: Record<string, unknown>[] };
    expect(Object.keys(report).sort()).toEqual(
      ['scanned', 'uploaded', 'unchanged', 'skipped', 'unreadable', 'unparsed', 'redacted', 'dry_run', 'notes', 'sessions'].sort(),
    );
    expect(report).toMatchObject({ scanned: 3, uploaded: 2, unchanged: 0, skipped: 1, unreadable: 0, unparsed: 0, dry_run: false });
    expect(report.redacted).toBeGreaterThanOrEqual(2);
    expect(report.notes).toEqual({ written: 2, unchanged: 0, failed: 0, would_write: 0 });
    for (const s of report.sessions) for (const f of sessionFields) expect(s, f).toHaveProperty(f);
    const sent = report.sessions.filter((s) => s.status === 'uploaded');
    expect(sent.map((s) => s.session_id).sort()).toEqual(ids);
    for (const s of sent)
      expect(s).toMatchObject({
        agent: 'claude_code',
        repo: '~/code/demo',
        detail: 'full',
        turns: 3,
        tool_calls: 1,
        note: { status: 'written' },
      });
    expect(report.sessions.find((s) => s.status === 'skipped')).toMatchObject({ reason: 'repo not opted in' });
    const bodies = (): Seen[] => proxy.seen.filter((r) => r.method === 'POST' && r.path === '/v1/sources');
    expect(bodies()).toHaveLength(2);
    expect(first.stdout).not.toContain(secret);

    // Unchanged: the hub receives a check and notes, and not one body.
    proxy.seen.length = 0;
    const second = await runCli(['sync', '--json'], home);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ uploaded: 0, unchanged: 2, skipped: 1 });
    expect(bodies()).toEqual([]);
    expect(proxy.seen.filter((r) => r.path === '/v1/sources/check')).toHaveLength(1);

    const status = await runCli(['status', '--json'], home);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      allowed: [{ path: repo, detail: 'full', sessions: 2 }],
      sessions: 3,
      opted_in: 2,
      hub: proxy.url,
      last_sync: { hub: proxy.url, uploaded: 0, unchanged: 2, skipped: 1, failed: 0 },
    });

    // The hub gone: every opted-in session fails, the run still reports each, and the exit is 1.
    await hub.stop();
    const third = await runCli(['sync', '--json'], home);
    expect(third.code).toBe(1);
    const failed = JSON.parse(third.stdout) as { sessions: { status: string; reason?: string }[] };
    expect(failed.sessions.filter((s) => s.status === 'failed')).toHaveLength(2);
    expect(failed.sessions.filter((s) => s.status === 'skipped')).toHaveLength(1);
  }, 60_000);
});
