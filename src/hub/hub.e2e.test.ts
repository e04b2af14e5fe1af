// The built CLI end to end on SQLite: `hub user add` prints the token once (`--json`), `hub serve`
// answers on a real socket, `hub token revoke` run beside a serving hub shuts the token out at its
// next request, and a hub killed with SIGKILL in the middle of ingest restarts with no half row.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli.js';
import { tempDir } from '../../test/support/temp.js';
import { sessionJson, upload } from './test-support/hub.js';
import { addUser, type HubProcess, postSource, startHub } from './test-support/spawn.js';

const running: HubProcess[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()?.stop('SIGKILL');
});

describe('agentlog hub (built CLI, SQLite)', () => {
  it('user add, serve on a socket, revoke beside it; --json prints one document; bad input exits 2', async () => {
    const home = await tempDir();
    const db = `sqlite:${join(home, 'hub.db')}`;
    const added = await runCli(['hub', 'user', 'add', 'ann', '--workspace', 'red', '--db', db, '--json'], home);
    expect(added.code).toBe(0);
    const doc = JSON.parse(added.stdout) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(['user', 'workspace', 'token']);
    expect(doc).toMatchObject({ user: 'ann', workspace: 'red', token: expect.stringMatching(/^alh_[A-Za-z0-9_-]{43}$/) });
    const token = doc.token as string;
    const human = await runCli(['hub', 'user', 'add', 'bob', '--workspace', 'red', '--db', db], home);
    expect(human.stdout).toMatch(/^created user bob in workspace red\ntoken: alh_/);
    expect((await runCli(['hub', 'user', 'add', 'has space', '--workspace', 'red', '--db', db], home)).code).toBe(2);
    expect((await runCli(['hub', 'user', 'add', 'carl', '--db', db], home)).code).toBe(2);
    expect((await runCli(['hub', 'token', 'revoke', 'nobody', '--db', db, '--json'], home)).code).toBe(2);
    expect((await runCli(['hub', 'serve', '--db', 'mysql://x'], home)).code).toBe(2);
    // The default database lives under AGENTLOG_HOME.
    expect((await runCli(['hub', 'user', 'add', 'dee', '--workspace', 'w'], home)).code).toBe(0);
    const defaultDb = new Database(join(home, '.agentlog', 'hub', 'hub.db'), { readonly: true });
    expect(defaultDb.prepare('SELECT name FROM users').all()).toEqual([{ name: 'dee' }]);
    defaultDb.close();

    const hub = await startHub(db, home);
    running.push(hub);
    const first = await postSource(hub.url, token, upload('e2e-1', { project: 'demo' }));
    expect(first.status).toBe(201);
    expect((await postSource(hub.url, token, upload('e2e-1'))).status).toBe(200);
    const list = await fetch(new URL('/v1/sources?limit=10', hub.url), { headers: { Authorization: `Bearer ${token}` } });
    expect(list.status).toBe(200);
    expect(list.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(((await list.json()) as { sources: unknown[] }).sources).toHaveLength(1);
    const revoked = await runCli(['hub', 'token', 'revoke', 'ann', '--db', db, '--json'], home);
    expect(JSON.parse(revoked.stdout)).toEqual({ user: 'ann', revoked: 1 });
    const after = await fetch(new URL('/v1/sources', hub.url), { headers: { Authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
    expect(await hub.stop()).toBe(0);
  });

  it('SIGKILL during ingest: the restarted hub holds only whole rows, and re-sending completes the set', async () => {
    const home = await tempDir();
    const file = join(home, 'hub.db');
    const db = `sqlite:${file}`;
    const token = await addUser(db, home, 'ann', 'red');
    const hub = await startHub(db, home);
    running.push(hub);
    const n = 300;
    const bodies = Array.from({ length: n }, (_, i) =>
      upload(`kill-${i}`, { body: sessionJson(`kill-${i}`, `ask ${i} ${'x'.repeat(20_000)}`) }),
    );
    const sent = Promise.allSettled(bodies.map((b) => postSource(hub.url, token, b)));
    // Killed once some rows are in, while most uploads are still on their way.
    const watch = new Database(file, { readonly: true });
    const count = watch.prepare('SELECT COUNT(*) AS n FROM sources');
    const deadline = Date.now() + 30_000;
    while ((count.get() as { n: number }).n < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    watch.close();
    await hub.stop('SIGKILL');
    const outcomes = await sent;
    const answered = outcomes.filter((o) => o.status === 'fulfilled' && o.value.status === 201).length;

    const check = new Database(file);
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    const counts = check
      .prepare(
        `SELECT (SELECT COUNT(*) FROM sources) AS sources, (SELECT COUNT(*) FROM source_bodies) AS bodies,
          (SELECT COUNT(*) FROM sources s WHERE NOT EXISTS (SELECT 1 FROM arrivals a WHERE a.source_id = s.id)) AS unaudited`,
      )
      .get() as { sources: number; bodies: number; unaudited: number };
    check.close();
    expect(counts.bodies).toBe(counts.sources);
    expect(counts.unaudited).toBe(0);
    // Every upload the client saw answered 201 is in the database; some may have committed unanswered.
    expect(counts.sources).toBeGreaterThanOrEqual(answered);
    expect(counts.sources).toBeLessThan(n);

    const again = await startHub(db, home);
    running.push(again);
    const statuses: number[] = [];
    for (let i = 0; i < n; i += 20)
      statuses.push(...(await Promise.all(bodies.slice(i, i + 20).map((b) => postSource(again.url, token, b)))).map((r) => r.status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(counts.sources);
    expect(statuses.filter((s) => s === 201)).toHaveLength(n - counts.sources);
    const list = await fetch(new URL('/v1/sources?limit=100', again.url), { headers: { Authorization: `Bearer ${token}` } });
    expect(((await list.json()) as { sources: unknown[] }).sources).toHaveLength(100);
    const after = new Database(file, { readonly: true });
    expect((after.prepare('SELECT COUNT(*) AS n FROM sources').get() as { n: number }).n).toBe(n);
    after.close();
  });
});
