import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { codexReader } from '../agents/codex/reader.js';
import { codexOldFolder } from '../agents/codex/test-support/old-folder.js';
import { discoveryCachePath } from '../scan/discovery-cache.js';
import { Catalog } from './catalog.js';

describe('keep with its discovery cache', () => {
  it('keeps a new session in an old folder on the next keep', async () => {
    const root = await tempDir();
    const state = join(root, 'state');
    const { codex, day, add } = await codexOldFolder(root);
    const agents = [{ reader: codexReader, homes: [codex] }];
    const keep = async () => (await Catalog.open({ stateRoot: state, agents, version: 't', now: () => Date.now() + 60_000 })).keep();
    expect((await keep()).totals).toMatchObject({ sessions: 2, copied: 2, failed: 0 });
    expect((await keep()).totals).toMatchObject({ sessions: 2, copied: 0, failed: 0 });
    expect(await readFile(discoveryCachePath(state, 'keep'), 'utf8')).toContain(day);

    await add(3);
    const third = await keep();
    expect(third.totals).toMatchObject({ sessions: 3, copied: 1, failed: 0 });
    expect(third.problems).toEqual([]);
  });
});
