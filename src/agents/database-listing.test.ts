// Discovery of the readers whose sessions live in a SQLite database (Goose, Crush, OpenCode) through
// the scan's discovery cache: an unchanged database is listed from memory without being opened, and
// one that gained a session, through its write-ahead log or checkpointed into the main file, is
// listed afresh. Goose's legacy headers likewise. The cache's own counts tell a listing served from
// memory (a hit: the database was not opened) from one made afresh (a miss: it was).
import Database from 'better-sqlite3';
import { mkdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withWriter } from '../../test/support/sqlite.js';
import { tempDir } from '../../test/support/temp.js';
import { uncachedFs } from '../fs/dir-listing.js';
import { DiscoveryCache } from '../scan/discovery-cache.js';
import { createCrushReader } from './crush/reader.js';
import { insertCrushSessions, writeCrushProject, user as crushUser } from './crush/test-support/fixtures.js';
import { createGooseReader } from './goose/reader.js';
import { insertGooseSessions, writeGooseDatabase, writeLegacySession, user as gooseUser } from './goose/test-support/fixtures.js';
import { createOpencodeReader } from './opencode/reader.js';
import { insertSessions as insertOpencodeSessions, userMessage, writeDatabase } from './opencode/test-support/fixtures.js';
import { closeKeptDatabases } from './sqlite-store.js';
import type { AgentReader } from './types.js';

afterEach(closeKeptDatabases);

/** A clock a minute ahead: every file the test writes is already past the racy window. */
const later = () => Date.now() + 60_000;
const t0 = 1_790_000_000;

interface DatabaseAgent {
  name: string;
  reader: AgentReader;
  /** A home holding one database with session `first`. */
  setUp(root: string): Promise<{ home: string; database: string }>;
  /**
   * Adds session `id` as the running agent does, through a connection of its own: into the
   * write-ahead log, merged into the database when the last connection closes.
   */
  add(database: string, id: string): void;
}

const gooseSession = (id: string) => ({
  id,
  name: id,
  workingDir: `/work/${id}`,
  createdAt: '2026-09-21 14:13:20',
  messages: [gooseUser(`${id}-m1`, t0, 'hello')],
});
const crushSession = (id: string) => ({ id, title: id, at: t0, messages: [crushUser(`${id}-m1`, t0, 'hello')] });
const opencodeSession = (id: string) => ({
  id,
  directory: `/work/${id}`,
  title: id,
  created: t0 * 1000,
  updated: t0 * 1000,
  messages: [userMessage(`msg_${id}`, t0 * 1000, 'hello')],
});

const agents: DatabaseAgent[] = [
  {
    name: 'Goose',
    reader: createGooseReader(),
    setUp: async (root) => {
      const home = join(root, 'goose');
      return { home, database: await writeGooseDatabase(home, [gooseSession('first')]) };
    },
    add: (database, id) => withWriter(database, (db) => insertGooseSessions(db, [gooseSession(id)])),
  },
  {
    name: 'Crush',
    reader: createCrushReader(),
    setUp: async (root) => {
      const home = join(root, 'crush');
      return { home, database: await writeCrushProject(home, join(root, 'project'), [crushSession('first')]) };
    },
    add: (database, id) => withWriter(database, (db) => insertCrushSessions(db, [crushSession(id)])),
  },
  {
    name: 'OpenCode',
    reader: createOpencodeReader(),
    setUp: async (root) => {
      const home = join(root, 'opencode');
      await mkdir(home, { recursive: true });
      const database = join(home, 'opencode.db');
      writeDatabase(database, [opencodeSession('first')]);
      return { home, database };
    },
    add: (database, id) => withWriter(database, (db) => insertOpencodeSessions(db, [opencodeSession(id)])),
  },
];

/** One discovery through a discovery cache saved at `cachePath`, as one scan runs it. */
async function discoverCached(reader: AgentReader, home: string, cachePath: string) {
  const cache = await DiscoveryCache.open(cachePath, 't', later);
  const found = await reader.discover(home, cache);
  await cache.save();
  closeKeptDatabases();
  return { found, stats: cache.stats };
}

const ids = (found: { sessions: { sessionId: string }[] }) => found.sessions.map((s) => s.sessionId).sort();

describe.each(agents)('$name discovery through the discovery cache', (agent) => {
  it('lists an unchanged database from memory without opening it', async () => {
    const root = await tempDir();
    const { home } = await agent.setUp(root);
    const cachePath = join(root, 'cache.json');
    const first = await discoverCached(agent.reader, home, cachePath);
    expect(first.found.problems).toEqual([]);
    expect(ids(first.found)).toEqual([expect.stringContaining('first')]);
    expect(first.stats).toMatchObject({ factHits: 0, factMisses: 1 });

    const again = await discoverCached(agent.reader, home, cachePath);
    expect(again.stats).toMatchObject({ factHits: 1, factMisses: 0 });
    expect(again.found).toEqual(first.found);
    expect(again.found).toEqual(await agent.reader.discover(home, uncachedFs));
  });

  it('lists a session written to the write-ahead log while the database file itself is unchanged', async () => {
    const root = await tempDir();
    const { home, database } = await agent.setUp(root);
    const cachePath = join(root, 'cache.json');
    await discoverCached(agent.reader, home, cachePath);

    // Another connection holds the database open, as the running agent does: the log is not merged.
    const bystander = new Database(database, { readonly: true });
    try {
      // A read attaches it to the log's index, which is what keeps the writer from merging on close.
      bystander.prepare('SELECT count(*) FROM sqlite_master').get();
      const before = await stat(database);
      agent.add(database, 'second');
      const after = await stat(database);
      expect([after.size, after.mtimeMs, after.ctimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ctimeMs, before.ino]);
      expect((await stat(`${database}-wal`)).size).toBeGreaterThan(0);

      const again = await discoverCached(agent.reader, home, cachePath);
      expect(again.stats).toMatchObject({ factHits: 0, factMisses: 1 });
      expect(ids(again.found)).toEqual([expect.stringContaining('first'), expect.stringContaining('second')].sort());
      expect(again.found).toEqual(await agent.reader.discover(home, uncachedFs));
    } finally {
      bystander.close();
    }
  });

  it('lists a session checkpointed into the database file, its mtime put back', async () => {
    const root = await tempDir();
    const { home, database } = await agent.setUp(root);
    const cachePath = join(root, 'cache.json');
    await discoverCached(agent.reader, home, cachePath);

    const before = await stat(database);
    agent.add(database, 'second');
    // The last connection closed: the log was merged into the database and left empty or removed.
    expect((await stat(`${database}-wal`).catch(() => ({ size: 0 }))).size).toBe(0);
    await utimes(database, before.atime, before.mtime);

    const again = await discoverCached(agent.reader, home, cachePath);
    expect(again.stats).toMatchObject({ factHits: 0, factMisses: 1 });
    expect(ids(again.found)).toEqual([expect.stringContaining('first'), expect.stringContaining('second')].sort());
    expect(again.found).toEqual(await agent.reader.discover(home, uncachedFs));
  });
});

describe('Goose legacy sessions through the discovery cache', () => {
  const legacy = (workingDir: string) => ({ ...gooseSession('20250101_1'), workingDir });

  it('reads an unchanged header once, and again once the file changed', async () => {
    const root = await tempDir();
    const home = join(root, 'goose');
    const path = await writeLegacySession(home, legacy('/work/one'));
    const cachePath = join(root, 'cache.json');
    const reader: AgentReader = createGooseReader();
    const cwds = (found: { sessions: { cwd?: string }[] }) => found.sessions.map((s) => s.cwd);
    const first = await discoverCached(reader, home, cachePath);
    expect(cwds(first.found)).toEqual(['/work/one']);
    const again = await discoverCached(reader, home, cachePath);
    expect(again.stats).toMatchObject({ factHits: 1, factMisses: 0 });
    expect(again.found).toEqual(first.found);

    // The same size and mtime, another working directory: the file's ctime moved.
    const before = await stat(path);
    await writeLegacySession(home, legacy('/work/two'));
    await utimes(path, before.atime, before.mtime);
    const changed = await discoverCached(reader, home, cachePath);
    expect(changed.stats).toMatchObject({ factHits: 0, factMisses: 1 });
    expect(cwds(changed.found)).toEqual(['/work/two']);
    expect(changed.found).toEqual(await reader.discover(home, uncachedFs));
  });

  it('answers a header that is not one as the disk does', async () => {
    const root = await tempDir();
    const home = join(root, 'goose');
    await mkdir(join(home, 'sessions'), { recursive: true });
    await writeFile(join(home, 'sessions', '20250101_2.jsonl'), '{"role":"user"}\n');
    const cachePath = join(root, 'cache.json');
    const reader: AgentReader = createGooseReader();
    await discoverCached(reader, home, cachePath);
    const again = await discoverCached(reader, home, cachePath);
    expect(again.stats.factHits).toBe(1);
    expect(again.found).toEqual(await reader.discover(home, uncachedFs));
  });
});
