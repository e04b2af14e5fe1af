import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import type { DiscoveredSession } from '../types.js';
import { intendantReader, readIntendantName } from './index.js';
import { FixtureSession } from './test-support/fixture.js';

const lookup = (env: Record<string, string>, homedir = '/home/alice') => ({ env: (name: string) => env[name], homedir });

/** A daemon home: a parent with three nested children (one grandchild), a fork, a tee'd edge and a cycle. */
async function graphHome(): Promise<string> {
  const home = join(await tempDir(), '.intendant');
  const p = await FixtureSession.create(home, 'p-1', {
    project_root: '/home/alice/app',
    name: 'Parent',
    task: 'Survey the API',
    status: 'completed',
    worktree: { branch: 'intendant/survey', path: '/home/alice/app-wt', base_root: '/home/alice/app' },
  });
  p.laneUser(1_000, 1, 'Survey the API', { turn: 1 });
  await p.laneAssistant(2_000, 1, 2, 'Delegating.');
  await p.agentInput(2_100, 1, [{ function: 'execAsAgent', nonce: 1, command: 'intendant ctl spawn --session c-2 research' }]);
  await p.agentOutput(2_200, 1, 'spawned c-2');
  p.relationship(2_300, 'p-1', 'c-2');
  p.relationship(2_400, 'p-1', 'c-3', 'side');
  p.relationship(2_500, 'p-1', 'f-4', 'fork');
  await p.laneAssistant(3_000, 2, 3, 'Both done.');
  await p.save();

  const c2 = await FixtureSession.create(home, 'c-2', {
    project_root: '/home/alice/app',
    task: 'Map the endpoints',
    status: 'completed',
    role: 'research',
  });
  c2.laneUser(2_310, 1, 'Map the endpoints');
  c2.row({ ts: '00:00:02.320', ts_ms: 2_320, event: 'debug', level: 'debug', message: 'Model: gpt-5-mini' });
  c2.relationship(2_350, 'c-2', 'g-5');
  await c2.laneAssistant(2_360, 1, 2, 'Endpoints: /a, /b', { prompt: 200, completion: 20, cached: 0, cache_creation: 0 });
  await c2.save();

  const g5 = await FixtureSession.create(home, 'g-5', {
    project_root: '/home/alice/app/sub',
    task: 'Check /b',
    status: 'completed',
    role: 'testing',
  });
  await g5.laneAssistant(2_355, 1, 1, 'grandchild words', { prompt: 7, completion: 3, cached: 0, cache_creation: 0 });
  await g5.save();

  const c3 = await FixtureSession.create(home, 'c-3', { project_root: '/home/alice/app', task: 'Side look', status: 'interrupted' });
  await c3.laneAssistant(2_410, 1, 1, 'side words');
  await c3.save();

  const f4 = await FixtureSession.create(home, 'f-4', { project_root: '/home/alice/app', task: 'forked' });
  f4.laneUser(2_510, 1, 'forked');
  await f4.save();

  // The daemon's own log holds a tee'd copy of a relationship the parent's log never wrote.
  const d9 = await FixtureSession.create(home, 'd-9', { project_root: '/home/alice', task: 'daemon' });
  d9.laneUser(100, 1, 'daemon up');
  d9.relationship(2_600, 'p-1', 'c-6');
  await d9.save();
  const c6 = await FixtureSession.create(home, 'c-6', { project_root: '/home/alice/app', task: 'From the daemon', status: 'completed' });
  await c6.laneAssistant(2_610, 1, 1, 'from the daemon graph');
  await c6.save();

  // Two sessions naming each other: neither may vanish, neither may recurse forever.
  for (const [a, b] of [
    ['x-7', 'y-8'],
    ['y-8', 'x-7'],
  ] as const) {
    const s = await FixtureSession.create(home, a, { project_root: '/w', task: a });
    s.laneUser(5_000, 1, `I am ${a}`);
    s.relationship(5_100, a, b);
    await s.save();
  }
  // Not sessions: a folder with no spine, a symlinked folder, a stray file.
  await mkdir(join(home, 'logs', '20260101_120000'), { recursive: true });
  await writeFile(join(home, 'logs', '20260101_120000', '1_abc_stdout.log'), 'runtime only');
  await symlink(join(home, 'logs', 'p-1'), join(home, 'logs', 'linked-p'));
  await writeFile(join(home, 'logs', 'notes.txt'), 'x');
  return home;
}

function byId(sessions: DiscoveredSession[], id: string): DiscoveredSession {
  const s = sessions.find((x) => x.sessionId === id);
  if (s === undefined) throw new Error(`no session ${id}`);
  return s;
}

describe('intendant homes', () => {
  it('uses INTENDANT_HOME, else <homedir>/.intendant', () => {
    expect(intendantReader.homes(lookup({ INTENDANT_HOME: '/srv/intendant' }))).toEqual(['/srv/intendant']);
    expect(intendantReader.homes(lookup({}))).toEqual(['/home/alice/.intendant']);
  });
});

describe('intendant discover', () => {
  it('lists parents once and folds nested children into them', async () => {
    const home = await graphHome();
    const d = await intendantReader.discover(home);
    expect(d.problems).toEqual([]);
    expect(d.sessions.map((s) => s.sessionId)).toEqual(['d-9', 'f-4', 'p-1', 'x-7', 'y-8']);
    const p = byId(d.sessions, 'p-1');
    expect(p).toMatchObject({ agent: 'intendant', home, path: join(home, 'logs', 'p-1') });
    // The parent's record depends on its children's files, so they key its cache entry too.
    expect(p.files.map((f) => relative(home, f.path))).toEqual([
      'logs/p-1/session.jsonl',
      'logs/p-1/session_meta.json',
      // Edges in the order the logs are read (d-9's tee'd edge first), each child once.
      'logs/c-6/session.jsonl',
      'logs/c-6/session_meta.json',
      'logs/c-2/session.jsonl',
      'logs/c-2/session_meta.json',
      'logs/g-5/session.jsonl',
      'logs/g-5/session_meta.json',
      'logs/c-3/session.jsonl',
      'logs/c-3/session_meta.json',
    ]);
  });

  it('is empty for a missing home', async () => {
    expect(await intendantReader.discover(join(await tempDir(), 'nope'))).toEqual({ sessions: [], problems: [] });
  });
});

describe('intendant subagents', () => {
  it('nests children in the launching call, else in a subagent call where the relationship was logged', async () => {
    const home = await graphHome();
    const p = byId((await intendantReader.discover(home)).sessions, 'p-1');
    const parsed = await intendantReader.parse(p, { detail: 'full' });
    expect(parsed.problems).toEqual([]);
    const record = parsed.record;
    if (record === null) throw new Error('no record');
    expect(record).toMatchObject({ repo: '/home/alice/app', branch: 'intendant/survey' });
    expect(parsed.cwds).toEqual(['/home/alice/app', '/home/alice/app-wt', '/home/alice/app/sub']);
    expect(record.totals).toMatchObject({ input_tokens: 200, output_tokens: 20 });
    expect(record.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Survey the API'],
      ['assistant', 'Delegating.'],
      ['assistant', 'Both done.'],
    ]);
    const calls = record.turns[1]?.tool_calls ?? [];
    expect(calls.map((c) => [c.name, c.input, c.output, c.subagent?.id])).toEqual([
      ['execAsAgent', 'intendant ctl spawn --session c-2 research', 'spawned c-2', 'c-2'],
      ['subagent', 'Side look', 'side words', 'c-3'],
      ['subagent', 'From the daemon', 'from the daemon graph', 'c-6'],
    ]);
    const c2 = calls[0]?.subagent;
    expect(c2).toMatchObject({
      id: 'c-2',
      name: 'research',
      description: 'Map the endpoints',
      models: ['gpt-5-mini'],
      status: 'completed',
      started_at: '1970-01-01T00:00:02.310Z',
      ended_at: '1970-01-01T00:00:02.361Z',
    });
    expect(c2?.totals).toMatchObject({ input_tokens: 200, output_tokens: 20 });
    expect(c2?.turns.map((t) => [t.role, t.text, t.tool_calls?.map((c) => c.subagent?.id)])).toEqual([
      ['user', 'Map the endpoints', undefined],
      ['assistant', '', ['g-5']],
      ['assistant', 'Endpoints: /a, /b', []],
    ]);
    const g5 = c2?.turns[1]?.tool_calls?.[0]?.subagent;
    expect(g5).toMatchObject({ id: 'g-5', name: 'testing', totals: { input_tokens: 7, output_tokens: 3 } });
    expect(calls[1]?.subagent?.status).toBe('stopped');
  });

  it('finds the launching call at every detail level, though below full its batch is read only to find it', async () => {
    const home = await graphHome();
    const p = byId((await intendantReader.discover(home)).sessions, 'p-1');
    const launches = async (detail: 'full' | 'messages' | 'summary') => {
      const parsed = await intendantReader.parse(p, { detail });
      expect(parsed.problems).toEqual([]);
      return parsed.record?.turns.map((t) => t.tool_calls?.map((c) => [c.name, c.subagent?.id]));
    };
    const full = await launches('full');
    expect(full?.[1]).toEqual([
      ['execAsAgent', 'c-2'],
      ['subagent', 'c-3'],
      ['subagent', 'c-6'],
    ]);
    expect(await launches('messages')).toEqual(full);
    expect(await launches('summary')).toEqual(full);
  });

  it('stops at a cycle instead of recursing', async () => {
    const home = await graphHome();
    const x = byId((await intendantReader.discover(home)).sessions, 'x-7');
    const record = (await intendantReader.parse(x, { detail: 'full' })).record;
    const y = record?.turns[1]?.tool_calls?.[0]?.subagent;
    expect(y?.id).toBe('y-8');
    // y-8 names x-7 back, but x-7 is already on the path: y-8 launches nothing.
    expect(y?.turns.map((t) => t.role)).toEqual(['user']);
  });
});

describe('intendant claim and tree', () => {
  it('claims a session folder or its session.jsonl, and nothing else', async () => {
    const home = await graphHome();
    const dir = join(home, 'logs', 'p-1');
    const byFolder = await intendantReader.claim(dir);
    expect(byFolder).toMatchObject({ agent: 'intendant', sessionId: 'p-1', home, path: dir });
    expect(byFolder?.files).toHaveLength(10);
    expect(await intendantReader.claim(join(dir, 'session.jsonl'))).toMatchObject({ sessionId: 'p-1', path: dir });
    // A child is still showable on its own when named by path.
    expect(await intendantReader.claim(join(home, 'logs', 'c-2'))).toMatchObject({ sessionId: 'c-2' });
    expect(await intendantReader.claim(join(dir, 'session_meta.json'))).toBeNull();
    expect(await intendantReader.claim(join(home, 'logs', '20260101_120000'))).toBeNull();
    expect(await intendantReader.claim(join(home, 'logs', 'linked-p'))).toBeNull();
    const other = join(await tempDir(), 'session.jsonl');
    await writeFile(other, `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } })}\n`);
    expect(await intendantReader.claim(other)).toBeNull();
  });

  it('keeps every regular file of the session and its children, never through a symlink', async () => {
    const home = await graphHome();
    const p = byId((await intendantReader.discover(home)).sessions, 'p-1');
    await mkdir(join(p.path, 'file_snapshots', 'objects'), { recursive: true });
    await writeFile(join(p.path, 'file_snapshots', 'objects', 'ab12'), 'blob');
    await symlink('/etc/hostname', join(p.path, 'turns', 'evil.txt'));
    const tree = await intendantReader.tree(p);
    const rels = tree.map((e) => e.relPath);
    expect(rels).toContain('logs/p-1/session.jsonl');
    expect(rels).toContain('logs/p-1/file_snapshots/objects/ab12');
    expect(rels).toContain('logs/p-1/turns/turn_001_agent_in.json');
    expect(rels).toContain('logs/c-2/turns/turn_001_model.txt');
    expect(rels).toContain('logs/g-5/session.jsonl');
    expect(rels).not.toContain('logs/p-1/turns/evil.txt');
    expect(rels).not.toContain('logs/f-4/session.jsonl');
    expect(tree.every((e) => e.kind === 'file')).toBe(true);
  });

  it('reads the name a person gave the session', async () => {
    const home = await graphHome();
    expect(await readIntendantName(join(home, 'logs', 'p-1'))).toBe('Parent');
    expect(await readIntendantName(join(home, 'logs', 'c-2'))).toBeNull();
    expect(await readIntendantName(join(home, 'logs', 'nope'))).toBeNull();
  });
});
