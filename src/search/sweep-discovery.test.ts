import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { codexReader } from '../agents/codex/reader.js';
import { codexOldFolder } from '../agents/codex/test-support/old-folder.js';
import { storeRoot } from './store.js';
import { SweepCaches } from './sweep-caches.js';
import { sweep } from './sweep.js';

describe('the sweep with its discovery cache', () => {
  it('picks up a new session in an old folder on the next sweep', async () => {
    const root = await tempDir();
    const state = join(root, 'state');
    const { codex, day, add } = await codexOldFolder(root);
    const run = () =>
      sweep({
        root: storeRoot(state),
        agents: [{ reader: codexReader, homes: [codex] }],
        now: () => Date.now() + 60_000,
        windowDays: 0,
        discovery: new SweepCaches(state, 't'),
      });
    expect(await run()).toMatchObject({ sessions: 2, extracted: 2, failed: [], problems: [] });
    expect(await run()).toMatchObject({ sessions: 2, extracted: 0, unchanged: 2 });
    expect(await readFile(new SweepCaches(state, 't').pathOf('codex'), 'utf8')).toContain(day);

    await add(3);
    expect(await run()).toMatchObject({ sessions: 3, extracted: 1, unchanged: 2, failed: [], problems: [] });
  });
});
