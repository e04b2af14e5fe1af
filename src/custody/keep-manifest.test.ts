import { open, readdir, readFile, rename, stat, symlink, utimes, writeFile, appendFile, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasCorpus, tempDir } from '../../test/support/temp.js';
import type { SessionFile } from '../agents/types.js';
import { KeepManifest, racyMarginMs, type FileFacts } from './keep-manifest.js';
import { claudeHome, jsonlReader, line, mainRel, smallId, writeSession, type TestHome } from './test-support/homes.js';

const hour = 3600_000;
const smallRel = mainRel('-sample-project', smallId);

/** Sets every file under `dir` to an mtime an hour ago: older than the racy margin, as a real home's are. */
async function age(dir: string, at = Date.now() - hour): Promise<void> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await age(p, at);
    else if (e.isFile()) await utimes(p, new Date(at), new Date(at));
  }
}

/** Overwrites the last bytes of a file in place (same size, same inode) and puts its mtime back. */
async function editTailKeepingTime(path: string, text: string): Promise<void> {
  const before = await stat(path);
  const handle = await open(path, 'r+');
  try {
    await handle.write(Buffer.from(text), 0, Buffer.byteLength(text), before.size - Buffer.byteLength(text) - 1);
  } finally {
    await handle.close();
  }
  await utimes(path, before.atime, before.mtime);
  const after = await stat(path);
  expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
}

async function keptRootOf(t: TestHome): Promise<string> {
  const [key] = await readdir(join(t.state, 'kept'));
  return join(t.state, 'kept', key as string);
}

/** A home whose files are an hour old, kept once with the real clock: the manifest vouches for every file. */
async function keptHome(): Promise<{ t: TestHome; root: string }> {
  const t = await claudeHome();
  await age(t.claude);
  const first = await (await t.catalog({ now: Date.now })).keep();
  expect(first.totals).toMatchObject({ copied: 6, failed: 0 });
  return { t, root: await keptRootOf(t) };
}

const keepAgain = async (t: TestHome) => (await t.catalog({ now: Date.now })).keep();

describe.skipIf(!hasCorpus)('keep with a manifest', () => {
  it('skips an unchanged home without looking at the kept side, and does not rewrite the manifest', async () => {
    const { t, root } = await keptHome();
    const manifest = await stat(join(root, '.keep-manifest'));
    expect((manifest.mode & 0o777).toString(8)).toBe('600');
    // Tampering on the kept side goes unseen: an unchanged vendor file costs one lstat, nothing more.
    const kept = join(root, smallRel);
    await writeFile(kept, Buffer.alloc((await stat(kept)).size, 'x'));
    const again = await keepAgain(t);
    expect(again.totals).toMatchObject({ skipped: 6, copied: 0, extended: 0, refreshed: 0, failed: 0 });
    expect((await readFile(kept)).every((b) => b === 0x78)).toBe(true);
    const after = await stat(join(root, '.keep-manifest'));
    expect([after.ino, after.mtimeMs]).toEqual([manifest.ino, manifest.mtimeMs]);
  });

  it("trusts size, mtime and inode like rsync's quick check; without the manifest the tail rule catches the edit", async () => {
    const { t, root } = await keptHome();
    const original = await readFile(t.vendor(smallRel));
    await editTailKeepingTime(t.vendor(smallRel), 'EDITED');
    // The documented trade-off: an in-place same-size edit with its mtime put back is not seen.
    expect((await keepAgain(t)).sessions.find((s) => s.session_id === smallId)).toMatchObject({ skipped: [smallRel], refreshed: [] });
    // With no manifest to vouch, the kept side is compared: same size and time, so the tails are.
    await rename(join(root, '.keep-manifest'), join(root, 'old-manifest'));
    const r = await keepAgain(t);
    expect(r.sessions.find((s) => s.session_id === smallId)).toMatchObject({ refreshed: [smallRel] });
    expect(r.totals).toMatchObject({ refreshed: 1, skipped: 5, failed: 0 });
    expect((await readFile(join(root, smallRel))).equals(await readFile(t.vendor(smallRel)))).toBe(true);
    expect((await readFile(join(root, `${smallRel}.1.bak`))).equals(original)).toBe(true);
  });

  it('ignores a corrupt manifest, one made for another home, and a lying entry', async () => {
    const { t, root } = await keptHome();
    const path = join(root, '.keep-manifest');
    const good = JSON.parse(await readFile(path, 'utf8')) as { home: string; files: Record<string, number[]> };
    await editTailKeepingTime(t.vendor(smallRel), 'ONE');
    await writeFile(path, '{"format":"agentlog/keep-manifest","version":1,"files":{');
    expect((await keepAgain(t)).totals).toMatchObject({ refreshed: 1, skipped: 5 });
    // The keep wrote a whole manifest again.
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ format: 'agentlog/keep-manifest', home: good.home });

    await editTailKeepingTime(t.vendor(smallRel), 'TWO');
    await writeFile(path, JSON.stringify({ ...good, home: '/some/other/home' }));
    expect((await keepAgain(t)).totals).toMatchObject({ refreshed: 1, skipped: 5 });

    // An entry whose facts are not the file's (here another inode) vouches for nothing; the rest still do.
    await editTailKeepingTime(t.vendor(smallRel), 'THREE');
    const now = JSON.parse(await readFile(path, 'utf8')) as typeof good;
    const row = now.files[smallRel] as number[];
    now.files[smallRel] = [row[0] as number, row[1] as number, row[2] as number, (row[3] as number) + 1];
    await writeFile(path, JSON.stringify(now));
    expect((await keepAgain(t)).totals).toMatchObject({ refreshed: 1, skipped: 5 });
    expect((await readFile(join(root, smallRel))).equals(await readFile(t.vendor(smallRel)))).toBe(true);
  });

  it('compares a file replaced by another inode with the same size and mtime', async () => {
    const { t, root } = await keptHome();
    const vendor = t.vendor(smallRel);
    const before = await stat(vendor);
    const bytes = await readFile(vendor);
    bytes.write('Z', bytes.length - 3);
    await writeFile(`${vendor}.new`, bytes);
    await utimes(`${vendor}.new`, before.atime, before.mtime);
    await rename(`${vendor}.new`, vendor);
    expect((await stat(vendor)).ino).not.toBe(before.ino);
    expect((await keepAgain(t)).totals).toMatchObject({ refreshed: 1, skipped: 5 });
    expect((await readFile(join(root, smallRel))).equals(bytes)).toBe(true);
  });

  it('does not vouch for a file changed within the racy margin of the keep that saw it', async () => {
    const t = await claudeHome();
    await age(t.claude);
    // Written "just now" as far as the keep's clock knows: a same-tick rewrite could hide behind it.
    await utimes(t.vendor(smallRel), new Date(), new Date(Date.now() - racyMarginMs / 2));
    await (await t.catalog({ now: Date.now })).keep();
    await editTailKeepingTime(t.vendor(smallRel), 'RACY');
    const r = await keepAgain(t);
    expect(r.totals).toMatchObject({ refreshed: 1, skipped: 5 });
  });

  it('makes an export again only when the files it is made from changed', async () => {
    const t = await claudeHome();
    let produced = 0;
    const reader = jsonlReader({
      extraTree: (s) => [
        {
          relPath: `exports/${s.sessionId}.jsonl`,
          kind: 'export',
          produce: async () => {
            produced++;
            return Buffer.from('{"row":1}\n');
          },
        },
      ],
    });
    const session = await writeSession(t.claude, 's1', [line(1)]);
    await age(t.claude);
    const catalog = () => t.catalog({ agents: [{ reader, homes: [t.claude] }], now: Date.now });
    expect((await (await catalog()).keep()).sessions[0]?.copied).toEqual(['exports/s1.jsonl', 'sessions/s1.jsonl']);
    expect(produced).toBe(1);
    expect((await (await catalog()).keep()).sessions[0]?.skipped).toEqual(['exports/s1.jsonl', 'sessions/s1.jsonl']);
    expect(produced).toBe(1);
    await appendFile(session, `${line(2)}\n`);
    await utimes(session, new Date(), new Date(Date.now() - hour / 2));
    const r = await (await catalog()).keep();
    expect(produced).toBe(2);
    // Same rows, same bytes: the export compares equal; the session file grew.
    expect(r.sessions[0]).toMatchObject({ skipped: ['exports/s1.jsonl'], extended: ['sessions/s1.jsonl'] });
  });
});

describe('KeepManifest', () => {
  const facts = (size: number, ino = 7): FileFacts => ({ size, mtimeMs: 1_000_000, dev: 1, ino });
  const scope = (root: string, observedAt = 10_000_000) => ({ root, installation: 'pi-x', home: '/h', observedAt });

  it('round-trips what it was told, drops a malformed entry alone, and writes only when something changed', async () => {
    const root = await tempDir();
    const m = await KeepManifest.load(scope(root));
    m.recordFile('a.jsonl', facts(5));
    m.recordFile('b.jsonl', facts(6));
    const from: SessionFile[] = [{ path: '/h/x.db', size: 9, mtimeMs: 1_000_000 }];
    m.recordExport('e.jsonl', from, 12);
    m.noteFacts('a.jsonl');
    expect(await m.save(false)).toBe(true);
    const doc = JSON.parse(await readFile(join(root, '.keep-manifest'), 'utf8')) as { files: Record<string, unknown> };
    doc.files['b.jsonl'] = ['not', 'numbers'];
    // An entry with a field too many is not one (its first four would otherwise vouch for c.jsonl).
    doc.files['c.jsonl'] = [6, 1_000_000, 1, 7, 0];
    await writeFile(join(root, '.keep-manifest'), JSON.stringify(doc));

    const n = await KeepManifest.load(scope(root));
    expect(n.vouchesFor('a.jsonl', facts(5))).toBe(true);
    expect(n.vouchesFor('a.jsonl', facts(5, 8))).toBe(false);
    expect(n.vouchesFor('a.jsonl', facts(6))).toBe(false);
    expect(n.vouchesFor('b.jsonl', facts(6))).toBe(false);
    expect(n.vouchesFor('c.jsonl', facts(6))).toBe(false);
    expect(n.vouchesForExport('e.jsonl', from)).toBe(true);
    expect(n.vouchesForExport('e.jsonl', [{ ...(from[0] as SessionFile), mtimeMs: 1_000_001 }])).toBe(false);
    expect(n.hasFacts('a.jsonl')).toBe(true);
    // The dropped entry made it dirty once; after that an unchanged run writes nothing.
    expect(await n.save(false)).toBe(true);
    const o = await KeepManifest.load(scope(root));
    o.recordFile('a.jsonl', facts(5));
    expect(await o.save(false)).toBe(false);
  });

  it('trusts nothing of an envelope its schema refuses, and rewrites it whole on the next save', async () => {
    const root = await tempDir();
    const m = await KeepManifest.load(scope(root));
    m.recordFile('a.jsonl', facts(5));
    m.noteFacts('a.jsonl');
    await m.save(false);
    const good = JSON.parse(await readFile(join(root, '.keep-manifest'), 'utf8')) as Record<string, unknown>;
    for (const bad of [{ facts: ['a.jsonl', 7] }, { version: 2 }, { files: [] }, { home: null }, { format: 'other' }]) {
      await writeFile(join(root, '.keep-manifest'), JSON.stringify({ ...good, ...bad }));
      const n = await KeepManifest.load(scope(root));
      expect(n.vouchesFor('a.jsonl', facts(5)), JSON.stringify(bad)).toBe(false);
      expect(n.hasFacts('a.jsonl'), JSON.stringify(bad)).toBe(false);
      n.recordFile('a.jsonl', facts(5));
      expect(await n.save(false), JSON.stringify(bad)).toBe(true);
      expect(JSON.parse(await readFile(join(root, '.keep-manifest'), 'utf8'))).toMatchObject({ version: 1, facts: [] });
    }
  });

  it('holds any relPath as a plain key, `__proto__` included, and nothing it was not told', async () => {
    const root = await tempDir();
    const m = await KeepManifest.load(scope(root));
    m.recordFile('__proto__', facts(3));
    await m.save(false);
    const n = await KeepManifest.load(scope(root));
    expect(n.vouchesFor('__proto__', facts(3))).toBe(true);
    for (const rel of ['constructor', 'toString', 'hasOwnProperty']) expect(n.vouchesFor(rel, facts(3))).toBe(false);
  });

  it('keeps out racy files and, on a keep of every session, entries no session named', async () => {
    const root = await tempDir();
    const m = await KeepManifest.load(scope(root, 2_000_000));
    m.recordFile('old.jsonl', facts(1));
    m.recordFile('racy.jsonl', { ...facts(1), mtimeMs: 2_000_000 - racyMarginMs + 1 });
    m.recordFile('gone.jsonl', facts(1));
    await m.save(false);
    const n = await KeepManifest.load(scope(root, 3_000_000));
    expect(n.vouchesFor('racy.jsonl', { ...facts(1), mtimeMs: 2_000_000 - racyMarginMs + 1 })).toBe(false);
    expect(n.vouchesFor('old.jsonl', facts(1))).toBe(true);
    await n.save(true);
    const o = await KeepManifest.load(scope(root));
    expect(o.vouchesFor('gone.jsonl', facts(1))).toBe(false);
    expect(o.vouchesFor('old.jsonl', facts(1))).toBe(true);
  });

  it('is never read through a link, and is ignored when made for another installation', async () => {
    const root = await tempDir();
    const m = await KeepManifest.load(scope(root));
    m.recordFile('a.jsonl', facts(5));
    await m.save(false);
    expect((await KeepManifest.load({ ...scope(root), installation: 'pi-y' })).vouchesFor('a.jsonl', facts(5))).toBe(false);
    const other = await tempDir();
    await rename(join(root, '.keep-manifest'), join(other, 'elsewhere'));
    await symlink(join(other, 'elsewhere'), join(root, '.keep-manifest'));
    const n = await KeepManifest.load(scope(root));
    expect(n.vouchesFor('a.jsonl', facts(5))).toBe(false);
    n.recordFile('a.jsonl', facts(5));
    await n.save(false);
    // The save replaced the link itself; its target is untouched.
    expect((await lstat(join(root, '.keep-manifest'))).isFile()).toBe(true);
    expect(JSON.parse(await readFile(join(other, 'elsewhere'), 'utf8'))).toMatchObject({ installation: 'pi-x' });
  });
});
