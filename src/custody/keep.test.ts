import { appendFile, lstat, mkdir, readdir, readFile, rm, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasCorpus, tempDir } from '../../test/support/temp.js';
import { readFacts } from './facts.js';
import { keptRoot } from './paths.js';
import {
  claudeHome,
  demoAgent,
  demoId,
  jsonlReader,
  mainRel,
  sampleId,
  smallId,
  treeBytes,
  writeSession,
  line,
} from './test-support/homes.js';
import type { Catalog } from './catalog.js';

const demoRel = mainRel('-subagent-demo', demoId);
const demoSub = `projects/-subagent-demo/${demoId}/subagents/agent-${demoAgent}.jsonl`;
const sampleRel = mainRel('-sample-project', sampleId);

async function onlyRoot(catalog: Catalog): Promise<string> {
  const r = await catalog.keep({ ids: [] });
  expect(r.sessions).toEqual([]);
  const installs = await readdir(join(catalog.stateRoot, 'kept'));
  expect(installs).toHaveLength(1);
  return keptRoot(catalog.stateRoot, installs[0] as string);
}

describe.skipIf(!hasCorpus)('keep', () => {
  it('copies every session tree byte for byte, private, then skips everything the second time', async () => {
    const t = await claudeHome();
    const catalog = await t.catalog();
    const first = await catalog.keep();
    expect(first.totals).toMatchObject({ copied: 6, extended: 0, refreshed: 0, skipped: 0, failed: 0 });
    expect(first.installations).toHaveLength(1);
    const root = first.installations[0]?.root as string;
    const vendor = await treeBytes(t.claude);
    const kept = await treeBytes(root, (rel) => rel.endsWith('.custody') || rel === 'installation.json' || rel === '.keep-manifest');
    expect(kept).toEqual(vendor);
    for (const rel of [demoRel, demoSub, 'projects', `projects/-subagent-demo/${demoId}/subagents`]) {
      const st = await stat(join(root, rel));
      expect((st.mode & 0o777).toString(8), rel).toBe(st.isDirectory() ? '700' : '600');
    }
    const again = await (await t.catalog()).keep();
    expect(again.totals).toMatchObject({ copied: 0, extended: 0, refreshed: 0, skipped: 6, failed: 0 });
  });

  it('writes the custody facts on the first keep and never rewrites them', async () => {
    const t = await claudeHome();
    const catalog = await t.catalog();
    await catalog.keep({ ids: [demoId] });
    const root = await onlyRoot(catalog);
    const facts = await readFacts(root, demoRel);
    expect(facts).toMatchObject({
      version: 1,
      agent: 'claude_code',
      session_id: demoId,
      cwd: '/tmp',
      source_path: t.vendor(demoRel),
      first_kept_at: '2026-01-02T03:04:05.000Z',
      agentlog_version: '0.0.0-test',
    });
    expect(facts?.installation_key).toBe(root.split('/').at(-1));
    await appendFile(t.vendor(demoRel), `${line(1)}\n`);
    await (await t.catalog({ now: () => 0, version: '9' })).keep({ ids: [demoId] });
    expect(await readFacts(root, demoRel)).toEqual(facts);
  });

  it('appends exactly the new bytes of a grown file, in place', async () => {
    const t = await claudeHome();
    await (await t.catalog()).keep();
    const root = await onlyRoot(await t.catalog());
    const kept = join(root, sampleRel);
    const before = await stat(kept);
    const added = `${line(1)}\n${line(2)}\n`;
    await appendFile(t.vendor(sampleRel), added);
    const r = await (await t.catalog()).keep({ ids: [sampleId] });
    expect(r.sessions[0]).toMatchObject({ extended: [sampleRel], copied: [], refreshed: [], failed: [] });
    const after = await stat(kept);
    expect(after.ino).toBe(before.ino);
    expect(after.size - before.size).toBe(Buffer.byteLength(added));
    // Buffer#equals: a deep toEqual over 774 KB is needlessly slow.
    expect((await readFile(kept)).equals(await readFile(t.vendor(sampleRel)))).toBe(true);
    expect((await readdir(join(root, 'projects/-sample-project'))).filter((n) => n.endsWith('.bak'))).toEqual([]);
  });

  it('refreshes a same-size edit, keeping the previous kept bytes as a numbered backup', async () => {
    const t = await claudeHome();
    await (await t.catalog()).keep({ ids: [smallId] });
    const root = await onlyRoot(await t.catalog());
    const rel = mainRel('-sample-project', smallId);
    const original = await readFile(t.vendor(rel));
    const edited = Buffer.from(original);
    edited.write('X', edited.length - 20);
    await writeFile(t.vendor(rel), edited);
    await utimes(t.vendor(rel), new Date(), new Date(Date.now() + 5000));
    const r = await (await t.catalog()).keep({ ids: [smallId] });
    expect(r.sessions[0]).toMatchObject({ refreshed: [rel] });
    expect((await readFile(join(root, rel))).equals(edited)).toBe(true);
    expect((await readFile(join(root, `${rel}.1.bak`))).equals(original)).toBe(true);
    // A second rewrite makes backup 2; the first stays.
    const shrunk = original.subarray(0, 100);
    await writeFile(t.vendor(rel), shrunk);
    expect((await (await t.catalog()).keep({ ids: [smallId] })).sessions[0]?.refreshed).toEqual([rel]);
    expect((await readFile(join(root, `${rel}.2.bak`))).equals(edited)).toBe(true);
    expect((await readFile(join(root, `${rel}.1.bak`))).equals(original)).toBe(true);
    expect((await readFile(join(root, rel))).equals(shrunk)).toBe(true);
  });

  it('verifies a same-size file whose time alone changed, and skips it', async () => {
    const t = await claudeHome();
    await (await t.catalog()).keep({ ids: [smallId] });
    const rel = mainRel('-sample-project', smallId);
    await utimes(t.vendor(rel), new Date(), new Date(Date.now() + 9000));
    const r = await (await t.catalog()).keep({ ids: [smallId] });
    expect(r.sessions[0]).toMatchObject({ skipped: [rel], refreshed: [] });
  });

  it('refreshes a grown file whose kept bytes are no longer its prefix', async () => {
    const t = await claudeHome();
    await (await t.catalog()).keep({ ids: [demoId] });
    const root = await onlyRoot(await t.catalog());
    const old = await readFile(t.vendor(demoRel));
    const diverged = Buffer.concat([Buffer.from(old.toString().replace('Delegate', 'DELEGATE')), Buffer.from(`${line(3)}\n`)]);
    await writeFile(t.vendor(demoRel), diverged);
    const r = await (await t.catalog()).keep({ ids: [demoId] });
    expect(r.sessions[0]).toMatchObject({ refreshed: [demoRel], extended: [] });
    expect((await readFile(join(root, demoRel))).equals(diverged)).toBe(true);
    expect((await readFile(join(root, `${demoRel}.1.bak`))).equals(old)).toBe(true);
  });

  it('never deletes what the vendor deleted, and keeps a session kept from custody a no-op', async () => {
    const t = await claudeHome();
    await (await t.catalog()).keep({ ids: [demoId] });
    const root = await onlyRoot(await t.catalog());
    const subBytes = await readFile(t.vendor(demoSub));
    await rm(t.vendor(demoSub));
    const r1 = await (await t.catalog()).keep({ ids: [demoId] });
    expect(r1.sessions[0]?.skipped.length).toBeGreaterThan(0);
    expect(await readFile(join(root, demoSub))).toEqual(subBytes);
    await rm(t.vendor('projects/-subagent-demo'), { recursive: true });
    const before = await treeBytes(root);
    const r2 = await (await t.catalog()).keep({ ids: [demoId] });
    expect(r2.sessions).toEqual([
      {
        agent: 'claude_code',
        session_id: demoId,
        root: 'kept',
        installation: root.split('/').at(-1),
        copied: [],
        extended: [],
        refreshed: [],
        skipped: [],
        failed: [],
      },
    ]);
    expect(await treeBytes(root)).toEqual(before);
  });

  it("reports one file's failure and keeps the rest", async () => {
    const t = await claudeHome();
    const reader = jsonlReader({
      extraTree: () => [
        { relPath: '../escape.jsonl', kind: 'file', path: '/etc/hostname' },
        { relPath: 'exports/db.jsonl', kind: 'export', produce: async () => Buffer.from('{"row":1}\n') },
      ],
    });
    await writeSession(t.claude, 's1', [line(1)]);
    const catalog = await t.catalog({ agents: [{ reader, homes: [t.claude] }] });
    const r = await catalog.keep();
    expect(r.sessions[0]?.copied).toEqual(['exports/db.jsonl', 'sessions/s1.jsonl']);
    expect(r.sessions[0]?.failed).toEqual([expect.objectContaining({ path: '../escape.jsonl', code: 'UnsafePath' })]);
    expect(r.totals.failed).toBe(1);
    // An export is verified by content: unchanged is a skip.
    expect((await catalog.keep()).sessions[0]?.skipped).toEqual(['exports/db.jsonl', 'sessions/s1.jsonl']);
  });

  it('keeps into a named installation and refuses that name for another home', async () => {
    const t = await claudeHome();
    const r = await (await t.catalog()).keep({ ids: [demoId], installationName: 'laptop' });
    expect(r.installations[0]?.key).toBe('laptop');
    expect(await readFile(join(t.state, 'kept/laptop', demoRel))).toEqual(await readFile(t.vendor(demoRel)));
    const other = join(t.home, 'other-claude');
    await mkdir(join(other, 'projects/-p'), { recursive: true });
    await writeFile(join(other, 'projects/-p', `${demoId}.jsonl`), await readFile(t.vendor(demoRel)));
    const catalog = await t.catalog({ agents: [{ reader: (await t.catalog()).scopes[0]!.reader, homes: [other] }] });
    await expect(catalog.keep({ installationName: 'laptop' })).rejects.toMatchObject({ code: 'InstallationKeyTaken' });
  });
});

describe.skipIf(!hasCorpus)('keep refuses symbolic links', () => {
  it('in the vendor tree: a linked file, a linked main transcript, a linked folder', async () => {
    const t = await claudeHome();
    const outside = await tempDir('agentlog-outside-');
    await writeFile(join(outside, 'secret.jsonl'), '{"secret":true}\n');
    await mkdir(join(outside, 'dir'));
    await writeFile(join(outside, 'dir', 'agent-x.jsonl'), '{"secret":true}\n');
    const subDir = t.vendor(`projects/-subagent-demo/${demoId}/subagents`);
    await symlink(join(outside, 'secret.jsonl'), join(subDir, 'agent-evil.jsonl'));
    const reader = jsonlReader({
      extraTree: (s) =>
        s.sessionId === 'plain'
          ? [{ relPath: 'sessions/linked-dir/agent-x.jsonl', kind: 'file', path: join(s.home, 'sessions/linked-dir/agent-x.jsonl') }]
          : [],
    });
    await mkdir(t.vendor('sessions'), { recursive: true });
    await symlink(join(outside, 'secret.jsonl'), t.vendor('sessions/linkedmain.jsonl'));
    await writeSession(t.claude, 'plain', [line(1)]);
    await symlink(join(outside, 'dir'), t.vendor('sessions/linked-dir'));
    const claudeCatalog = await t.catalog();
    const claude = await claudeCatalog.keep();
    const failedPaths = claude.sessions.flatMap((s) => s.failed.map((f) => [f.path, f.code]));
    expect(failedPaths).toContainEqual([`projects/-subagent-demo/${demoId}/subagents/agent-evil.jsonl`, 'UnsafePath']);
    const generic = await (await t.catalog({ agents: [{ reader, homes: [t.claude] }] })).keep();
    const all = generic.sessions.flatMap((s) => s.failed.map((f) => [s.session_id, f.path, f.code]));
    expect(all).toContainEqual(['linkedmain', 'sessions/linkedmain.jsonl', 'UnsafePath']);
    expect(all).toContainEqual(['plain', 'sessions/linked-dir/agent-x.jsonl', 'UnsafePath']);
    const keptFiles = [...(await treeBytes(t.state)).values()].map((b) => Buffer.from(b, 'base64').toString());
    expect(keptFiles.some((c) => c.includes('secret'))).toBe(false);
  });

  it('in the custody root: a linked installation folder, a linked subfolder, a linked kept file, a planted temp link', async () => {
    const t = await claudeHome();
    await (await t.catalog()).keep({ ids: [demoId] });
    const root = await onlyRoot(await t.catalog());
    const outside = await tempDir('agentlog-outside-');
    // A kept file replaced by a link: refused, the target untouched.
    await writeFile(join(outside, 'target'), 'untouched');
    await rm(join(root, demoSub));
    await symlink(join(outside, 'target'), join(root, demoSub));
    await appendFile(t.vendor(demoSub), `${line(9)}\n`);
    const r1 = await (await t.catalog()).keep({ ids: [demoId] });
    expect(r1.sessions[0]?.failed).toEqual([expect.objectContaining({ path: demoSub, code: 'UnsafePath' })]);
    expect(await readFile(join(outside, 'target'), 'utf8')).toBe('untouched');
    // A link planted at the temp name a copy would use.
    const tmp = join(root, 'projects/-sample-project/.1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl.keep-tmp');
    await mkdir(join(root, 'projects/-sample-project'), { recursive: true, mode: 0o700 });
    await symlink(join(outside, 'target'), tmp);
    const r2 = await (await t.catalog()).keep({ ids: [smallId] });
    expect(r2.sessions[0]?.failed).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'UnsafePath' })]));
    expect(await readFile(join(outside, 'target'), 'utf8')).toBe('untouched');
    // A linked folder inside the kept root.
    await rm(join(root, 'projects/-sample-project'), { recursive: true });
    await mkdir(join(outside, 'proj'));
    await symlink(join(outside, 'proj'), join(root, 'projects/-sample-project'));
    const r3 = await (await t.catalog()).keep({ ids: [sampleId] });
    expect(r3.sessions[0]?.copied).toEqual([]);
    expect(r3.sessions[0]?.failed.every((f) => f.code === 'UnsafePath')).toBe(true);
    expect(await readdir(join(outside, 'proj'))).toEqual([]);
    // The installation folder itself a link.
    const key = root.split('/').at(-1) as string;
    await rm(root, { recursive: true });
    await mkdir(join(outside, 'inst'));
    await symlink(join(outside, 'inst'), root);
    await expect((await t.catalog()).keep({ ids: [demoId], installationName: key })).rejects.toMatchObject({ code: 'UnsafePath' });
    expect(await readdir(join(outside, 'inst'))).toEqual([]);
    expect((await lstat(root)).isSymbolicLink()).toBe(true);
  });
});

describe.skipIf(!hasCorpus)('keep after a crash', () => {
  it('reuses the backup an interrupted refresh linked, and extends safely past it', async () => {
    const t = await claudeHome();
    const reader = jsonlReader();
    await writeSession(t.claude, 's1', [line(1), line(2)]);
    const open = () => t.catalog({ agents: [{ reader, homes: [t.claude] }] });
    await (await open()).keep();
    const root = await onlyRoot(await open());
    const kept = join(root, 'sessions/s1.jsonl');
    // As if a refresh died between linking the backup and renaming the new copy in.
    const { link } = await import('node:fs/promises');
    await link(kept, `${kept}.1.bak`);
    await appendFile(join(t.claude, 'sessions/s1.jsonl'), `${line(3)}\n`);
    const r = await (await open()).keep();
    expect(r.sessions[0]?.extended).toEqual(['sessions/s1.jsonl']);
    expect((await readFile(kept)).equals(await readFile(join(t.claude, 'sessions/s1.jsonl')))).toBe(true);
    expect((await stat(kept)).nlink).toBe(1);
    // A partial append (killed mid-write) is a true prefix: the next keep extends it.
    await truncate(kept, (await stat(kept)).size - 7);
    expect((await (await open()).keep()).sessions[0]?.extended).toEqual(['sessions/s1.jsonl']);
    expect((await readFile(kept)).equals(await readFile(join(t.claude, 'sessions/s1.jsonl')))).toBe(true);
  });
});
