// Reading an agent's SQLite store: read-only with a busy timeout, closed soon after the last read, and
// a failure (locked, corrupt, not a database) turned into an `unreadable` problem saying what to do. Shared
// by the readers whose sessions live in a database (Crush, Goose, OpenCode); better-sqlite3 loads
// only when a database is read.
import { type Stats, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { DiscoveryFs } from '../fs/dir-listing.js';
import { readExact } from '../fs/read-exact.js';
import { notRegularFile, openRegular } from '../fs/read-open.js';
import { statFileSync } from '../fs/stat.js';
import { errorCode, errorMessage } from '../fs/errors.js';
import { asObject, type JsonObject } from '../json/narrow.js';
import type { FileProblem, SessionFile } from './types.js';

/** How long a read waits for a writer's lock before the database is reported unreadable. */
export const defaultBusyTimeoutMs = 2000;

const sqliteHeader = Buffer.from('SQLite format 3\0', 'latin1');

/** True when the file starts with SQLite's magic header (a claim checks before opening). */
export async function looksLikeSqlite(path: string): Promise<boolean> {
  const { handle } = await openRegular(path);
  try {
    const head = Buffer.alloc(16);
    return (await readExact(handle.fd, head, 16, 0)) === 16 && head.equals(sqliteHeader);
  } finally {
    await handle.close();
  }
}

/**
 * How long a connection stays open after its last read. A scan reads every session of each database,
 * and opening it and preparing the statements cost about as much as reading a small session (Crush's
 * 98 sessions in 13 databases: ~25% of the read); an idle one is closed soon after, so a
 * long-running server holds no database it is not reading.
 */
const idleCloseMs = 1000;
/**
 * Connections kept open at most. A scan takes sessions largest first, so it moves between all of an
 * agent's databases: fewer kept than databases and each read would find its connection evicted.
 */
const keptAtMost = 32;

interface KeptConnection {
  db: BetterSqlite3.Database;
  /** The file the connection has open: a database replaced under the same path gets a new one. */
  dev: number;
  ino: number;
  timeoutMs: number;
  timer: NodeJS.Timeout | undefined;
}

/** Open connections by path, least recently used first. */
const kept = new Map<string, KeptConnection>();
const statements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

function closeKept(path: string, c: KeptConnection): void {
  clearTimeout(c.timer);
  if (kept.get(path) === c) kept.delete(path);
  c.db.close();
}

/** Closes every connection kept open (before a test removes its databases, or at a clean exit). */
export function closeKeptDatabases(): void {
  for (const [path, c] of [...kept]) closeKept(path, c);
}

/** The kept connection to the file `st` describes, or a new one. Synchronous: nothing else runs between this and the read. */
function connection(Database: typeof BetterSqlite3, path: string, st: Stats, busyTimeoutMs: number): KeptConnection {
  const open = kept.get(path);
  if (open !== undefined) {
    kept.delete(path);
    if (open.dev === st.dev && open.ino === st.ino && open.timeoutMs === busyTimeoutMs) {
      clearTimeout(open.timer);
      kept.set(path, open);
      return open;
    }
    open.db.close();
    clearTimeout(open.timer);
  }
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  // A scan or a keep reads each session's pages once, so a kept connection's page cache only grows,
  // up to better-sqlite3's 16 MB a connection: OpenCode's was ~18 MB of a cold scan's peak RSS on the
  // bench home (137 → 155 MB); a first keep of Crush's 13 databases peaked at 243 MiB (181 with this).
  // SQLite's own default of 2 MB keeps the tables' inner pages; the OS keeps the file's.
  db.pragma('cache_size = -2000');
  const c: KeptConnection = { db, dev: st.dev, ino: st.ino, timeoutMs: busyTimeoutMs, timer: undefined };
  kept.set(path, c);
  for (const [oldest, old] of kept) {
    if (kept.size <= keptAtMost) break;
    closeKept(oldest, old);
  }
  return c;
}

let databaseClass: typeof BetterSqlite3 | undefined;

/**
 * better-sqlite3's class, loaded on first use with `require`: an `import()` of the CommonJS module
 * went through the ES loader's source read and export scan (~6 ms of an unchanged scan) and an
 * await for every database read after it.
 */
export function sqliteDatabase(): typeof BetterSqlite3 {
  if (databaseClass === undefined) {
    const loaded: unknown = createRequire(import.meta.url)('better-sqlite3');
    if (typeof loaded !== 'function') throw new Error('better-sqlite3 did not load as a class');
    databaseClass = loaded as typeof BetterSqlite3;
  }
  return databaseClass;
}

/**
 * Runs `read` on a read-only connection with a busy timeout. The connection is kept open a moment
 * for the next read of the same database (`idleCloseMs`), and closed at once when a read fails.
 * Throws what better-sqlite3 throws.
 */
export async function withReadOnlyDatabase<T>(path: string, busyTimeoutMs: number, read: (db: BetterSqlite3.Database) => T): Promise<T> {
  // SQLite opens without O_NONBLOCK: a FIFO named like a database would block it forever. A
  // synchronous stat: a scan reads every session of a database through here, and the thread-pool
  // round trip of an asynchronous one cost more than the call.
  const st = statSync(path);
  if (!st.isFile()) throw notRegularFile(path, st);
  const c = connection(sqliteDatabase(), path, st, busyTimeoutMs);
  try {
    const result = read(c.db);
    c.timer = setTimeout(() => closeKept(path, c), idleCloseMs);
    c.timer.unref();
    return result;
  } catch (error) {
    closeKept(path, c);
    throw error;
  }
}

/** `db.prepare(sql)`, prepared once per connection: a kept connection reads many sessions. */
export function prepared(db: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  let byText = statements.get(db);
  if (byText === undefined) {
    byText = new Map();
    statements.set(db, byText);
  }
  let s = byText.get(sql);
  if (s === undefined) {
    s = db.prepare(sql);
    byText.set(sql, s);
  }
  return s;
}

/** Rows as JSON objects (better-sqlite3 answers `unknown[]`). */
export function rowsOf(values: readonly unknown[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const v of values) {
    const row = asObject(v);
    if (row !== undefined) out.push(row);
  }
  return out;
}

/** The columns a table has (empty when it does not exist): stores of several schema versions differ. */
export function columnsOf(db: BetterSqlite3.Database, table: string): Set<string> {
  const rows = rowsOf(db.prepare('SELECT name FROM pragma_table_info(?)').all(table));
  return new Set(rows.map((r) => String(r.name)));
}

const selectLists = new WeakMap<BetterSqlite3.Database, Map<string, string>>();

/**
 * The select list of every column `table` has with `column` read through `expression` (aliased back
 * to its name), kept per connection: a reader cuts a large JSON column in SQLite while the other
 * columns, which differ between schema versions, come as they are. `*` when the table has no such column.
 */
export function columnsWith(db: BetterSqlite3.Database, table: string, column: string, expression: string): string {
  let lists = selectLists.get(db);
  if (lists === undefined) {
    lists = new Map();
    selectLists.set(db, lists);
  }
  const key = `${table}\u0000${column}\u0000${expression}`;
  let list = lists.get(key);
  if (list === undefined) {
    const columns = columnsOf(db, table);
    const quote = (c: string): string => `"${c.replaceAll('"', '""')}"`;
    list = columns.has(column) ? [...columns].map((c) => (c === column ? `${expression} AS ${quote(c)}` : quote(c))).join(', ') : '*';
    lists.set(key, list);
  }
  return list;
}

/** The problem a failed database read becomes, with what to do about it. */
export function databaseProblem(path: string, error: unknown, agent: string): FileProblem {
  const code = errorCode(error) ?? '';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return {
      path,
      kind: 'unreadable',
      reason: `database is locked by a running ${agent} (${errorMessage(error)}); scan again when it is idle`,
    };
  }
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return { path, kind: 'unreadable', reason: `not a readable SQLite database (${errorMessage(error)})` };
  }
  return { path, kind: 'unreadable', reason: `cannot read the ${agent} database: ${errorMessage(error)}` };
}

/** What discovery keeps of a database's session row: its id, the session it nests in, where it ran. */
export interface ListedRow {
  id: string;
  parentId?: string;
  cwd?: string;
}

/** A listing `listedRows` remembered, checked by hand (no schema: it is read for every database of every scan). */
function decodeListedRows(value: unknown): ListedRow[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const rows: unknown[] = value;
  for (const r of rows) {
    const row = asObject(r);
    if (row === undefined || typeof row.id !== 'string') return undefined;
    if ((row.parentId !== undefined && typeof row.parentId !== 'string') || (row.cwd !== undefined && typeof row.cwd !== 'string'))
      return undefined;
  }
  return rows as ListedRow[];
}

/**
 * The sessions `list` reads from `database`, remembered by `fs` under `kind` while the
 * database, its write-ahead log and its rollback journal are each unchanged: what a database holds
 * is all three (a commit in WAL mode writes only the log), so an unchanged home opens no database
 * to list it. Throws what `list` throws (nothing is remembered then).
 */
export function listedRows(
  fs: DiscoveryFs,
  database: string | SessionFile,
  kind: string,
  list: () => Promise<ListedRow[]>,
): Promise<ListedRow[]> {
  const path = typeof database === 'string' ? database : database.path;
  return fs.derive(database, kind, decodeListedRows, list, [`${path}-wal`, `${path}-journal`]);
}

/** The database's files: the database and its write-ahead log, whose growth is the change. */
export async function databaseFiles(path: string): Promise<SessionFile[]> {
  // Synchronous stats: two awaited round trips through the thread pool per database left the scan idle.
  return [statFileSync(path), statFileSync(`${path}-wal`)].filter((f): f is SessionFile => f !== null);
}

/** How a database session is named where a path is expected: `<database>#<session id>`. */
export function rowLocator(database: string, sessionId: string): string {
  return `${database}#${sessionId}`;
}

/** Splits `<…/name.db>#<id>` when the database is named `fileName`; undefined otherwise. */
export function parseRowLocator(path: string, fileName: string): { database: string; sessionId: string } | undefined {
  const hash = path.lastIndexOf('#');
  if (hash <= 0) return undefined;
  const database = path.slice(0, hash);
  const sessionId = path.slice(hash + 1);
  if (!database.endsWith(`/${fileName}`) || sessionId === '' || sessionId.includes('/')) return undefined;
  return { database, sessionId };
}
