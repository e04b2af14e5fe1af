// Opens the hub store a database URL names and migrates it: `sqlite:PATH` (the embedded default)
// or `postgres://…` / `postgresql://…` (a `schema=NAME` parameter picks, and creates, a schema).
import { resolve } from 'node:path';
import { AgentlogError } from '../errors.js';
import type { SqlStore } from './sql-store.js';

export interface DbTarget {
  dialect: 'sqlite' | 'postgres';
  /** The SQLite file, or the PostgreSQL connection string without `schema`. */
  location: string;
  schema?: string;
}

/** Reads a `--db` value; anything else is a usage error naming the two forms. */
export function parseDbUrl(url: string): DbTarget {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '') throw new AgentlogError('HubDbUrl', 'usage', 'sqlite: needs a path (sqlite:/path/to/hub.db)');
    return { dialect: 'sqlite', location: path === ':memory:' ? path : resolve(path) };
  }
  if (/^postgres(?:ql)?:\/\//.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch (error) {
      throw new AgentlogError('HubDbUrl', 'usage', 'the postgres URL does not parse', { cause: error });
    }
    const schema = parsed.searchParams.get('schema') ?? undefined;
    if (schema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema))
      throw new AgentlogError('HubDbUrl', 'usage', 'schema= takes letters, digits and _ (at most 63)');
    parsed.searchParams.delete('schema');
    return { dialect: 'postgres', location: parsed.toString(), ...(schema !== undefined ? { schema } : {}) };
  }
  throw new AgentlogError('HubDbUrl', 'usage', 'the hub database is sqlite:PATH or postgres://user@host:port/db');
}

/** The store at `url`, migrated (waiting for another process that is migrating it). */
export async function openHubStore(url: string, now: string = new Date().toISOString()): Promise<SqlStore> {
  const target = parseDbUrl(url);
  let store: SqlStore;
  if (target.dialect === 'sqlite') {
    const { openSqliteStore } = await import('./sqlite/index.js');
    store = openSqliteStore(target.location);
  } else {
    const { openPostgresStore } = await import('./postgres/index.js');
    store = await openPostgresStore({
      connectionString: target.location,
      ...(target.schema !== undefined ? { schema: target.schema } : {}),
    });
  }
  try {
    await store.migrate(now);
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  return store;
}
