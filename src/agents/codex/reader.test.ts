import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { codexReader } from './reader.js';
import { Rollout, writeRollout } from './test-support/rollout-fixture.js';

const lookup = (env: Record<string, string>, homedir = '/home/alice') => ({ env: (name: string) => env[name], homedir });

describe('codex homes', () => {
  it('uses CODEX_HOME, else <homedir>/.codex', () => {
    expect(codexReader.homes(lookup({ CODEX_HOME: '/opt/codex' }))).toEqual(['/opt/codex']);
    expect(codexReader.homes(lookup({}))).toEqual(['/home/alice/.codex']);
  });
});

describe('codex discover', () => {
  it('finds rollouts under sessions/ and archived_sessions/, named by session_meta id', async () => {
    const home = join(await tempDir(), '.codex');
    const a = await writeRollout(home, 'file-name-id', new Rollout('0199-real-id').meta().user('hi'));
    const b = await writeRollout(
      home,
      '0199-archived',
      new Rollout('0199-archived').meta({ cwd: '/work/old' }).user('old'),
      'archived_sessions',
      '2025/12/31',
    );
    await writeFile(join(home, 'sessions', '2026', '10', '01', 'notes.txt'), 'not a rollout');
    const d = await codexReader.discover(home);
    expect(d.problems).toEqual([]);
    const byId = new Map(d.sessions.map((s) => [s.sessionId, s]));
    expect([...byId.keys()].sort()).toEqual(['0199-archived', '0199-real-id']);
    expect(byId.get('0199-real-id')).toMatchObject({ agent: 'codex', home, path: a, cwd: '/work/demo' });
    expect(byId.get('0199-archived')?.files.map((f) => f.path)).toEqual([b]);
    expect(byId.get('0199-archived')?.files[0]?.size).toBeGreaterThan(0);
  });

  it('is empty for a missing home', async () => {
    expect(await codexReader.discover(join(await tempDir(), 'nope'))).toEqual({ sessions: [], problems: [] });
  });

  it('lists an empty or headerless rollout by the id in its name, and parses it to no session', async () => {
    const home = join(await tempDir(), '.codex');
    const path = await writeRollout(home, '0199-empty', '');
    const d = await codexReader.discover(home);
    expect(d.sessions.map((s) => s.sessionId)).toEqual(['0199-empty']);
    const session = d.sessions[0];
    if (session === undefined) throw new Error('no session');
    expect((await codexReader.parse(session, { detail: 'full' })).record).toBeNull();
    expect(session.path).toBe(path);
  });
});

describe('codex claim', () => {
  it('claims a rollout anywhere on disk and nothing else', async () => {
    const dir = await tempDir();
    const loose = join(dir, 'copy.jsonl');
    await writeFile(loose, new Rollout('0199-loose').meta().user('hi').text());
    expect(await codexReader.claim(loose)).toMatchObject({
      agent: 'codex',
      sessionId: '0199-loose',
      path: loose,
      home: dir,
      cwd: '/work/demo',
    });

    const claude = join(dir, 'claude.jsonl');
    await writeFile(
      claude,
      `${JSON.stringify({ type: 'user', sessionId: 's', message: { role: 'user', content: 'hi' }, timestamp: '2026-01-01T00:00:00Z' })}\n`,
    );
    expect(await codexReader.claim(claude)).toBeNull();
    const binary = join(dir, 'bin.jsonl');
    await writeFile(binary, Buffer.from([0, 255, 1, 2, 10, 3]));
    expect(await codexReader.claim(binary)).toBeNull();
    const text = join(dir, 'a.txt');
    await writeFile(text, new Rollout('x').meta().text());
    expect(await codexReader.claim(text)).toBeNull();
    expect(await codexReader.claim(join(dir, 'missing.jsonl'))).toBeNull();
    const empty = join(dir, 'empty.jsonl');
    await writeFile(empty, '');
    expect(await codexReader.claim(empty)).toBeNull();
  });

  it('claims a rollout whose first line is any Codex line, and the 2025 envelope-less layout by name', async () => {
    const dir = await tempDir();
    const noMeta = join(dir, 'x.jsonl');
    await writeFile(noMeta, new Rollout('unused').turnContext().user('hi').text());
    expect(await codexReader.claim(noMeta)).toMatchObject({ sessionId: 'x' });
    await mkdir(join(dir, 'old'));
    const legacy = join(dir, 'old', 'rollout-2025-05-01T10-00-00-0196-legacy.jsonl');
    const lines = [
      { id: '0196-legacy', timestamp: '2025-05-01T10:00:00.000Z', instructions: null },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'old style' }] },
      { record_type: 'state' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] },
    ];
    await writeFile(legacy, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const session = await codexReader.claim(legacy);
    expect(session?.sessionId).toBe('0196-legacy');
    if (session === null) throw new Error('not claimed');
    const parsed = await codexReader.parse(session, { detail: 'full' });
    expect(parsed.record?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'old style'],
      ['assistant', 'done'],
    ]);
  });
});

describe('codex tree', () => {
  it('names each file relative to the home, spawned rollouts included', async () => {
    const home = join(await tempDir(), '.codex');
    await writeRollout(home, '0199-parent', new Rollout('0199-parent').meta().user('go'));
    await writeRollout(
      home,
      '0199-child',
      new Rollout('0199-child')
        .meta({ source: { subagent: { thread_spawn: { parent_thread_id: '0199-parent', depth: 1 } } } })
        .user('task'),
    );
    const [session] = (await codexReader.discover(home)).sessions;
    if (session === undefined) throw new Error('no session');
    const tree = await codexReader.tree(session);
    expect(tree.map((e) => e.relPath)).toEqual([
      'sessions/2026/10/01/rollout-2026-10-01T09-00-00-0199-parent.jsonl',
      'sessions/2026/10/01/rollout-2026-10-01T09-00-00-0199-child.jsonl',
    ]);
    expect(tree.every((e) => e.kind === 'file')).toBe(true);
  });
});
