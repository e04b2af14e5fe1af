// PostgreSQL for hub tests: the server at 127.0.0.1:5432 (database `test`, or AGENTLOG_TEST_PG), a
// fresh schema per run, dropped after. Unreachable: the tests skip locally with one line, and fail
// under CI (env CI set, or AGENTLOG_REQUIRE_POSTGRES=1 as .ci/run sets it), where PostgreSQL runs for real.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';

export const pgUrl = process.env.AGENTLOG_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const inCi =
  process.env.AGENTLOG_REQUIRE_POSTGRES === '1' || (process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false');

async function probe(): Promise<string | null> {
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const unreachable = await probe();
export const pgReachable = unreachable === null;

/** A `describe` that needs PostgreSQL: skipped locally without it (saying so), failing under CI. */
export function describePg(name: string, body: () => void): void {
  if (pgReachable) {
    describe(name, body);
    return;
  }
  if (inCi)
    describe(name, () => {
      it('reaches PostgreSQL', () => {
        throw new Error(`PostgreSQL at ${pgUrl} is unreachable under CI: ${unreachable}`);
      });
    });
  else {
    console.warn(`hub PostgreSQL tests skipped: ${pgUrl} unreachable (${unreachable}); under CI they fail`);
    describe.skip(name, body);
  }
}

/** A fresh schema; `drop()` removes it and everything in it. */
export async function freshSchema(): Promise<{ schema: string; url: string; drop(): Promise<void> }> {
  const schema = `hub_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
  const url = `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}schema=${schema}`;
  return {
    schema,
    url,
    async drop() {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}
