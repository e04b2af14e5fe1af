import { appendFile, chmod, mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import type { DiscoveredSession } from '../agents/types.js';
import { indexedById, readSessionIndex, sessionIndexPath, writeSessionIndex } from './session-index.js';

describe('the session index', () => {
  it('is left alone when a scan finds the same sessions in another order', async () => {
    const root = await tempDir();
    const state = join(root, 'state');
    const projects = ['b', 'a'].map((p) => join(root, p));
    const sessions: { session: DiscoveredSession; key: string }[] = [];
    for (const home of projects) {
      await mkdir(join(home, '.aider'), { recursive: true });
      const path = join(home, '.aider', 'chat.md');
      await writeFile(path, '# chat\n');
      const session: DiscoveredSession = { agent: 'aider', sessionId: home, home, path, files: [{ path, size: 7, mtimeMs: 1 }] };
      sessions.push({ session, key: `k-${home}` });
    }
    const roots = projects.map((path) => ({ agent: 'aider', path }));
    // Folders written a moment ago are racy (not trusted): the clock says it is a day later.
    const later = () => Date.now() + 86_400_000;
    expect(await writeSessionIndex(state, 't', roots, sessions, later)).toBeNull();
    const first = await stat(sessionIndexPath(state));
    expect(await writeSessionIndex(state, 't', [...roots].reverse(), [...sessions].reverse(), later)).toBeNull();
    const second = await stat(sessionIndexPath(state));
    expect({ ino: second.ino, mtimeMs: second.mtimeMs }).toEqual({ ino: first.ino, mtimeMs: first.mtimeMs });
  });

  it('holds while a shared database file is only opened (its ctime moves), not once it grows', async () => {
    const root = await tempDir();
    const state = join(root, 'state');
    const home = join(root, 'db');
    await mkdir(home, { recursive: true });
    // Two sessions read from one file, as from a database and its write-ahead log.
    const shared = join(home, 'store.db-wal');
    await writeFile(shared, '');
    const sessions = ['one', 'two'].map((id) => {
      const session: DiscoveredSession = {
        agent: 'goose',
        sessionId: id,
        home,
        path: `${shared}#${id}`,
        files: [{ path: shared, size: 0, mtimeMs: 1 }],
      };
      return { session, key: `k-${id}` };
    });
    const later = () => Date.now() + 86_400_000;
    await writeSessionIndex(state, 't', [{ agent: 'goose', path: home }], sessions, later);
    // SQLite's read-only open and close of an empty log leaves its size and mtime, and moves its ctime.
    const before = await stat(shared);
    await chmod(shared, before.mode);
    expect((await stat(shared)).ctimeMs).not.toBe(before.ctimeMs);
    expect(readSessionIndex(state, 't')?.unchanged()).toBe(true);
    await appendFile(shared, 'a new session');
    expect(readSessionIndex(state, 't')?.unchanged()).toBe(false);
  });
});

describe('the session index digest', () => {
  const later = () => Date.now() + 86_400_000;
  async function home(): Promise<{ state: string; root: string; sessions: { session: DiscoveredSession; key: string }[] }> {
    const root = await tempDir();
    await mkdir(join(root, 'h', 's'), { recursive: true });
    const path = join(root, 'h', 's', 'one.jsonl');
    await writeFile(path, '{}\n');
    // Folders changed long ago: a lookup trusts their mtimes (one changed a moment ago is racy).
    for (const dir of [join(root, 'h', 's'), join(root, 'h')]) await utimes(dir, 1000, 1000);
    const session: DiscoveredSession = {
      agent: 'codex',
      sessionId: 'one',
      home: join(root, 'h'),
      path,
      files: [{ path, size: 3, mtimeMs: 1 }],
    };
    return { state: join(root, 'state'), root, sessions: [{ session, key: 'k1' }] };
  }
  const roots = (root: string) => [{ agent: 'codex', path: join(root, 'h') }];

  it('rewrites the index for a new session or a new key, and leaves it alone otherwise', async () => {
    const { state, root, sessions } = await home();
    await writeSessionIndex(state, 't', roots(root), sessions, later);
    const first = await readFile(sessionIndexPath(state), 'utf8');
    const [one] = sessions;
    if (one === undefined) throw new Error('no session');
    await writeSessionIndex(state, 't', roots(root), [{ ...one, key: 'k2' }], later);
    expect(await readFile(sessionIndexPath(state), 'utf8')).not.toBe(first);
    expect(await readFile(sessionIndexPath(state), 'utf8')).toContain('k2');
    const two = { session: { ...one.session, sessionId: 'two', path: join(root, 'h', 's', 'two.jsonl') }, key: 'k3' };
    await writeSessionIndex(state, 't', roots(root), [{ ...one, key: 'k2' }, two], later);
    expect(await readFile(sessionIndexPath(state), 'utf8')).toContain('"two"');
  });

  it('never trusts a digest past a replaced index file: a corrupt one is rebuilt and reported', async () => {
    const { state, root, sessions } = await home();
    await writeSessionIndex(state, 't', roots(root), sessions, later);
    const good = await readFile(sessionIndexPath(state), 'utf8');
    await writeFile(sessionIndexPath(state), 'garbage');
    const problem = await writeSessionIndex(state, 't', roots(root), sessions, later);
    expect(problem?.reason).toMatch(/not an index; rebuilt/);
    expect(await readFile(sessionIndexPath(state), 'utf8')).toBe(good);
  });

  it('rebuilds a garbled digest file and records a folder a lookup found moved', async () => {
    const { state, root, sessions } = await home();
    await writeSessionIndex(state, 't', roots(root), sessions, later);
    await writeFile(join(state, 'cache', 'scan', 'ids.digest'), 'not a digest');
    expect(await writeSessionIndex(state, 't', roots(root), sessions, later)).toBeNull();
    expect(await readFile(join(state, 'cache', 'scan', 'ids.digest'), 'utf8')).toMatch(/^\S+ \d+:/);
    // A file that is no session moves the folder's mtime; the sessions and keys stay the same.
    const folder = join(root, 'h', 's');
    await utimes(folder, 2000, 2000);
    expect(readSessionIndex(state, 't')?.unchanged()).toBe(false);
    await writeSessionIndex(state, 't', roots(root), sessions, later);
    expect(readSessionIndex(state, 't')?.unchanged()).toBe(true);
  });

  it('writes no digest while a folder is racy, so the next scan records it again', async () => {
    const { state, root, sessions } = await home();
    const folder = join(root, 'h', 's');
    await utimes(folder, new Date(), new Date());
    await writeSessionIndex(state, 't', roots(root), sessions);
    await expect(stat(join(state, 'cache', 'scan', 'ids.digest'))).rejects.toThrow();
    await utimes(folder, 1000, 1000);
    await writeSessionIndex(state, 't', roots(root), sessions, later);
    expect(readSessionIndex(state, 't')?.unchanged()).toBe(true);
  });

  it('finds an exact id from its own line, whatever the id holds, and nothing from another version or a damaged line', async () => {
    const root = await tempDir();
    const state = join(root, 'state');
    const home = join(root, 'home');
    await mkdir(home, { recursive: true });
    // Ids a file name may carry: quotes, a bracket, a newline, a comma, a backslash, non-ASCII.
    const ids = ['plain-id', 'we"ird', 'new\nline', '["inside",', 'back\\slash', 'ünï'];
    const sessions = ids.map((id, i) => {
      const path = join(home, `${i}.jsonl`);
      const session: DiscoveredSession = { agent: 'pi', sessionId: id, home, path, files: [{ path, size: 1, mtimeMs: 1 }] };
      return { session, key: `k${i}` };
    });
    // The same id under a second agent: both are answers (the caller then walks, as with any two).
    const twin = join(home, 'twin.jsonl');
    sessions.push({ session: { agent: 'kimi', sessionId: 'plain-id', home, path: twin, files: [] }, key: 'k-twin' });
    const later = () => Date.now() + 86_400_000;
    const roots = [
      { agent: 'pi', path: home },
      { agent: 'kimi', path: home },
    ];
    expect(await writeSessionIndex(state, 't', roots, sessions, later)).toBeNull();
    // Still one JSON document: the whole-index read (prefixes) parses it as before.
    expect(readSessionIndex(state, 't')?.sessions).toHaveLength(ids.length + 1);
    ids.forEach((id, i) => {
      if (id === 'plain-id') return;
      expect(indexedById(state, 't', id)).toEqual([{ id, agent: 'pi', path: join(home, `${i}.jsonl`), key: `k${i}` }]);
    });
    expect(indexedById(state, 't', 'plain-id')?.map((s) => s.agent)).toEqual(['pi', 'kimi']);
    // A prefix is no exact id; another reader version's index is no index.
    expect(indexedById(state, 't', 'plain')).toEqual([]);
    expect(indexedById(state, 'other', 'plain-id')).toBeNull();
    // A line damaged in place (no longer a row) answers nothing.
    const text = await readFile(sessionIndexPath(state), 'utf8');
    await writeFile(sessionIndexPath(state), text.replace('"k0"]', '"k0"}'));
    expect(indexedById(state, 't', 'plain-id')).toBeNull();
  });

  it('is rewritten by an unchanged scan when the one there is of an older layout', async () => {
    const root = await tempDir();
    const state = join(root, 'state');
    const home = join(root, 'home');
    await mkdir(home, { recursive: true });
    const path = join(home, 'one.jsonl');
    const session: DiscoveredSession = { agent: 'pi', sessionId: 'one', home, path, files: [{ path, size: 1, mtimeMs: 1 }] };
    const sessions = [{ session, key: 'k' }];
    const roots = [{ agent: 'pi', path: home }];
    const later = () => Date.now() + 86_400_000;
    await writeSessionIndex(state, 't', roots, sessions, later);
    // What an older agentlog left: the same sessions in an index of an older version, and the
    // digest file that vouches for that very file (its stamp).
    const [digest] = (await readFile(join(state, 'cache', 'scan', 'ids.digest'), 'utf8')).split(' ');
    const current = await readFile(sessionIndexPath(state), 'utf8');
    await writeFile(sessionIndexPath(state), current.replace(/^\{"version":\d+,/, '{"version":1,'));
    const st = await stat(sessionIndexPath(state));
    await writeFile(join(state, 'cache', 'scan', 'ids.digest'), `${digest} ${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`);
    expect(readSessionIndex(state, 't')).toBeNull();
    await writeSessionIndex(state, 't', roots, sessions, later);
    expect(readSessionIndex(state, 't')?.sessions.map((s) => s.id)).toEqual(['one']);
  });
});
