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

const readValues = (path: string): Promise<unknown[]> =>
  withReadOnlyDatabase(path, 100, (db) => prepared(db, 'SELECT v FROM t').all().map((r) => (r as { v: unknown }).v));

describe('withReadOnlyDatabase', () => {
  afterEach(() => closeKeptDatabases());

  it('reads the rows a writer committed after the previous read of the same database', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.db');
    writeDatabase(path, 'first');
    expect(await readValues(path)).toEqual(['first']);
    const writer = new Database(path);
    writer.prepare('INSERT INTO t VALUES (?)').run('second');
    writer.close();
    expect(await readValues(path)).toEqual(['first', 'second']);
  });

  it('reads the new database when another file is moved over the path', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.db');
    writeDatabase(path, 'old');
    expect(await readValues(path)).toEqual(['old']);
    writeDatabase(join(dir, 'b.db'), 'new');
    await rename(join(dir, 'b.db'), path);
    expect(await readValues(path)).toEqual(['new']);
  });

  it('throws while a writer holds the database locked and reads again once it lets go', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.db');
    writeDatabase(path, 'v');
    expect(await readValues(path)).toEqual(['v']);
    const writer = new Database(path);
    writer.exec('BEGIN EXCLUSIVE');
    await expect(readValues(path)).rejects.toThrow(/locked|busy/i);
    writer.exec('COMMIT');
    writer.close();
    expect(await readValues(path)).toEqual(['v']);
  });
});
