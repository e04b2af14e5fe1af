// A database session's export is bytes in memory until its copy is written. Copies wait in the
// publisher's batch (up to 8,192 files or 256 MiB) until the batch is made durable: an export held
// until then made a first keep of the bench home peak at 382 MiB, its exports alone ~150 MiB.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import type { AgentReader, TreeEntry } from '../agents/types.js';
import { stageHome } from './keep.js';
import { Publisher } from './publisher.js';
import { jsonlReader, line, writeSession } from './test-support/homes.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const exportBytes = 4 * 1024 * 1024;

/** Sessions kept as exports (`asMain`: the export is the session's main entry, as for a database reader). */
function exportingReader(made: WeakRef<Buffer>[], asMain: boolean): AgentReader {
  const base = jsonlReader();
  return {
    ...base,
    async tree(session) {
      const exported: TreeEntry = {
        relPath: `exports/${session.sessionId}.jsonl`,
        kind: 'export',
        produce: async () => {
          const data = Buffer.alloc(exportBytes, session.sessionId);
          made.push(new WeakRef(data));
          return data;
        },
      };
      return asMain ? [exported] : [...(await base.tree(session)), exported];
    },
  };
}

describe("an export's bytes", () => {
  for (const asMain of [true, false])
    it(`are let go once its copy is written, before the batch is durable (export as ${asMain ? 'the main entry' : 'an extra file'})`, async () => {
      const root = await tempDir();
      const state = join(root, 'state');
      const home = join(root, 'home');
      await mkdir(state);
      for (const id of ['a', 'b', 'c']) await writeSession(home, id, [line(0), line(1)]);
      const made: WeakRef<Buffer>[] = [];
      // Nothing is published until drained: every copy waits in one batch, as on a large first keep.
      const publisher = new Publisher(state, { files: 1000, bytes: 2 ** 40, barrierFrom: 2 }, async () => true);
      const staged = await stageHome(
        { stateRoot: state, reader: exportingReader(made, asMain), home, version: 't', now: () => Date.now() + 60_000 },
        publisher,
      );
      expect(made).toHaveLength(3);
      for (let i = 0; i < 3; i++) {
        gc();
        await new Promise((r) => setImmediate(r));
      }
      expect(made.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);

      publisher.drain();
      const report = await staged.done;
      expect(report.sessions.flatMap((s) => s.failed)).toEqual([]);
      for (const id of ['a', 'b', 'c']) {
        const kept = await readFile(join(report.installation.root, 'exports', `${id}.jsonl`));
        expect(kept.equals(Buffer.alloc(exportBytes, id))).toBe(true);
      }
    });
});
