// Schema migrations: numbered plain SQL files per dialect (`<dialect>/migrations/NNN_name.sql`),
// applied in order inside one transaction that holds the migration lock, each recorded in
// `hub_migrations`. A second process starting at once waits for the lock, then finds nothing to do.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentlogError } from '../errors.js';
import type { SqlDriver } from './sql-driver.js';
import type { Dialect, MigrationReport } from './store.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const fileName = /^(\d{3,})_([a-z0-9_-]+)\.sql$/;

/**
 * The migrations folder of a dialect: beside this module (`src/hub/`, `dist/hub/`), or beside the
 * bundled CLI (`dist/cli/` → `dist/hub/`, where the build copies the SQL files).
 */
export function migrationsDir(dialect: Dialect): string {
  const candidates = [`./${dialect}/migrations/`, `../hub/${dialect}/migrations/`];
  for (const rel of candidates) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(dir)) return dir;
  }
  throw new AgentlogError(
    'HubMigrationsMissing',
    'failed',
    `the hub's ${dialect} migrations are missing from this build (run npm run build)`,
  );
}

/** The migrations in a folder, by number; a gap or a repeated number is a build error, not skipped. */
export function readMigrations(dir: string): Migration[] {
  const out: Migration[] = [];
  for (const f of readdirSync(dir).sort()) {
    const m = fileName.exec(f);
    if (m === null) continue;
    out.push({ version: Number(m[1]), name: m[2] as string, sql: readFileSync(join(dir, f), 'utf8') });
  }
  out.sort((a, b) => a.version - b.version);
  out.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new AgentlogError(
        'HubMigrationsBroken',
        'failed',
        `hub migrations must be numbered 1, 2, 3…: found ${m.version} at place ${i + 1}`,
      );
  });
  return out;
}

const createTable = `CREATE TABLE IF NOT EXISTS hub_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`;

/** Applies what `hub_migrations` does not record yet, all in one transaction. */
export async function applyMigrations(driver: SqlDriver, migrations: readonly Migration[], now: string): Promise<MigrationReport> {
  return driver.migrationTransaction(async (tx) => {
    await tx.exec(createTable);
    const done = new Set((await tx.all<{ version: number }>('SELECT version FROM hub_migrations')).map((r) => Number(r.version)));
    const known = Math.max(0, ...migrations.map((m) => m.version));
    const newest = Math.max(0, ...done);
    if (newest > known)
      throw new AgentlogError(
        'HubSchemaNewer',
        'failed',
        `the hub database is at schema ${newest}, newer than this build knows (${known}): upgrade agentlog`,
      );
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.run('INSERT INTO hub_migrations (version, name, applied_at) VALUES (?, ?, ?)', [m.version, m.name, now]);
      applied.push(m.version);
    }
    return { applied, current: Math.max(newest, ...applied) };
  });
}
