// The store conformance suite on PostgreSQL (a fresh schema per test, dropped after).
import { conformance } from '../test-support/conformance.js';
import { describePg, freshSchema, pgUrl } from '../test-support/postgres.js';
import { openPostgresStore } from './index.js';

describePg('postgres', () => {
  conformance('postgres', () => {
    let made: Awaited<ReturnType<typeof freshSchema>> | undefined;
    const open = async () => {
      made ??= await freshSchema();
      return openPostgresStore({ connectionString: pgUrl, schema: made.schema });
    };
    return {
      open,
      openAgain: open,
      cleanup: async () => {
        await made?.drop();
        made = undefined;
      },
    };
  });
});
