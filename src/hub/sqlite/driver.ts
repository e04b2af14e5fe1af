// The SQLite driver (better-sqlite3) under the shared SQL store. better-sqlite3 is synchronous, so
// one connection serves every request; a transaction holds a queue so no other request's statement
// runs inside it while it awaits. WAL and a busy timeout let the CLI write while a hub serves.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type SqlDriver, type SqlRunner, type SqlValue, wrapQuery } from '../sql-driver.js';

type Statement = Database.Statement<unknown[], unknown>;

export interface SqliteOptions {
  /** How long a writer waits for another process's write lock (ms). */
  busyTimeoutMs?: number;
}

/** One-at-a-time: a transaction's statements never interleave with another request's. */
class Queue {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

export class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Statement>();
  private readonly queue = new Queue();
  private busy = 0;
  /** Commits (and rollbacks) on this connection: `PRAGMA data_version` counts only other connections'. */
  private writes = 0;
  private readonly dataVersion: Database.Statement<unknown[], number>;
  private readonly waitMs: number;

  constructor(path: string, opts: SqliteOptions = {}) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.db = new Database(path);
    this.waitMs = opts.busyTimeoutMs ?? 10_000;
    // A short synchronous wait for reads; a writer waiting for another's write lock waits
    // asynchronously (`begin`), so the event loop (and this process's own transaction) keeps going.
    this.db.pragma('busy_timeout = 20');
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.dataVersion = this.db.prepare<unknown[], number>('PRAGMA data_version').pluck();
  }

  private prepare(sql: string): Statement {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  private readonly direct: SqlRunner = {
    all: <T>(sql: string, params: readonly SqlValue[] = []) =>
      wrapQuery(sql, () => {
        const statement = this.prepare(sql);
        if (!statement.readonly) this.writes++;
        return statement.all(...params) as T[];
      }),
    run: (sql: string, params: readonly SqlValue[] = []) =>
      wrapQuery(sql, () => {
        this.writes++;
        return this.prepare(sql).run(...params).changes;
      }),
  };

  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    // Outside a transaction a statement runs at once; during one it waits its turn.
    return this.busy === 0 ? this.direct.all<T>(sql, params) : this.queue.run(() => this.direct.all<T>(sql, params));
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.busy === 0 ? this.direct.run(sql, params) : this.queue.run(() => this.direct.run(sql, params));
  }

  private inTransaction<T, R extends SqlRunner>(begin: string, runner: R, fn: (tx: R) => Promise<T>): Promise<T> {
    this.busy++;
    return this.queue
      .run(async () => {
        await this.begin(begin);
        try {
          const out = await fn(runner);
          await wrapQuery('COMMIT', () => this.db.exec('COMMIT'));
          return out;
        } catch (error) {
          if (this.db.inTransaction) this.db.exec('ROLLBACK');
          throw error;
        }
      })
      .finally(() => {
        this.writes++;
        this.busy--;
      });
  }

  /** `BEGIN IMMEDIATE`, retried while another connection holds the write lock, up to the busy timeout. */
  private async begin(sql: string): Promise<void> {
    const until = Date.now() + this.waitMs;
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      try {
        this.db.exec(sql);
        return;
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= until) return wrapQuery(sql, () => Promise.reject(error));
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
    // IMMEDIATE: take the write lock at the start, so a read-then-write never fails half way on SQLITE_BUSY.
    return this.inTransaction('BEGIN IMMEDIATE', this.direct, fn);
  }

  migrationTransaction<T>(fn: (tx: SqlRunner & { exec(sql: string): Promise<void> }) => Promise<T>): Promise<T> {
    const runner = { ...this.direct, exec: (sql: string) => wrapQuery(sql, () => void this.db.exec(sql)) };
    return this.inTransaction('BEGIN IMMEDIATE', runner, fn);
  }

  changeStamp(): string | null {
    // Inside a transaction a read waits its turn and may see the transaction's own writes.
    if (this.busy > 0) return null;
    return `${this.writes}.${this.dataVersion.get()}`;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
