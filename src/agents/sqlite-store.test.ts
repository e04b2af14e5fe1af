// The shared read-only connection: kept open between reads of one database, yet never reading a
// database that was replaced under the same path, nor one whose read failed.
import Database from 'better-sqlite3';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { closeKeptDatabases, prepared, withReadOnlyDatabase } from './sqlite-store.js';

function writeDatabase(path: string, value: string): void {
  const db = new Database(path);
  db.exec('CREATE TABLE t (v TEXT)');
  db.prepare('INSERT INTO t VALUES (?)').run(value);
  db.close();
}

/** A database holding one value, read once (so a connection to it is kept open). */
async function readOnce(value: string): Promise<{ dir: string; path: string }> {
  const dir = await tempDir();
  const path = join(dir, 'a.db');
  writeDatabase(path, value);
  expect(await readValues(path)).toEqual([value]);
  return { dir, path };
}

const readValues = (path: string): Promise<unknown[]> =>
  withReadOnlyDatabase(path, 100, (db) =>
    prepared(db, 'SELECT v FROM t')
      .all()
      .map((r) => (r as { v: unknown }).v),
  );

describe('withReadOnlyDatabase', () => {
  afterEach(() => closeKeptDatabases());

  it("bounds a kept connection's page cache to SQLite's 2 MB, not better-sqlite3's 16 MB", async () => {
    // A scan or keep reads each page once: a larger cache only grows, one per kept database.
    const { path } = await readOnce('v');
    expect(await withReadOnlyDatabase(path, 100, (db) => db.pragma('cache_size', { simple: true }))).toBe(-2000);
  });

  it('reads the rows a writer committed after the previous read of the same database', async () => {
    const { path } = await readOnce('first');
    const writer = new Database(path);
    writer.prepare('INSERT INTO t VALUES (?)').run('second');
    writer.close();
    expect(await readValues(path)).toEqual(['first', 'second']);
  });

  it('reads the new database when another file is moved over the path', async () => {
    const { dir, path } = await readOnce('old');
    writeDatabase(join(dir, 'b.db'), 'new');
    await rename(join(dir, 'b.db'), path);
    expect(await readValues(path)).toEqual(['new']);
  });

  it('throws while a writer holds the database locked and reads again once it lets go', async () => {
    const { path } = await readOnce('v');
    const writer = new Database(path);
    writer.exec('BEGIN EXCLUSIVE');
    await expect(readValues(path)).rejects.toThrow(/locked|busy/i);
    writer.exec('COMMIT');
    writer.close();
    expect(await readValues(path)).toEqual(['v']);
  });
});
