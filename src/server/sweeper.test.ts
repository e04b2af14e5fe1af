import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { codexReader } from '../agents/codex/reader.js';
import { codexOldFolder } from '../agents/codex/test-support/old-folder.js';
import type { Catalog } from '../custody/index.js';
import type { AgentHomes } from '../scan/scan.js';
import { storeRoot } from '../search/store.js';
import { SweepCaches } from '../search/sweep-caches.js';
import { Sweeper } from './sweeper.js';

/** A keep that keeps nothing: these tests are about the index chain. */
const noKeep = (async () => ({
  keep: async () => ({ totals: { sessions: 0, copied: 0, extended: 0, refreshed: 0, failed: 0 }, sessions: [] }),
})) as unknown as () => Promise<Catalog>;

async function idle(s: Sweeper): Promise<void> {
  await new Promise((r) => setTimeout(r, 10));
  while (s.sweeping > 0) await new Promise((r) => setTimeout(r, 10));
}

describe("serve's sweeper", () => {
  it('lists through the discovery caches it holds, so a later sweep of an unchanged home lists no folder', async () => {
    const root = await tempDir();
    const state = join(root, 'state');
    const { codex, add } = await codexOldFolder(root);
    const agents: AgentHomes[] = [{ reader: codexReader, homes: [codex] }];
    const later = () => Date.now() + 60_000;
    const discovery = new SweepCaches(state, 't', later);
    const s = new Sweeper({
      indexRoot: storeRoot(state),
      vendorAgents: agents,
      readableAgents: () => agents,
      discovery,
      catalog: noKeep,
      now: later,
      intervalMs: 3_600_000,
      watch: false,
      log: () => undefined,
    });
    try {
      await s.start();
      expect(s.lastIndex).toMatchObject({ sessions: 2, extracted: 2, failed: [] });
      const cache = await discovery.for('codex');
      const listed = cache.stats.dirMisses;
      expect(listed).toBeGreaterThan(0);

      s.kick('interval');
      await idle(s);
      expect(s.lastIndex).toMatchObject({ sessions: 2, unchanged: 2 });
      expect(cache.stats.dirMisses).toBe(listed);
      expect(cache.stats.dirHits).toBeGreaterThan(0);

      // A new session in the old folder is still found.
      await add(3);
      s.kick('interval');
      await idle(s);
      expect(s.lastIndex).toMatchObject({ sessions: 3, extracted: 1, unchanged: 2 });
    } finally {
      await s.stop();
    }
  });
});
