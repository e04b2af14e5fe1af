// The one store conformance suite: every rule of the HubStore contract, run against SQLite
// (`sqlite/store.test.ts`) and PostgreSQL (`postgres/store.test.ts`) alike.
import { createHash } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HubQueryError } from '../sql-driver.js';
import type { SqlStore } from '../sql-store.js';
import type { Principal, SourceInput } from '../store.js';

export interface Backend {
  /** A fresh, empty, unmigrated store. */
  open(): Promise<SqlStore>;
  /** A second store on the same database (another process, as far as locking goes). */
  openAgain(): Promise<SqlStore>;
  cleanup(): Promise<void>;
}

const sha = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
const at = (n: number): string => new Date(Date.UTC(2026, 9, 1, 10, 0, n)).toISOString();

export function source(body: string, over: Partial<SourceInput> = {}): SourceInput {
  return {
    kind: 'agent_log',
    scope: 'personal',
    path: 'claude_code session s1',
    title: 'first ask',
    project: null,
    agent: 'claude_code',
    session_id: 's1',
    started_at: at(0),
    body,
    sha256: sha(body),
    redactions: 0,
    ...over,
  };
}

export function conformance(name: string, make: () => Backend): void {
  describe(`hub store conformance: ${name}`, () => {
    let backend: Backend;
    let store: SqlStore;
    let ann: Principal;
    let bob: Principal;
    let eve: Principal;
    const nextId = monotonicFactory();
    const id = (): string => nextId(Date.UTC(2026, 9, 1));

    async function user(n: string, ws: string): Promise<Principal> {
      const hash = sha(`token-${n}`);
      await store.addUser(n, ws, hash, at(0));
      const p = await store.authenticate(hash);
      if (p === null) throw new Error('no principal');
      return p;
    }

    beforeEach(async () => {
      backend = make();
      store = await backend.open();
      await store.migrate(at(0));
      ann = await user('ann', 'red');
      bob = await user('bob', 'red');
      eve = await user('eve', 'blue');
    });
    afterEach(async () => {
      await store.close();
      await backend.cleanup();
    });

    it('migrates once: a second run, and a second process at once, apply nothing', async () => {
      expect(await store.migrate(at(1))).toEqual({ applied: [], current: 1 });
      const rows = await store.driver.all<{ version: number }>('SELECT version FROM hub_migrations');
      expect(rows.map((r) => Number(r.version))).toEqual([1]);
    });

    it('two processes migrating a new database at once: one applies, the other waits and finds it done', async () => {
      await store.close();
      await backend.cleanup();
      backend = make();
      const a = await backend.open();
      const b = await backend.openAgain();
      try {
        const [ra, rb] = await Promise.all([a.migrate(at(0)), b.migrate(at(0))]);
        expect([...ra.applied, ...rb.applied]).toEqual([1]);
        expect(ra.current).toBe(1);
        expect(rb.current).toBe(1);
      } finally {
        await b.close();
        store = a;
      }
      ann = await user('ann', 'red');
      bob = await user('bob', 'red');
      eve = await user('eve', 'blue');
    });

    it('users: workspaces made on demand, hashed tokens, a second token, revocation, one workspace per user', async () => {
      expect(ann).toMatchObject({ user: 'ann', workspace: 'red' });
      expect(bob.workspaceId).toBe(ann.workspaceId);
      expect(eve.workspaceId).not.toBe(ann.workspaceId);
      const again = await store.addUser('ann', 'red', sha('second'), at(1));
      expect(again).toEqual({ user: 'ann', workspace: 'red', createdUser: false, createdWorkspace: false });
      expect((await store.authenticate(sha('second')))?.userId).toBe(ann.userId);
      await expect(store.addUser('ann', 'blue', sha('third'), at(1))).rejects.toMatchObject({ code: 'HubUserElsewhere', kind: 'usage' });
      expect(await store.authenticate(sha('nobody'))).toBeNull();
      expect(await store.revokeTokens('ann', at(2))).toBe(2);
      expect(await store.authenticate(sha('token-ann'))).toBeNull();
      expect(await store.authenticate(sha('second'))).toBeNull();
      expect(await store.authenticate(sha('token-bob'))).not.toBeNull();
      await expect(store.revokeTokens('zed', at(2))).rejects.toMatchObject({ code: 'HubUserNotFound', kind: 'not_found' });
      const stored = await store.driver.all<{ hash: string }>('SELECT hash FROM tokens');
      expect(stored.every((r) => /^[0-9a-f]{64}$/.test(r.hash))).toBe(true);
    });

    it('ingest: keyed (scope, sha256): new, then the same row; the project gained later, then kept', async () => {
      const first = await store.ingestSource(ann, source('{"a":1}'), id(), at(1));
      expect(first.created).toBe(true);
      expect(first.row).toMatchObject({ kind: 'agent_log', scope: 'personal', project: null, sha256: sha('{"a":1}'), bytes: 7 });
      const again = await store.ingestSource(ann, source('{"a":1}', { project: 'demo' }), id(), at(2));
      expect(again).toMatchObject({ created: false, row: { id: first.row.id, project: 'demo', created_at: at(1) } });
      const third = await store.ingestSource(ann, source('{"a":1}', { project: 'other' }), id(), at(3));
      expect(third.row.project).toBe('demo');
      const shared = await store.ingestSource(ann, source('{"a":1}', { scope: 'shared' }), id(), at(4));
      expect(shared.created).toBe(true);
      const bobs = await store.ingestSource(bob, source('{"a":1}'), id(), at(5));
      expect(bobs.created).toBe(true);
      const counts = await store.driver.all<{ n: number | string }>('SELECT COUNT(*) AS n FROM sources');
      expect(Number(counts[0]?.n)).toBe(3);
      const arrivals = await store.driver.all<{ n: number | string }>('SELECT COUNT(*) AS n FROM arrivals');
      expect(Number(arrivals[0]?.n)).toBe(5);
    });

    it('ingest is one transaction: a failure part-way leaves no row', async () => {
      const bad = source('{"b":2}');
      // A user id that does not exist breaks the arrivals insert (foreign key) after the source row went in.
      const ghost: Principal = { ...ann, userId: 'nobody' };
      await expect(store.ingestSource(ghost, bad, id(), at(1))).rejects.toBeInstanceOf(HubQueryError);
      const rows = await store.driver.all<{ n: number | string }>('SELECT COUNT(*) AS n FROM sources');
      expect(Number(rows[0]?.n)).toBe(0);
      const bodies = await store.driver.all<{ n: number | string }>('SELECT COUNT(*) AS n FROM source_bodies');
      expect(Number(bodies[0]?.n)).toBe(0);
    });

    it('concurrent uploads of one body: one row, one created', async () => {
      const results = await Promise.all(Array.from({ length: 12 }, () => store.ingestSource(ann, source('{"c":3}'), id(), at(1))));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.row.id)).size).toBe(1);
    });

    it('check: which hashes the scope holds, in the order asked', async () => {
      await store.ingestSource(ann, source('x1'), id(), at(1));
      await store.ingestSource(ann, source('x2', { scope: 'shared' }), id(), at(1));
      expect(await store.heldHashes(ann, 'personal', [sha('x2'), sha('x1'), sha('x3')])).toEqual([sha('x1')]);
      expect(await store.heldHashes(bob, 'shared', [sha('x1'), sha('x2')])).toEqual([sha('x2')]);
      expect(await store.heldHashes(eve, 'shared', [sha('x2')])).toEqual([]);
      expect(await store.heldHashes(bob, 'personal', [])).toEqual([]);
    });

    it('listing: newest first, paged by cursor, filtered in the query, only what the asker may read', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 7; i++)
        ids.push(
          (
            await store.ingestSource(
              ann,
              source(`p${i}`, { project: i % 2 === 0 ? 'even' : 'odd', agent: i < 5 ? 'claude_code' : 'codex' }),
              id(),
              at(i),
            )
          ).row.id,
        );
      await store.ingestSource(bob, source('bob-own', { project: 'even' }), id(), at(9));
      const shared = (await store.ingestSource(bob, source('bob-shared', { scope: 'shared', project: 'even' }), id(), at(10))).row.id;
      await store.ingestSource(eve, source('eve-own', { project: 'even' }), id(), at(11));
      const p1 = await store.listSources(ann, { limit: 3 });
      expect(p1.rows.map((r) => r.id)).toEqual([shared, ids[6], ids[5]]);
      expect(p1.next).toBe(ids[5]);
      const p2 = await store.listSources(ann, { limit: 3, before: p1.next ?? '' });
      expect(p2.rows.map((r) => r.id)).toEqual([ids[4], ids[3], ids[2]]);
      const p3 = await store.listSources(ann, { limit: 3, before: p2.next ?? '' });
      expect(p3.rows.map((r) => r.id)).toEqual([ids[1], ids[0]]);
      expect(p3.next).toBeNull();
      const exact = await store.listSources(ann, { limit: 8 });
      expect(exact.rows).toHaveLength(8);
      expect(exact.next).toBeNull();
      const even = await store.listSources(ann, { limit: 2, project: 'even' });
      expect(even.rows.map((r) => r.id)).toEqual([shared, ids[6]]);
      const codex = await store.listSources(ann, { limit: 50, agent: 'codex' });
      expect(codex.rows.map((r) => r.id)).toEqual([ids[6], ids[5]]);
      expect((await store.listSources(ann, { limit: 50, kind: 'chat' })).rows).toEqual([]);
      const eves = await store.listSources(eve, { limit: 50 });
      expect(eves.rows.map((r) => r.path)).toHaveLength(1);
      expect(p1.rows[0]).not.toHaveProperty('body');
    });

    it('a listed row is the row ingest answered, field for field and in order, whatever its text holds', async () => {
      const odd = 'quote " backslash \\ newline \n tab \t bell \u0007 nul-free \u001f é 漢字 🙂 </script>';
      const own = await store.ingestSource(ann, source('{"odd":1}', { title: odd, path: odd, session_id: odd }), id(), at(1));
      const bare = await store.ingestSource(
        ann,
        source('{"bare":1}', { scope: 'shared', project: null, agent: null, session_id: null, started_at: null }),
        id(),
        at(2),
      );
      const page = await store.listSources(ann, { limit: 10 });
      expect(page.rows).toEqual([bare.row, own.row]);
      expect(page.rows.map((r) => Object.keys(r))).toEqual([Object.keys(bare.row), Object.keys(own.row)]);
      const text = await store.listSourcesJson(ann, { limit: 10 });
      expect(JSON.parse(text.json)).toEqual(page.rows);
      expect(text.next).toBeNull();
    });

    it('a listing read again sees every commit since: this store’s, a project gained, another process’s', async () => {
      const ids = async (who: Principal) => (await store.listSources(who, { limit: 10 })).rows.map((r) => [r.id, r.project]);
      expect(await ids(ann)).toEqual([]);
      const first = (await store.ingestSource(ann, source('v1'), id(), at(1))).row.id;
      expect(await ids(ann)).toEqual([[first, null]]);
      expect(await ids(ann)).toEqual([[first, null]]);
      await store.ingestSource(ann, source('v1', { project: 'gained' }), id(), at(2));
      expect(await ids(ann)).toEqual([[first, 'gained']]);
      const shared = (await store.ingestSource(bob, source('v2', { scope: 'shared' }), id(), at(3))).row.id;
      expect(await ids(ann)).toEqual([
        [shared, null],
        [first, 'gained'],
      ]);
      await expect(store.ingestSource({ ...ann, userId: 'nobody' }, source('v3'), id(), at(4))).rejects.toBeInstanceOf(HubQueryError);
      expect(await ids(ann)).toHaveLength(2);

      const before = store.driver.changeStamp();
      const other = await backend.openAgain();
      try {
        const theirs = (await other.ingestSource(ann, source('v4'), id(), at(5))).row.id;
        // A driver that keeps pages must see another connection's commit move its stamp.
        if (before !== null) expect(store.driver.changeStamp()).not.toBe(before);
        expect((await ids(ann))[0]).toEqual([theirs, null]);
        expect(await ids(eve)).toEqual([]);
      } finally {
        await other.close();
      }
    });

    it('reading one source: its body to those who may read it; not-yours and missing are the same null', async () => {
      const own = await store.ingestSource(ann, source('{"turns":[]}'), id(), at(1));
      const shared = await store.ingestSource(ann, source('{"s":1}', { scope: 'shared' }), id(), at(2));
      expect(await store.readSource(ann, own.row.id)).toMatchObject({ id: own.row.id, body: '{"turns":[]}' });
      expect(await store.readSource(bob, own.row.id)).toBeNull();
      expect(await store.readSource(bob, shared.row.id)).toMatchObject({ body: '{"s":1}', scope: 'shared' });
      expect(await store.readSource(eve, shared.row.id)).toBeNull();
      expect(await store.readSource(ann, '01ZZZZZZZZZZZZZZZZZZZZZZZZ')).toBeNull();
    });

    it('projects: alphabetical with counts, by kind, never counting what the asker may not read', async () => {
      await store.ingestSource(ann, source('a', { project: 'zeta' }), id(), at(1));
      await store.ingestSource(ann, source('b', { project: 'Alpha' }), id(), at(1));
      await store.ingestSource(ann, source('c', { project: 'alpha' }), id(), at(1));
      await store.ingestSource(ann, source('d', { project: 'alpha' }), id(), at(1));
      await store.ingestSource(ann, source('e'), id(), at(1));
      await store.ingestSource(bob, source('f', { project: 'zeta' }), id(), at(1));
      await store.ingestSource(bob, source('g', { project: 'zeta', scope: 'shared' }), id(), at(1));
      await store.ingestSource(eve, source('h', { project: 'alpha', scope: 'shared' }), id(), at(1));
      expect(await store.projects(ann)).toEqual([
        { project: 'Alpha', sources: 1 },
        { project: 'alpha', sources: 2 },
        { project: 'zeta', sources: 2 },
      ]);
      expect(await store.projects(ann, 'chat')).toEqual([]);
      expect(await store.projects(eve)).toEqual([{ project: 'alpha', sources: 1 }]);
    });

    it('notes: written, unchanged when identical, a new version when changed, refused after a person edited it', async () => {
      const input = {
        scope: 'personal' as const,
        slug: 'agent-log-codex-s1',
        title: 'demo · Codex · 2026-10-01 · Fix it',
        project: 'demo',
        body: 'v1 text',
      };
      const w1 = await store.putNote(ann, input, id(), at(1));
      expect(w1).toMatchObject({ status: 'written', created: true, note: { version: 1, author: 'machine' } });
      expect(await store.putNote(ann, input, id(), at(2))).toMatchObject({ status: 'unchanged', note: { version: 1 } });
      const w2 = await store.putNote(ann, { ...input, body: 'v2 text' }, id(), at(3));
      expect(w2).toMatchObject({ status: 'written', created: false, note: { version: 2, id: w1.note.id } });
      const edited = await store.editNote(ann, input.slug, { body: 'a person wrote this' }, at(4));
      expect(edited).toMatchObject({ version: 3, author: 'person', body: 'a person wrote this' });
      const refused = await store.putNote(ann, { ...input, body: 'v4 text' }, id(), at(5));
      expect(refused.status).toBe('refused');
      if (refused.status === 'refused') expect(refused.reason).toMatch(/person edited/);
      const versions = await store.driver.all<{ version: number; author: string }>(
        'SELECT version, author FROM note_versions WHERE note_id = ? ORDER BY version',
        [w1.note.id],
      );
      expect(versions.map((v) => [Number(v.version), v.author])).toEqual([
        [1, 'machine'],
        [2, 'machine'],
        [3, 'person'],
      ]);
      expect(await store.editNote(bob, input.slug, { body: 'not mine' }, at(6))).toBeNull();
      expect(await store.editNote(ann, 'no-such-note', { body: 'x' }, at(6))).toBeNull();
      // Slugs are per scope: Bob's own page under the same slug is his.
      expect(await store.putNote(bob, input, id(), at(7))).toMatchObject({ status: 'written', created: true });
    });

    it('notes: a title that is only an id gets one read from the note (first ask, else outcome)', async () => {
      const ask = await store.putNote(
        ann,
        {
          scope: 'personal',
          slug: 'agent-log-claude-code-a1',
          title: 'claude_code session a15fba01',
          project: 'EarthOS.world',
          body: '# Session\n\n**User:** Fix the login redirect loop\n',
        },
        id(),
        at(1),
      );
      expect(ask.note.title).toBe('EarthOS.world · Fix the login redirect loop');
      const outcome = await store.putNote(
        ann,
        {
          scope: 'personal',
          slug: 'colony-a15f',
          title: 'colonizer session a15fba01',
          project: null,
          body: 'Outcome: merged the auth fix',
        },
        id(),
        at(1),
      );
      expect(outcome.note.title).toBe('merged the auth fix');
      const kept = await store.putNote(
        ann,
        { scope: 'personal', slug: 'plain', title: 'My own title', project: null, body: 'User: something' },
        id(),
        at(1),
      );
      expect(kept.note.title).toBe('My own title');
      const edited = await store.editNote(ann, 'plain', { title: '01J9Z8K3T5V9X2B4N6M8P0RCAB' }, at(2));
      expect(edited?.title).toBe('something');
    });

    it('search: words in title or body, scope-filtered, the project filter before the limit, hostile syntax inert', async () => {
      for (let i = 0; i < 30; i++)
        await store.putNote(
          ann,
          {
            scope: 'personal',
            slug: `n${i}`,
            title: `note ${i}`,
            project: i < 25 ? 'big' : 'small',
            body: `the migration plan, part ${i}`,
          },
          id(),
          at(i),
        );
      await store.putNote(
        bob,
        { scope: 'personal', slug: 'b1', title: 'bob', project: 'small', body: 'migration secrets of bob' },
        id(),
        at(1),
      );
      await store.putNote(
        bob,
        { scope: 'shared', slug: 'b2', title: 'shared migration', project: 'small', body: 'for the team' },
        id(),
        at(1),
      );
      await store.putNote(eve, { scope: 'shared', slug: 'e1', title: 'eve', project: 'small', body: 'migration over there' }, id(), at(1));
      const small = await store.searchNotes(ann, { terms: ['migration'], project: 'small', limit: 10 });
      expect(small.map((h) => h.slug).sort()).toEqual(['b2', 'n25', 'n26', 'n27', 'n28', 'n29']);
      const limited = await store.searchNotes(ann, { terms: ['migration'], limit: 5 });
      expect(limited).toHaveLength(5);
      expect(limited.every((h) => h.slug !== 'b1' && h.slug !== 'e1')).toBe(true);
      const both = await store.searchNotes(ann, { terms: ['migration', 'part'], project: 'small', limit: 10 });
      expect(both.map((h) => h.slug).sort()).toEqual(['n25', 'n26', 'n27', 'n28', 'n29']);
      const hit = (await store.searchNotes(ann, { terms: ['plan'], project: 'small', limit: 1 }))[0];
      expect(hit).toMatchObject({ scope: 'personal', project: 'small', version: 1 });
      expect(hit?.snippet).toContain('migration plan');
      const titled = await store.searchNotes(bob, { terms: ['shared'], limit: 5 });
      expect(titled.map((h) => h.slug)).toEqual(['b2']);
      for (const hostile of ['"', 'NEAR(a b)', '*', 'a OR b', "'; DROP TABLE notes; --", ')(', '^x'])
        await expect(store.searchNotes(ann, { terms: [hostile], limit: 5 })).resolves.toBeInstanceOf(Array);
      const edited = await store.editNote(ann, 'n0', { body: 'rewritten about zebras' }, at(40));
      expect(edited?.version).toBe(2);
      expect((await store.searchNotes(ann, { terms: ['zebras'], limit: 5 })).map((h) => h.slug)).toEqual(['n0']);
      expect((await store.searchNotes(ann, { terms: ['migration'], project: 'big', limit: 50 })).map((h) => h.slug)).not.toContain('n0');
    });

    it('driver errors are wrapped with their SQL, and their message says nothing of it', async () => {
      const error = await store.driver.all('SELEKT nonsense FROM nowhere').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HubQueryError);
      const q = error as HubQueryError;
      expect(q.sql).toBe('SELEKT nonsense FROM nowhere');
      expect(q.message).not.toContain('SELEKT');
      expect(q.detail).toContain('SELEKT');
      expect(q.cause).toBeDefined();
    });
  });
}
