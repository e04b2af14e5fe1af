import { appendFile, mkdir, readFile, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { hasCorpus, tempDir } from '../../test/support/temp.js';
import { piReader } from '../agents/pi/reader.js';
import { Catalog } from './catalog.js';
import { claudeCodeReader } from '../agents/claude-code/reader.js';
import type { AgentReader } from '../agents/types.js';
import { claudeHome, demoAgent, demoId, mainRel, smallId, type TestHome } from './test-support/homes.js';

const hour = 3600_000;
// An hour ahead: every file and folder the test writes is older than the racy margin, as a real
// home's are (a folder's ctime cannot be put back, so ageing the files would not do).
const later = (): number => Date.now() + hour;
const smallRel = mainRel('-sample-project', smallId);
const demoRel = mainRel('-subagent-demo', demoId);
const subRel = `projects/-subagent-demo/${demoId}/subagents/agent-${demoAgent}.jsonl`;
const metaRel = `projects/-subagent-demo/${demoId}/subagents/agent-${demoAgent}.meta.json`;

/** A Claude Code home whose reader counts the trees it is asked for. */
async function countedHome(): Promise<{ t: TestHome; trees: string[] }> {
  const trees: string[] = [];
  const reader: AgentReader = {
    ...claudeCodeReader,
    tree: (s) => {
      trees.push(s.sessionId);
      return claudeCodeReader.tree(s);
    },
  };
  return { t: await claudeHome([reader]), trees };
}

/** Sets every file under `dir` to an mtime an hour ago. */
async function age(dir: string): Promise<void> {
  const at = new Date(Date.now() - hour);
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await age(p);
    else if (e.isFile()) await utimes(p, at, at);
  }
}

const keep = async (t: TestHome, now = later) => (await t.catalog({ now })).keep();

async function keptRoot(t: TestHome): Promise<string> {
  const [key] = await readdir(join(t.state, 'kept'));
  return join(t.state, 'kept', key as string);
}

const resultRel = `projects/-subagent-demo/${demoId}/tool-results/r1.txt`;

/** A home kept once (marks recorded), its reader's tree count reset; with a tool result discovery does not list. */
async function markedHome(): Promise<{ t: TestHome; trees: string[] }> {
  const h = await countedHome();
  await mkdir(dirname(h.t.vendor(resultRel)));
  await writeFile(h.t.vendor(resultRel), 'result\n');
  const first = await keep(h.t);
  expect(first.totals).toMatchObject({ copied: 7, failed: 0 });
  h.trees.length = 0;
  return h;
}

/**
 * A reader whose session is a folder and its descendants' folders (as Cline's and Intendant's are):
 * discovery gives the files of `folders`, the tree every file in their folders.
 */
function foldersReader(folders: () => string[]): AgentReader {
  const filesIn = (dir: string): string[] => readdirSync(dir).map((n) => join(dir, n));
  const { custody: _hooks, ...plain } = piReader;
  return {
    ...plain,
    claim: async () => null,
    async discover(home) {
      const files = folders().map((f) => join(home, f, 'main.jsonl'));
      const stamps = await Promise.all(
        files.map(async (path) => ({ path, size: (await stat(path)).size, mtimeMs: (await stat(path)).mtimeMs })),
      );
      return { sessions: [{ agent: 'pi', sessionId: 'a', home, path: join(home, 'a'), files: stamps }], problems: [] };
    },
    async tree(session) {
      const paths = [...new Set(session.files.map((f) => dirname(f.path)))].flatMap(filesIn);
      return paths.map((path) => ({ relPath: relative(session.home, path), kind: 'file' as const, path }));
    },
  };
}

describe('session marks, any reader', () => {
  it('hold only for the discovered files the tree was made from', async () => {
    const home = await tempDir('agentlog-mark-');
    for (const f of ['a', 'b']) {
      await mkdir(join(home, f));
      await writeFile(join(home, f, 'main.jsonl'), '{"n":1}\n');
    }
    let folders = ['a', 'b'];
    const catalog = () =>
      Catalog.open({
        stateRoot: join(home, 'state'),
        agents: [{ reader: foldersReader(() => folders), homes: [home] }],
        version: 't',
        now: later,
      });
    expect((await (await catalog()).keep()).totals).toMatchObject({ copied: 2, failed: 0 });
    // A keep given fewer files (a keep by id can be) makes a narrower tree and mark.
    folders = ['a'];
    await appendFile(join(home, 'a', 'main.jsonl'), '{"n":2}\n');
    expect((await (await catalog()).keep({ ids: ['a'] })).totals).toMatchObject({ extended: 1, failed: 0 });
    await writeFile(join(home, 'b', 'new.txt'), 'new\n');
    folders = ['a', 'b'];
    expect((await (await catalog()).keep()).totals).toMatchObject({ copied: 1, skipped: 2, failed: 0 });
  });
});

describe.skipIf(!hasCorpus)('session marks', () => {
  it('keep an unchanged session without asking its reader for the tree, and record nothing new', async () => {
    const { t, trees } = await markedHome();
    const manifest = join(await keptRoot(t), '.keep-manifest');
    const before = await stat(manifest);
    const again = await keep(t);
    expect(again.totals).toMatchObject({ skipped: 7, copied: 0, extended: 0, refreshed: 0, failed: 0 });
    expect(trees).toEqual([]);
    expect((await stat(manifest)).mtimeMs).toBe(before.mtimeMs);
    // The same files are reported, session by session, as the full path reports them.
    const demo = again.sessions.find((s) => s.session_id === demoId);
    expect(demo?.skipped).toEqual([demoRel, metaRel, subRel, resultRel].sort());
  });

  it('never vouch for a grown file, whether discovery or the keep stat it', async () => {
    const { t, trees } = await markedHome();
    await appendFile(t.vendor(subRel), '{"type":"user","uuid":"x"}\n');
    let again = await keep(t);
    expect(again.totals).toMatchObject({ extended: 1, failed: 0 });
    expect(trees).toEqual([demoId]);
    await appendFile(t.vendor(smallRel), '{"type":"user","uuid":"y"}\n');
    again = await keep(t);
    expect(again.totals).toMatchObject({ extended: 1, failed: 0 });
    expect(await readFile(join(await keptRoot(t), smallRel), 'utf8')).toBe(await readFile(t.vendor(smallRel), 'utf8'));
    // A file of the tree that discovery does not list (a tool result): the keep's own lstat.
    await appendFile(t.vendor(resultRel), 'more\n');
    again = await keep(t);
    expect(again.totals).toMatchObject({ extended: 1, failed: 0 });
    expect(again.sessions.find((s) => s.session_id === demoId)?.extended).toEqual([resultRel]);
  });

  it('never vouch for a file replaced by another of the same size and time', async () => {
    const { t } = await markedHome();
    const path = t.vendor(smallRel);
    const st = await stat(path);
    const bytes = await readFile(path);
    const other = Buffer.from(bytes);
    other.fill(0x20, other.length - 10, other.length - 1);
    await writeFile(`${path}.new`, other);
    await utimes(`${path}.new`, st.atime, st.mtime);
    await rename(`${path}.new`, path);
    const again = await keep(t);
    expect(again.totals).toMatchObject({ refreshed: 1, failed: 0 });
    expect(await readFile(join(await keptRoot(t), smallRel))).toEqual(other);
  });

  it('ask the reader again once a file of the tree is deleted', async () => {
    const { t, trees } = await markedHome();
    await rm(t.vendor(metaRel));
    const again = await keep(t);
    expect(trees).toEqual([demoId]);
    const demo = again.sessions.find((s) => s.session_id === demoId);
    expect(demo?.skipped).toEqual([demoRel, subRel, resultRel].sort());
    // The kept copy stays: custody never deletes.
    await stat(join(await keptRoot(t), metaRel));
  });

  it('find a file that appears in a folder that was empty when the mark was made', async () => {
    const { t, trees } = await countedHome();
    const empty = t.vendor(`projects/-subagent-demo/${demoId}/tool-results`);
    await mkdir(empty);
    expect((await keep(t)).totals).toMatchObject({ copied: 6, failed: 0 });
    await writeFile(join(empty, 'r1.txt'), 'result\n');
    trees.length = 0;
    const again = await keep(t);
    expect(again.totals).toMatchObject({ copied: 1, failed: 0 });
    expect(trees).toEqual([demoId]);
  });

  it('make no mark for folders changed just before the keep began (the racy rule)', async () => {
    const { t, trees } = await countedHome();
    // The real clock, files an hour old (each vouched for), folders just made (a ctime cannot be put back).
    await age(t.claude);
    const first = await keep(t, Date.now);
    expect(first.totals).toMatchObject({ copied: 6, failed: 0 });
    trees.length = 0;
    const again = await keep(t, Date.now);
    expect(again.totals).toMatchObject({ skipped: 6, failed: 0 });
    expect(trees.length).toBe(first.sessions.length);
  });

  it('ignore a malformed mark (the reader is asked, the mark made again)', async () => {
    const { t, trees } = await markedHome();
    const manifest = join(await keptRoot(t), '.keep-manifest');
    const doc = JSON.parse(await readFile(manifest, 'utf8')) as { sessions: Record<string, unknown> };
    expect(Object.keys(doc.sessions)).toContain(demoId);
    doc.sessions[demoId] = ['x', 'not a tree', [], []];
    await writeFile(manifest, JSON.stringify(doc));
    expect((await keep(t)).totals).toMatchObject({ skipped: 7, failed: 0 });
    expect(trees).toEqual([demoId]);
    trees.length = 0;
    await keep(t);
    expect(trees).toEqual([]);
  });
});
