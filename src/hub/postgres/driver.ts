// The PostgreSQL driver (pg) under the shared SQL store: a pool shared by the hub's requests, `?`
// placeholders numbered on the way in, a transaction on one pooled client, and migrations behind
// an advisory transaction lock so hub processes starting together migrate one after the other.
import pg from 'pg';
import { type SqlDriver, type SqlRunner, type SqlValue, wrapQuery } from '../sql-driver.js';

export interface PostgresOptions {
  /** `postgres://user@host:port/db` (an `options=-c search_path=…` parameter is honoured). */
  connectionString: string;
  /** A schema to work in (created when missing); tests use one per run. */
  schema?: string;
  /** Pool size (default 10). */
  max?: number;
}

/** The advisory lock key of hub migrations (any constant; "agentlog" in ASCII, folded to 32 bits). */
const migrationLockKey = 0x61676c68;

/** A statement as pg runs it: placeholders numbered, and a name so each pooled connection parses and plans it once. */
interface Prepared {
  name: string | undefined;
  text: string;
}

const prepared = new Map<string, Prepared>();
/**
 * Statements past this many distinct texts run unnamed (parsed and planned on every call): the
 * texts are the store's own, but `IN (?, ?, …)` lists vary in length, and a server-side prepared
 * statement lives as long as its connection.
 */
const namedLimit = 200;

/** `?` → `$1, $2…` (the shared SQL never has a `?` inside a literal), named while there are few. */
function prepare(sql: string): Prepared {
  let out = prepared.get(sql);
  if (out === undefined) {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    out = { name: prepared.size < namedLimit ? `agentlog_${prepared.size}` : undefined, text };
    if (prepared.size < 2 * namedLimit) prepared.set(sql, out);
  }
  return out;
}

/** A listing answers with two round trips (the token, the page); parsing and planning each again cost as much as running it. */
function query(client: pg.Pool | pg.PoolClient, sql: string, params: readonly SqlValue[]): Promise<pg.QueryResult> {
  const { name, text } = prepare(sql);
  return client.query(name === undefined ? { text, values: params as SqlValue[] } : { name, text, values: params as SqlValue[] });
}

function runnerOn(client: pg.Pool | pg.PoolClient): SqlRunner {
  return {
    all: <T>(sql: string, params: readonly SqlValue[] = []) => wrapQuery(sql, async () => (await query(client, sql, params)).rows as T[]),
    run: (sql: string, params: readonly SqlValue[] = []) => wrapQuery(sql, async () => (await query(client, sql, params)).rowCount ?? 0),
  };
}

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

export class PostgresDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly runner: SqlRunner;

  constructor(opts: PostgresOptions) {
    const schema = opts.schema;
    this.pool = new pg.Pool({
      connectionString: opts.connectionString,
      max: opts.max ?? 10,
      ...(schema !== undefined ? { options: `-c search_path=${quoteIdent(schema)}` } : {}),
    });
    // An idle client that loses its server (a restart) must not take the process down.
    this.pool.on('error', () => undefined);
    this.runner = runnerOn(this.pool);
  }

  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.runner.all<T>(sql, params);
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.runner.run(sql, params);
  }

  private async onClient<T, R extends SqlRunner>(fn: (tx: R) => Promise<T>, make: (c: pg.PoolClient) => R, first?: string): Promise<T> {
    const client = await wrapQuery('connect', () => this.pool.connect());
    let broken = false;
    try {
      await wrapQuery('BEGIN', () => client.query('BEGIN'));
      if (first !== undefined) await wrapQuery(first, () => client.query(first));
      const out = await fn(make(client));
      await wrapQuery('COMMIT', () => client.query('COMMIT'));
      return out;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return this.onClient(fn, runnerOn);
  }

  migrationTransaction<T>(fn: (tx: SqlRunner & { exec(sql: string): Promise<void> }) => Promise<T>): Promise<T> {
    return this.onClient(
      fn,
      (c) => ({ ...runnerOn(c), exec: (sql: string) => wrapQuery(sql, async () => void (await c.query(sql))) }),
      `SELECT pg_advisory_xact_lock(${migrationLockKey})`,
    );
  }

  changeStamp(): null {
    return null;
  }

  /** Creates the schema when missing (outside the migration, which runs inside it). */
  async ensureSchema(schema: string): Promise<void> {
    const sql = `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`;
    await wrapQuery(sql, () => this.pool.query(sql));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
