// Two hub processes (the built CLI) on one PostgreSQL (issue 13 "Scale and reliability"): 200
// concurrent uploads of the same 50 sessions spread over both → exactly 50 rows, one 201 per
// session, no 5xx; and a hub killed with SIGKILL mid-ingest leaves no half row.
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { sessionJson, upload } from '../test-support/hub.js';
import { describePg, freshSchema } from '../test-support/postgres.js';
import { addUser, type HubProcess, postSource, startHub } from '../test-support/spawn.js';

const running: HubProcess[] = [];
const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()?.stop('SIGKILL');
  while (drops.length > 0) await drops.pop()?.();
});

async function counts(url: string, schema: string): Promise<{ sources: number; bodies: number; unaudited: number }> {
  const client = new pg.Client({ connectionString: url.replace(/[?&]schema=[^&]*/, '') });
  await client.connect();
  try {
    const r = await client.query(
      `SELECT (SELECT COUNT(*) FROM ${schema}.sources)::int AS sources, (SELECT COUNT(*) FROM ${schema}.source_bodies)::int AS bodies,
        (SELECT COUNT(*) FROM ${schema}.sources s WHERE NOT EXISTS (SELECT 1 FROM ${schema}.arrivals a WHERE a.source_id = s.id))::int AS unaudited`,
    );
    return r.rows[0] as { sources: number; bodies: number; unaudited: number };
  } finally {
    await client.end();
  }
}

describePg('two hub processes on one PostgreSQL', () => {
  it('200 concurrent uploads of 50 sessions over two processes: exactly 50 rows, 50 created, no 5xx', async () => {
    const home = await tempDir();
    const made = await freshSchema();
    drops.push(made.drop);
    const token = await addUser(made.url, home, 'ann', 'red');
    const [a, b] = await Promise.all([startHub(made.url, home), startHub(made.url, home)]);
    running.push(a as HubProcess, b as HubProcess);
    const sessions = Array.from({ length: 50 }, (_, i) => upload(`pg-${i}`, { project: 'demo' }));
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        postSource(i % 2 === 0 ? (a as HubProcess).url : (b as HubProcess).url, token, sessions[i % 50]),
      ),
    );
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    expect(results.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    expect(results.filter((r) => r.status === 201)).toHaveLength(50);
    const bySession = new Map<string, Set<unknown>>();
    for (const r of results) {
      const ids = bySession.get(r.json.session_id as string) ?? new Set();
      ids.add(r.json.id);
      bySession.set(r.json.session_id as string, ids);
    }
    expect(bySession.size).toBe(50);
    expect([...bySession.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(await counts(made.url, made.schema)).toEqual({ sources: 50, bodies: 50, unaudited: 0 });
  });

  it('SIGKILL during ingest: no half row; the other process and a restart carry on', async () => {
    const home = await tempDir();
    const made = await freshSchema();
    drops.push(made.drop);
    const token = await addUser(made.url, home, 'ann', 'red');
    const victim = await startHub(made.url, home);
    running.push(victim);
    const n = 300;
    const bodies = Array.from({ length: n }, (_, i) =>
      upload(`kill-${i}`, { body: sessionJson(`kill-${i}`, `ask ${i} ${'y'.repeat(20_000)}`) }),
    );
    const sent = Promise.allSettled(bodies.map((body) => postSource(victim.url, token, body)));
    const deadline = Date.now() + 30_000;
    while ((await counts(made.url, made.schema)).sources < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await victim.stop('SIGKILL');
    await sent;
    const after = await counts(made.url, made.schema);
    expect(after.bodies).toBe(after.sources);
    expect(after.unaudited).toBe(0);
    expect(after.sources).toBeLessThan(n);
    const restarted = await startHub(made.url, home);
    running.push(restarted);
    for (let i = 0; i < n; i += 25) {
      const answers = await Promise.all(bodies.slice(i, i + 25).map((body) => postSource(restarted.url, token, body)));
      expect(answers.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    }
    expect(await counts(made.url, made.schema)).toEqual({ sources: n, bodies: n, unaudited: 0 });
  });
});
