import { appendFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FollowBatch } from './follow.js';
import { claudeHome, jsonlReader, line, writeSession } from './test-support/homes.js';
import { hasCorpus } from '../../test/support/corpus.js';

async function next(it: AsyncIterator<FollowBatch>, ms = 5000): Promise<FollowBatch> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no batch in time')), ms);
  });
  try {
    const r = await Promise.race([it.next(), timeout]);
    if (r.done === true) throw new Error('follow ended');
    return r.value;
  } finally {
    clearTimeout(timer);
  }
}

const ids = (b: FollowBatch): unknown[] => b.entries.map((e) => e.object?.uuid ?? e.text);

async function setup(watch: boolean) {
  const t = await claudeHome();
  const reader = jsonlReader();
  const path = await writeSession(t.claude, 's1', [line(1), line(2)]);
  const catalog = await t.catalog({ agents: [{ reader, homes: [t.claude] }] });
  const stop = new AbortController();
  // From the page's token, so a write racing the follower's start is never missed.
  const page = await catalog.lastEntries('s1', 10);
  const it = catalog.follow('s1', { from: page.newer, signal: stop.signal, pollMs: watch ? 2000 : 25, watch })[Symbol.asyncIterator]();
  return { t, path, catalog, stop, it };
}

describe.skipIf(!hasCorpus)('follow', () => {
  for (const watch of [true, false]) {
    it(`yields appended entries in batches, holding back a torn line (${watch ? 'watching' : 'polling'})`, async () => {
      const { path, stop, it } = await setup(watch);
      const first = it.next();
      await new Promise((r) => setTimeout(r, 50));
      await appendFile(path, `${line(3)}\n${line(4)}\n{"type":"user","uuid":"u5"`);
      const b1 = await next({ next: () => first } as AsyncIterator<FollowBatch>);
      expect(ids(b1)).toEqual(['u3', 'u4']);
      expect(b1.restart).toBeNull();
      expect(b1.session.root).toBe('vendor');
      await appendFile(path, ',"sessionId":"s"}\n');
      expect(ids(await next(it))).toEqual(['u5']);
      stop.abort();
      expect((await it.next()).done).toBe(true);
    });
  }

  it('restarts from the start after a truncation and says so', async () => {
    const { path, stop, it } = await setup(false);
    const pending = next(it);
    await new Promise((r) => setTimeout(r, 60));
    await truncate(path, 0);
    await appendFile(path, `${line(7)}\n`);
    // The follower may see the empty file between the truncate and the append: gather until u7.
    const batches = [await pending];
    while (!batches.some((b) => ids(b).includes('u7'))) batches.push(await next(it));
    expect(batches[0]?.restart).toEqual({ reason: 'truncated', resumed_at: 0 });
    expect(batches.flatMap(ids)).toEqual(['u7']);
    expect(batches.at(-1)?.entries[0]?.line).toBe(1);
    stop.abort();
  });

  it('restarts on a replaced file, and keeps its place when the new file still holds what was read', async () => {
    const { path, stop, it } = await setup(false);
    const pending = next(it);
    await new Promise((r) => setTimeout(r, 60));
    // An atomic rewrite that keeps the old lines and adds one: no entry is repeated.
    await writeFile(`${path}.new`, `${line(1)}\n${line(2)}\n${line(3)}\n`);
    await rename(`${path}.new`, path);
    const b1 = await pending;
    expect(b1.restart?.reason).toBe('replaced');
    expect(b1.restart?.resumed_at).toBeGreaterThan(0);
    expect(ids(b1)).toEqual(['u3']);
    // A rewrite with other content starts again from the top.
    await writeFile(`${path}.new`, `${line(8)}\n`);
    await rename(`${path}.new`, path);
    const b2 = await next(it);
    expect(b2.restart).toEqual({ reason: 'replaced', resumed_at: 0 });
    expect(ids(b2)).toEqual(['u8']);
    stop.abort();
  });

  it('moves to the kept copy when the vendor prunes the session, and ends SessionNotFound when no copy is left', async () => {
    const t = await claudeHome();
    const reader = jsonlReader();
    const path = await writeSession(t.claude, 's1', [line(1), line(2)]);
    const catalog = await t.catalog({ agents: [{ reader, homes: [t.claude] }] });
    await catalog.keep();
    const after = await t.catalog({ agents: [{ reader, homes: [t.claude] }] });
    const stop = new AbortController();
    const it = after.follow('s1', { signal: stop.signal, pollMs: 25, missingGraceMs: 200 })[Symbol.asyncIterator]();
    const pending = next(it);
    await new Promise((r) => setTimeout(r, 60));
    await rm(path);
    const b = await pending;
    expect(b.restart).toEqual({ reason: 'moved', resumed_at: expect.any(Number) });
    expect(b.restart?.resumed_at).toBeGreaterThan(0);
    expect(b.session.root).toBe('kept');
    expect(b.entries).toEqual([]);
    await rm(join(t.state, 'kept'), { recursive: true });
    await expect(next(it)).rejects.toMatchObject({ code: 'SessionNotFound' });
    stop.abort();
  });

  it('starts from a page token, so nothing between the page and the follow is lost', async () => {
    const { path, catalog } = await setup(false);
    const page = await catalog.lastEntries('s1', 1);
    await appendFile(path, `${line(3)}\n`);
    const stop = new AbortController();
    const it = catalog.follow('s1', { from: page.newer, signal: stop.signal, pollMs: 25 })[Symbol.asyncIterator]();
    expect(ids(await next(it))).toEqual(['u3']);
    stop.abort();
    expect((await it.next()).done).toBe(true);
  });
});
