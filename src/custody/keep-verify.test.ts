// A same-size rewrite whose mtime was put back passes keep's quick check (as it passes rsync's);
// keep --verify compares content and refreshes it.
import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeHome, jsonlReader, line, writeSession } from './test-support/homes.js';
import { hasCorpus } from '../../test/support/corpus.js';

describe.skipIf(!hasCorpus)('keep --verify', () => {
  it('catches the same-size, same-mtime rewrite the quick check lets through', async () => {
    const t = await claudeHome();
    const reader = jsonlReader();
    // Long enough that the edit near the start lies outside the last block an unvouched file has compared.
    const path = await writeSession(
      t.claude,
      's1',
      Array.from({ length: 2000 }, (_, i) => line(i + 1)),
    );
    const old = new Date(Date.now() - 3_600_000);
    await utimes(path, old, old);
    const catalog = await t.catalog({ agents: [{ reader, homes: [t.claude] }] });
    const first = await catalog.keep();
    const kept = first.installations[0]?.root as string;
    const before = await stat(path);
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('"line 1"', '"LINE 1"'));
    await utimes(path, before.atime, before.mtime);

    const quick = await catalog.keep();
    expect(quick.totals.refreshed ?? 0).toBe(0);
    const verified = await catalog.keep({ verify: true });
    expect(verified.totals.refreshed).toBe(1);
    const keptFile = join(kept, 'sessions', 's1.jsonl');
    expect(await readFile(keptFile, 'utf8')).toContain('"LINE 1"');
  });
});
