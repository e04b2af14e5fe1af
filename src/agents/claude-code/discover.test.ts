import { chmod, mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyCorpus, corpusPath, hasCorpus, tempDir } from '../../../test/support/temp.js';
import { DiscoveryCache } from '../../scan/discovery-cache.js';
import { claudeCodeReader } from './reader.js';
import { homeOfFile, isUuid } from './layout.js';
import { assistant, jsonl, projectDir, sessionId, user, write, writeMain, writeSubagent } from './test-support/fixtures.js';

const corpusMain = 'claude/projects/-sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl';

describe('homes', () => {
  it('takes CLAUDE_CONFIG_DIR, else <homedir>/.claude', () => {
    expect(claudeCodeReader.homes({ env: () => undefined, homedir: '/h/alice' })).toEqual(['/h/alice/.claude']);
    expect(claudeCodeReader.homes({ env: (n) => (n === 'CLAUDE_CONFIG_DIR' ? '/etc/cc' : undefined), homedir: '/h/alice' })).toEqual([
      '/etc/cc',
    ]);
  });
});

describe('layout', () => {
  it('knows session ids and homes by path', () => {
    expect(isUuid(sessionId)).toBe(true);
    expect(isUuid('agent-a0ad4f44468bdf20d')).toBe(false);
    expect(homeOfFile('/h/.claude/projects/-x/s.jsonl')).toBe('/h/.claude');
    expect(homeOfFile('/h/.claude/projects/-x/s/subagents/agent-a.jsonl')).toBe('/h/.claude');
    expect(homeOfFile('/tmp/logs/s.jsonl')).toBe('/tmp/logs');
  });
});

describe('discover', () => {
  it('is empty for a missing home', async () => {
    const home = join(await tempDir(), 'nope');
    expect(await claudeCodeReader.discover(home)).toEqual({ sessions: [], problems: [] });
  });

  it('lists projects/<dir>/<uuid>.jsonl with their subagent files, never the subagents as sessions', async () => {
    const home = join(await tempDir(), '.claude');
    const main = await writeMain(home, [user('hi', 1)]);
    const sub = await writeSubagent(home, 'a1', [user('task', 2)], { agentType: 'Explore', toolUseId: 'toolu_1' });
    const other = await writeMain(home, [user('other', 3)], '22222222-2222-4333-8444-555555555555', '-work-other');
    const d = await claudeCodeReader.discover(home);
    expect(d.problems).toEqual([]);
    expect(d.sessions.map((s) => s.sessionId).sort()).toEqual([sessionId, '22222222-2222-4333-8444-555555555555']);
    const s = d.sessions.find((x) => x.sessionId === sessionId);
    expect(s?.path).toBe(main);
    expect(s?.home).toBe(home);
    expect(s?.files.map((f) => f.path)).toEqual([main, sub, sub.replace(/\.jsonl$/, '.meta.json')]);
    expect(s?.files[0]?.size).toBeGreaterThan(0);
    expect(d.sessions.find((x) => x.path === other)?.files).toHaveLength(1);
    const tree = await claudeCodeReader.tree(s!);
    expect(tree.map((t) => t.relPath)).toEqual([
      `projects/${projectDir}/${sessionId}.jsonl`,
      `projects/${projectDir}/${sessionId}/subagents/agent-a1.jsonl`,
      `projects/${projectDir}/${sessionId}/subagents/agent-a1.meta.json`,
    ]);
  });

  it('attaches a loose agent-*.jsonl (older builds) to the session its lines name', async () => {
    const home = join(await tempDir(), '.claude');
    const main = await writeMain(home, [user('hi', 1)]);
    const loose = await write(
      join(home, 'projects', projectDir, 'agent-abc.jsonl'),
      jsonl([user('side', 2, { isSidechain: true, agentId: 'abc' })]),
    );
    const d = await claudeCodeReader.discover(home);
    expect(d.sessions).toHaveLength(1);
    expect(d.sessions[0]?.files.map((f) => f.path)).toEqual([main, loose]);
  });

  it.skipIf(!hasCorpus)('lists an agent file whose session is gone as that session (the corpus agent-test-hash-123)', async () => {
    const home = join(await tempDir(), '.claude');
    const dest = join(home, 'projects', '-sample-project');
    await copyCorpus('claude/projects/-sample-project/agent-test-hash-123.jsonl', join(dest, 'agent-test-hash-123.jsonl'));
    await copyCorpus(corpusMain, join(dest, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'));
    const d = await claudeCodeReader.discover(home);
    const ids = d.sessions.map((s) => s.sessionId).sort();
    // Its lines name session 5c0375b4-…, whose main file is not there.
    expect(ids).toEqual(['5c0375b4-57a5-4f26-b12d-d022ee4e51b7', 'fe5e1c67-53e7-4862-81ae-d0e013e3270b']);
    expect(d.sessions.find((s) => s.sessionId.startsWith('5c03'))?.files.map((f) => f.path)).toEqual([
      join(dest, 'agent-test-hash-123.jsonl'),
    ]);
  });

  it('joins a subagents folder left under another project folder by session id', async () => {
    const home = join(await tempDir(), '.claude');
    const main = await writeMain(home, [user('hi', 1)]);
    const sub = await writeSubagent(home, 'a9', [user('task', 2)], undefined, sessionId, '-work-demo-worktree');
    const d = await claudeCodeReader.discover(home);
    expect(d.sessions).toHaveLength(1);
    expect(d.sessions[0]?.files.map((f) => f.path)).toEqual([main, sub]);
  });

  it('reports an unreadable project folder and goes on', async () => {
    if (process.getuid?.() === 0) return; // root reads everything
    const home = join(await tempDir(), '.claude');
    await writeMain(home, [user('hi', 1)]);
    const locked = join(home, 'projects', '-locked');
    await mkdir(locked, { recursive: true });
    await chmod(locked, 0);
    const d = await claudeCodeReader.discover(home);
    await chmod(locked, 0o700);
    expect(d.sessions).toHaveLength(1);
    expect(d.problems.map((p) => p.path)).toEqual([locked]);
  });
});

describe('discover through a discovery cache', () => {
  it('answers as from the disk, cold and warm, a non-UTF-8 project folder included, and sees a new session in an old folder', async () => {
    const home = join(await tempDir(), '.claude');
    await writeMain(home, [user('hi', 1)]);
    await write(join(home, 'projects', projectDir, 'agent-abc.jsonl'), jsonl([user('side', 2, { isSidechain: true, agentId: 'abc' })]));
    await writeSubagent(home, 'a1', [user('task', 2)]);
    // A project folder whose name is not UTF-8: listed and opened through its bytes, never cached.
    const odd = Buffer.concat([Buffer.from(join(home, 'projects', '-odd')), Buffer.from([0xff])]);
    await mkdir(odd);
    await writeFile(Buffer.concat([odd, Buffer.from('/22222222-2222-4333-8444-555555555555.jsonl')]), jsonl([user('odd', 1)]));
    const old = Math.floor(Date.now() / 1000) - 3600;
    const folder = join(home, 'projects', projectDir);
    await utimes(folder, old, old);
    const cache = await DiscoveryCache.open(join(await tempDir(), 'cache.json'), 't', () => Date.now() + 60_000);
    const plain = await claudeCodeReader.discover(home);
    expect(plain.sessions).toHaveLength(2);
    expect(await claudeCodeReader.discover(home, cache)).toEqual(plain);
    await cache.save();
    const before = { ...cache.stats };
    expect(await claudeCodeReader.discover(home, cache)).toEqual(plain);
    expect(cache.stats.dirHits).toBeGreaterThan(before.dirHits);
    expect(cache.stats.factHits).toBeGreaterThan(before.factHits);
    await cache.save();

    await writeMain(home, [user('new', 3)], '33333333-2222-4333-8444-555555555555');
    await utimes(folder, old, old);
    const after = await claudeCodeReader.discover(home, cache);
    expect(after).toEqual(await claudeCodeReader.discover(home));
    expect(after.sessions).toHaveLength(3);
  });
});

describe('claim', () => {
  it.skipIf(!hasCorpus)('claims a loose Claude Code file anywhere, its folder as the home', async () => {
    const path = corpusPath('claude/loose/schema_coverage_small.jsonl');
    const s = await claudeCodeReader.claim(path);
    expect(s).toMatchObject({ agent: 'claude_code', sessionId: 'ses_stage0_small', path, home: corpusPath('claude/loose') });
    expect((await claudeCodeReader.claim(corpusPath('claude/loose/schema_drift.jsonl')))?.sessionId).toBe('ses_stage0_drift');
  });

  it('does not claim other agents’ logs, empty or binary files, or non-.jsonl paths', async () => {
    const dir = await tempDir();
    expect(await claudeCodeReader.claim(corpusPath('codex/loose/schema_coverage_small.jsonl'))).toBeNull();
    expect(await claudeCodeReader.claim(await write(join(dir, 'empty.jsonl'), ''))).toBeNull();
    expect(await claudeCodeReader.claim(await write(join(dir, 'bin.jsonl'), Buffer.from([0, 1, 2, 255, 10, 0])))).toBeNull();
    expect(await claudeCodeReader.claim(await write(join(dir, 'x.json'), jsonl([user('hi', 1)])))).toBeNull();
    expect(await claudeCodeReader.claim(join(dir, 'missing.jsonl'))).toBeNull();
  });

  it('claims no other agent’s corpus log (Claude Code is tried first)', async () => {
    for (const rel of [
      'codex/loose/schema_drift.jsonl',
      'gemini/loose/jsonl_v040.jsonl',
      'pi/loose/large-session.jsonl',
      'kimi/loose/assistant_tools.wire.jsonl',
      'codex/sessions/2026/02/23/rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl',
    ]) {
      expect(await claudeCodeReader.claim(corpusPath(rel))).toBeNull();
    }
  });

  it('claims a subagent transcript as its parent session', async () => {
    const home = join(await tempDir(), '.claude');
    const main = await writeMain(home, [user('hi', 1), assistant('m1', [{ type: 'text', text: 'ok' }], 2)]);
    const sub = await writeSubagent(home, 'a1', [user('task', 2, { isSidechain: true, agentId: 'a1' })], { agentType: 'Explore' });
    const s = await claudeCodeReader.claim(sub);
    expect(s?.path).toBe(main);
    expect(s?.sessionId).toBe(sessionId);
    expect(s?.home).toBe(home);
    expect(s?.files.map((f) => f.path)).toContain(sub);
    expect((await claudeCodeReader.claim(main))?.files).toHaveLength(3);
  });
});
