import { appendFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { Catalog } from './catalog.js';
import type { FollowBatch } from './follow.js';
import { jsonlReader, line, writeSession } from './test-support/homes.js';

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

/** A vendor home holding one generic JSONL session `s1` (lines u1, u2), and a catalog over it. */
async function home() {
  const root = await tempDir('agentlog-follow-');
  const vendor = join(root, 'vendor');
  const state = join(root, '.agentlog');
  const path = await writeSession(vendor, 's1', [line(1), line(2)]);
  const reader = jsonlReader();
  const catalog = () => Catalog.open({ stateRoot: state, agents: [{ reader, homes: [vendor] }], version: '0.0.0-test', now: () => 0 });
  return { path, state, catalog };
}

/**
 * Follows `s1` from its last page's token: the follower's place is fixed when the page is read, so
 * every change a test makes after this returns is seen, whenever the follower first looks.
 */
async function setup(watch: boolean) {
  const h = await home();
  const catalog = await h.catalog();
  const stop = new AbortController();
  const page = await catalog.lastEntries('s1', 10);
  // Watching: a poll interval longer than any wait below, so only the watch can deliver a change.
  const it = catalog.follow('s1', { from: page.newer, signal: stop.signal, pollMs: watch ? 60_000 : 25, watch })[Symbol.asyncIterator]();
  return { ...h, catalog, stop, it };
}

describe('follow', () => {
  for (const watch of [true, false]) {
    it(`yields appended entries in batches, holding back a torn line (${watch ? 'watching' : 'polling'})`, async () => {
      const { path, stop, it } = await setup(watch);
      await appendFile(path, `${line(3)}\n${line(4)}\n{"type":"user","uuid":"u5"`);
      const b1 = await next(it);
      expect(ids(b1)).toEqual(['u3', 'u4']);
      expect(b1.restart).toBeNull();
      expect(b1.session.root).toBe('vendor');
      // The follower now waits (for a minute when watching): the end of the torn line wakes it.
      const b2 = next(it);
      await appendFile(path, ',"sessionId":"s"}\n');
      expect(ids(await b2)).toEqual(['u5']);
      stop.abort();
      expect((await it.next()).done).toBe(true);
    });
  }

  it('restarts from the start after a truncation and says so', async () => {
    const { path, stop, it } = await setup(false);
    await truncate(path, 0);
    await appendFile(path, `${line(7)}\n`);
    const batches = [await next(it)];
    // Polling may see the empty file between the truncate and the append: gather until u7.
    while (!batches.some((b) => ids(b).includes('u7'))) batches.push(await next(it));
    expect(batches[0]?.restart).toEqual({ reason: 'truncated', resumed_at: 0 });
    expect(batches.flatMap(ids)).toEqual(['u7']);
    expect(batches.at(-1)?.entries[0]?.line).toBe(1);
    stop.abort();
  });

  it('restarts on a replaced file, and keeps its place when the new file still holds what was read', async () => {
    const { path, stop, it } = await setup(false);
    // An atomic rewrite that keeps the old lines and adds one: no entry is repeated.
    await writeFile(`${path}.new`, `${line(1)}\n${line(2)}\n${line(3)}\n`);
    await rename(`${path}.new`, path);
    const b1 = await next(it);
    expect(b1.restart?.reason).toBe('replaced');
    expect(b1.restart?.resumed_at).toBeGreaterThan(0);
    expect(ids(b1)).toEqual(['u3']);
    // A rewrite with other content starts again from the top.
    const b2 = next(it);
    await writeFile(`${path}.new`, `${line(8)}\n`);
    await rename(`${path}.new`, path);
    expect(await b2).toMatchObject({ restart: { reason: 'replaced', resumed_at: 0 } });
    expect(ids(await b2)).toEqual(['u8']);
    stop.abort();
  });

  it('moves to the kept copy when the vendor prunes the session, and ends SessionNotFound when no copy is left', async () => {
    const { path, state, catalog } = await home();
    await (await catalog()).keep();
    const after = await catalog();
    const page = await after.lastEntries('s1', 10);
    expect(page.session.root).toBe('vendor');
    const stop = new AbortController();
    const it = after.follow('s1', { from: page.newer, signal: stop.signal, pollMs: 25, missingGraceMs: 200 })[Symbol.asyncIterator]();
    await rm(path);
    const b = await next(it);
    expect(b.restart).toEqual({ reason: 'moved', resumed_at: expect.any(Number) });
    expect(b.restart?.resumed_at).toBeGreaterThan(0);
    expect(b.session.root).toBe('kept');
    expect(b.entries).toEqual([]);
    const gone = next(it);
    await rm(join(state, 'kept'), { recursive: true });
    await expect(gone).rejects.toMatchObject({ code: 'SessionNotFound' });
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
