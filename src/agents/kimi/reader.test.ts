import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyCorpus, hasCorpus, tempDir } from '../../../test/support/temp.js';
import type { SessionRecord, Turn } from '../../record/types.js';
import { DiscoveryCache } from '../../scan/discovery-cache.js';
import { kimiReader } from './index.js';
import { prompt, step, writeSession } from './test-support/wire.js';

const sessionId = 'session_1bcbe023-4f7e-4971-9dc9-43b8756045b0';
const key = 'wd_project_ac3bb318f98e';

/** The corpus wires and state file laid out as Kimi Code lays out its home. */
async function corpusHome(): Promise<{ home: string; dir: string }> {
  const home = join(await tempDir(), '.kimi-code');
  const dir = join(home, 'sessions', key, sessionId);
  await copyCorpus('kimi/loose/assistant_tools.state.json', join(dir, 'state.json'));
  await copyCorpus('kimi/loose/assistant_tools.wire.jsonl', join(dir, 'agents', 'main', 'wire.jsonl'));
  await copyCorpus('kimi/loose/subagent_agent-0.wire.jsonl', join(dir, 'agents', 'agent-0', 'wire.jsonl'));
  await mkdir(join(dir, 'agents', 'main', 'plans'), { recursive: true });
  await writeFile(join(dir, 'agents', 'main', 'plans', 'zatanna-moon-knight-groot.md'), '# Plan\n');
  await writeFile(
    join(home, 'session_index.jsonl'),
    `${JSON.stringify({ sessionId, sessionDir: dir, workDir: '/private/tmp/as-agent-lab/kimi/project' })}\n`,
  );
  return { home, dir };
}

async function parseOnly(home: string): Promise<SessionRecord> {
  const found = await kimiReader.discover(home);
  expect(found.sessions).toHaveLength(1);
  const parsed = await kimiReader.parse(found.sessions[0]!, { detail: 'full' });
  expect(parsed.problems).toEqual([]);
  expect(parsed.badLines).toEqual([]);
  return parsed.record!;
}

const calls = (turns: readonly Turn[]) => turns.flatMap((t) => t.tool_calls ?? []);

describe.skipIf(!hasCorpus)('kimiReader over the real wires', () => {
  it('discovers the session folder once, main wire first, with the index working directory', async () => {
    const { home, dir } = await corpusHome();
    const found = await kimiReader.discover(home);
    expect(found.problems).toEqual([]);
    expect(found.sessions).toHaveLength(1);
    const s = found.sessions[0]!;
    expect(s).toMatchObject({ agent: 'kimi', sessionId, home, path: dir, cwd: '/private/tmp/as-agent-lab/kimi/project' });
    expect(s.files.map((f) => relative(dir, f.path))).toEqual(['agents/main/wire.jsonl', 'state.json', 'agents/agent-0/wire.jsonl']);
  });

  it('reads prompts, steps, tools, tokens and the compaction of the main wire', async () => {
    const { home } = await corpusHome();
    const r = await parseOnly(home);
    expect(r).toMatchObject({
      agent: 'kimi',
      session_id: sessionId,
      repo: '/private/tmp/as-agent-lab/kimi/project',
      models: ['kimi-k2.7-code'],
    });
    expect(r.started_at).toBe('2026-08-01T19:33:23.281Z');
    expect(r.ended_at).toBe('2026-08-01T21:17:44.679Z');
    // Every usage.record line is one model call, the compaction's included: summed once each.
    expect(r.totals).toEqual({
      input_tokens: 30174,
      output_tokens: 5515,
      cache_read_tokens: 661504,
      cache_creation_tokens: 0,
      reasoning_tokens: 0,
      cost_usd: null,
    });
    const users = r.turns.filter((t) => t.role === 'user').map((t) => t.text);
    expect(users).toEqual([
      'hi',
      'hi',
      'hi',
      'run ls command',
      'cat /nonexistent-file-xyz',
      'run subagent to count swift files in this repo',
      'plan counting all html files in this repo',
      'read README.md then grep for "Kimi"',
    ]);
    expect(r.turns.filter((t) => t.role === 'reasoning')).toHaveLength(22);
    expect(calls(r.turns)).toHaveLength(19);
    expect(r.turns.at(-1)).toEqual({ role: 'event', at: '2026-08-01T21:17:44.648Z', text: 'context compacted' });
    const failed = calls(r.turns).find((c) => c.input === 'cat /nonexistent-file-xyz');
    expect(failed).toMatchObject({ name: 'Bash', format: 'shell', status: 'error', exit_code: 1 });
    const write = calls(r.turns).find((c) => c.name === 'Write');
    expect(write).toMatchObject({ format: 'text', status: 'ok' });
    expect(write?.path).toMatch(/plans\/zatanna-moon-knight-groot\.md$/);
    expect(r.turns.filter((t) => t.role === 'assistant').every((t) => t.model === 'kimi-k2.7-code')).toBe(true);
  });

  it("nests the child wire in the Agent call that launched it, with the child's last words as output", async () => {
    const { home } = await corpusHome();
    const r = await parseOnly(home);
    const agent = calls(r.turns).find((c) => c.name === 'Agent');
    expect(agent?.input).toMatch(/^Count all Swift files/);
    expect(agent?.output).toMatch(/^\*\*Exact count:\*\* 3,124 Swift files/);
    const sub = agent?.subagent;
    expect(sub).toMatchObject({
      id: 'agent-0',
      name: 'explore',
      description: 'Count Swift files in repo',
      models: ['kimi-k2.7-code'],
      status: 'completed',
      started_at: '2026-08-01T20:15:59.837Z',
      ended_at: '2026-08-01T20:16:29.008Z',
    });
    expect(sub?.totals).toEqual({
      input_tokens: 12905,
      output_tokens: 330,
      cache_read_tokens: 28416,
      cache_creation_tokens: 0,
      reasoning_tokens: 0,
      cost_usd: null,
    });
    // The child's task arrives as a system-triggered prompt: it is the subagent's first user turn.
    expect(sub?.turns.map((t) => t.role)).toEqual(['user', 'reasoning', 'assistant', 'reasoning', 'assistant', 'reasoning', 'assistant']);
    expect(sub?.turns[0]?.text).toMatch(/^<git-context>/);
    expect(calls(sub?.turns ?? []).map((c) => c.name)).toEqual(['Glob', 'Bash']);
  });

  it('reads the second real state file around a wire of its own', async () => {
    const home = join(await tempDir(), '.kimi-code');
    const dir = join(home, 'sessions', 'wd_project_ac3bb318f98e', 'session_9eb1bf57-c1af-48a5-b658-0e8d9fe794f5');
    await copyCorpus('kimi/loose/state.json', join(dir, 'state.json'));
    await writeSession(
      home,
      'session_9eb1bf57-c1af-48a5-b658-0e8d9fe794f5',
      { wires: { main: [prompt('hi', 1), ...step('s1', 2, { text: 'Hello!' })] } },
      'wd_project_ac3bb318f98e',
    );
    const r = await parseOnly(home);
    expect(r.repo).toBe('/private/tmp/as-agent-lab/kimi/project');
    expect(r.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello!'],
    ]);
  });

  it('claims the folder, its state.json or a wire, and nothing else', async () => {
    const { home, dir } = await corpusHome();
    for (const path of [dir, join(dir, 'state.json'), join(dir, 'agents', 'agent-0', 'wire.jsonl')]) {
      const s = await kimiReader.claim(path);
      expect(s).toMatchObject({ agent: 'kimi', sessionId, path: dir, home });
    }
    expect(await kimiReader.claim(join(dir, 'agents'))).toBeNull();
    expect(await kimiReader.claim(join(home, 'session_index.jsonl'))).toBeNull();
    expect(await kimiReader.claim(join(home, 'missing'))).toBeNull();
  });

  it('keeps every file of the folder in the custody tree, named from the home', async () => {
    const { home, dir } = await corpusHome();
    const s = (await kimiReader.claim(dir))!;
    const tree = await kimiReader.tree(s);
    expect(tree.map((e) => e.relPath)).toEqual([
      `sessions/${key}/${sessionId}/agents/agent-0/wire.jsonl`,
      `sessions/${key}/${sessionId}/agents/main/plans/zatanna-moon-knight-groot.md`,
      `sessions/${key}/${sessionId}/agents/main/wire.jsonl`,
      `sessions/${key}/${sessionId}/state.json`,
    ]);
    expect(tree.every((e) => e.kind === 'file' && e.path === join(home, e.relPath))).toBe(true);
  });
});

describe('kimiReader homes and discovery', () => {
  it('looks in KIMI_CODE_HOME (else ~/.kimi-code) and the legacy ~/.kimi', () => {
    const env = (vars: Record<string, string>) => ({ env: (n: string) => vars[n], homedir: '/home/u' });
    expect(kimiReader.homes(env({}))).toEqual(['/home/u/.kimi-code', '/home/u/.kimi']);
    expect(kimiReader.homes(env({ KIMI_CODE_HOME: '/x/kimi' }))).toEqual(['/x/kimi', '/home/u/.kimi']);
  });

  it.skipIf(!hasCorpus)('finds nothing in a missing home and ignores folders without a main wire', async () => {
    const root = await tempDir();
    expect(await kimiReader.discover(join(root, 'nope'))).toEqual({ sessions: [], problems: [] });
    const home = join(root, '.kimi-code');
    await copyCorpus('kimi/loose/state.json', join(home, 'sessions', 'wd_x', 'session_only-state', 'state.json'));
    await writeSession(home, 'session_child-only', { wires: { 'agent-0': [prompt('x', 1)] } });
    await writeSession(home, 'not-a-session', { wires: { main: [prompt('x', 1)] } });
    expect((await kimiReader.discover(home)).sessions).toEqual([]);
  });

  it('takes index entries inside sessions/ only, and walks when the index is missing', async () => {
    const root = await tempDir();
    const home = join(root, '.kimi-code');
    const inside = await writeSession(home, 'session_a', { wires: { main: [prompt('a', 1)] } }, 'deep/er');
    const outside = await writeSession(join(root, 'elsewhere'), 'session_b', { wires: { main: [prompt('b', 1)] } });
    await writeFile(
      join(home, 'session_index.jsonl'),
      [
        { sessionId: 'session_a', sessionDir: inside },
        { sessionId: 'session_b', sessionDir: outside },
      ]
        .map((o) => JSON.stringify(o))
        .join('\n'),
    );
    const found = await kimiReader.discover(home);
    expect(found.sessions.map((s) => s.path)).toEqual([inside]);
  });
});

describe('kimi discovery through a discovery cache', () => {
  it('answers as from the disk, cold and warm, and sees a new subagent and a new session in old folders', async () => {
    const home = join(await tempDir(), '.kimi-code');
    const dir = await writeSession(home, 'session_a', { wires: { main: [prompt('a', 1)] } });
    const old = Math.floor(Date.now() / 1000) - 3600;
    const folders = [join(home, 'sessions'), join(dir, '..'), dir, join(dir, 'agents')];
    const pinAll = async () => {
      for (const f of folders) await utimes(f, old, old);
    };
    await pinAll();
    const cache = await DiscoveryCache.open(join(await tempDir(), 'cache.json'), 't', () => Date.now() + 60_000);
    const plain = await kimiReader.discover(home);
    expect(await kimiReader.discover(home, cache)).toEqual(plain);
    await cache.save();
    expect(await kimiReader.discover(home, cache)).toEqual(plain);
    expect(cache.stats.dirHits).toBeGreaterThanOrEqual(3);
    await cache.save();

    // A subagent's wire, and another session in the same project folder, the folders' times put
    // back (a coarse clock): their ctimes moved, so they are listed again.
    await writeSession(home, 'session_a', { wires: { main: [prompt('a', 1)], sub1: [prompt('s', 2)] } });
    await writeSession(home, 'session_b', { wires: { main: [prompt('b', 1)] } });
    await pinAll();
    const after = await kimiReader.discover(home, cache);
    expect(after).toEqual(await kimiReader.discover(home));
    expect(after.sessions.map((s) => [s.sessionId, s.files.length])).toEqual([
      ['session_a', 2],
      ['session_b', 1],
    ]);
  });
});
