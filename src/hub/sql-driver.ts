// What the shared SQL store needs from a database driver: run a statement, read rows, run a
// transaction. Each driver folder implements it in a few lines; every driver error is wrapped
// here once, with its SQL, as a `HubQueryError` (the SQL goes to the hub's log, never to a client).
import { AgentlogError, reason } from '../errors.js';
import type { Dialect } from './store.js';

export type SqlValue = string | number | null;

export interface SqlRunner {
  /** Rows of a query; `?` placeholders in order (the PostgreSQL driver numbers them). */
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** A statement's count of changed rows. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

export interface SqlDriver extends SqlRunner {
  readonly dialect: Dialect;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in a transaction that holds the database's migration lock (SQLite `BEGIN IMMEDIATE`,
   * PostgreSQL an advisory transaction lock), so two processes starting at once migrate one after
   * the other. `exec` runs a whole SQL file (several statements).
   */
  migrationTransaction<T>(fn: (tx: SqlRunner & { exec(sql: string): Promise<void> }) => Promise<T>): Promise<T>;
  /**
   * A value that moves whenever a commit (by this process or any other) may have changed what a
   * read returns, read before the read it vouches for; null when the driver cannot tell (PostgreSQL:
   * other hub processes commit without telling this one) or a transaction is open, and then
   * nothing read may be kept.
   */
  changeStamp(): string | null;
  close(): Promise<void>;
}

/** A database error, with the statement that met it. Its message is generic: clients see only that. */
export class HubQueryError extends AgentlogError<'HubQueryFailed'> {
  constructor(
    readonly sql: string,
    cause: unknown,
  ) {
    super('HubQueryFailed', 'failed', "the hub's database failed to answer (the hub's log has the details)", { cause });
    this.name = 'HubQueryError';
  }

  /** For the log: the driver's own message and the statement, on one line. */
  get detail(): string {
    return `${reason(this.cause)} (SQL: ${this.sql.replace(/\s+/g, ' ').trim().slice(0, 500)})`;
  }
}

/** Runs a driver call, wrapping what it throws with the SQL it was running. */
export async function wrapQuery<T>(sql: string, call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HubQueryError || error instanceof AgentlogError) throw error;
    throw new HubQueryError(sql, error);
  }
}

/** Whether the driver error is a unique-key violation (SQLite SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY, PostgreSQL 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const cause = error instanceof HubQueryError ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
