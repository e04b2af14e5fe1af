// The store conformance suite on SQLite (a temporary file per test).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conformance } from '../test-support/conformance.js';
import { openSqliteStore } from './index.js';

conformance('sqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentlog-hub-sqlite-'));
  const path = join(dir, 'hub.db');
  return {
    open: async () => openSqliteStore(path),
    openAgain: async () => openSqliteStore(path),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
