import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeReader } from '../agents/claude-code/reader.js';
import { withKeptRoots, vendorHomes } from './kept-homes.js';
import { claudeHome, demoId, jsonlReader } from './test-support/homes.js';
import { hasCorpus } from '../../test/support/corpus.js';

describe.skipIf(!hasCorpus)('kept roots as extra homes', () => {
  it('come after the vendor homes of the reader whose home they keep, and only that one', async () => {
    const t = await claudeHome();
    const other = jsonlReader();
    const agents = [
      { reader: claudeCodeReader, homes: [t.claude] },
      { reader: other, homes: [join(t.home, 'pi')] },
    ];
    expect(withKeptRoots(agents, t.state)).toEqual(agents);
    const r = await (await t.catalog()).keep({ ids: [demoId] });
    const root = r.installations[0]?.root as string;
    const withKept = withKeptRoots(agents, t.state);
    expect(withKept[0]?.homes).toEqual([t.claude, root]);
    expect(withKept[1]?.homes).toEqual([join(t.home, 'pi')]);
    // Another Claude Code home does not read this installation's copies.
    expect(withKeptRoots([{ reader: claudeCodeReader, homes: [join(t.home, 'elsewhere')] }], t.state)[0]?.homes).toEqual([
      join(t.home, 'elsewhere'),
    ]);
    expect(vendorHomes(withKept, [t.state])[0]?.homes).toEqual([t.claude]);
  });
});
