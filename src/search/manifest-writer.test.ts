import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { captureCursor } from './file-cursor.js';
import { emptyManifest, type ManifestEntry } from './manifest.js';
import { acceptPublish, ManifestWriter } from './manifest-writer.js';
import { ensureStore, readManifest, writeManifest } from './store.js';
import { acquireWriterLock } from './writer-lock.js';

async function entryFor(path: string, offset: number): Promise<ManifestEntry> {
  const c = await captureCursor(path, offset, 'append', Date.now());
  if (c === null) throw new Error('no cursor');
  return {
    agent: 'claude_code',
    session_id: 's',
    extractor_version: 1,
    segments: [],
    records: 0,
    newest_ts_ms: 0,
    oldest_ts_ms: 0,
    source_mtime_ms: 0,
    watermark: offset,
    generation: 0,
    supersession: false,
    marks_digest: '',
    cursors: [c],
    ignored: [],
    carry: null,
    home: '/h',
  };
}

describe('publish checks', () => {
  it('rejects a stale writer whose lower watermark covers the same, unchanged source', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.jsonl');
    await writeFile(path, 'one\ntwo\n');
    const newer = await entryFor(path, 8);
    const stale = await entryFor(path, 4);
    expect(await acceptPublish(newer, stale)).toBe(false);
    expect(await acceptPublish(stale, newer)).toBe(true);
    await appendFile(path, 'three\n');
    expect(await acceptPublish(newer, stale)).toBe(false);
  });

  it('accepts a lower watermark after the source was truncated or rewritten', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.jsonl');
    await writeFile(path, 'one\ntwo\n');
    const before = await entryFor(path, 8);
    await writeFile(path, 'one\n');
    expect(await acceptPublish(before, await entryFor(path, 4))).toBe(true);
  });

  it('accepts a lower watermark over a changed set of files', async () => {
    const dir = await tempDir();
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    await writeFile(a, 'one\ntwo\n');
    await writeFile(b, 'x\n');
    const both = await entryFor(a, 8);
    both.cursors.push(...(await entryFor(b, 2)).cursors);
    both.watermark = 10;
    expect(await acceptPublish(both, await entryFor(a, 8))).toBe(true);
  });

  it('merges over a manifest another writer wrote meanwhile, keeping its newer entries', async () => {
    const root = join(await tempDir(), 'v1');
    await ensureStore(root);
    const src = join(root, 'a.jsonl');
    await mkdir(root, { recursive: true });
    await writeFile(src, 'one\ntwo\n');
    const lock = await acquireWriterLock(root);
    const base = await writeManifest(root, emptyManifest(0), 1);
    const writer = new ManifestWriter(root, structuredClone(base), lock, () => 2);
    // Someone else (who stole the lock and gave it back) published the newer state.
    await writeManifest(
      root,
      { ...base, sessions: { 'claude_code:s': await entryFor(src, 8), 'claude_code:t': await entryFor(src, 8) } },
      3,
    );
    writer.put('claude_code:s', await entryFor(src, 4));
    await writer.flush();
    const after = await readManifest(root);
    if (after.state !== 'ok') throw new Error('no manifest');
    expect(after.manifest.sessions['claude_code:s']?.watermark).toBe(8);
    expect(Object.keys(after.manifest.sessions).sort()).toEqual(['claude_code:s', 'claude_code:t']);
    expect(writer.rejected).toBe(1);
    await lock.release();
  });

  it('refuses to write a store made by a newer index format', async () => {
    const root = join(await tempDir(), 'v1');
    await ensureStore(root);
    await writeFile(join(root, 'manifest.json'), JSON.stringify({ ...emptyManifest(0), format: 99 }));
    const { openManifestForWrite } = await import('./store.js');
    await expect(openManifestForWrite(root, 0, 14)).rejects.toMatchObject({ code: 'IndexNewer' });
  });
});
