import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyCorpus, hasCorpus, tempDir } from '../../../test/support/temp.js';
import type { DiscoveredSession } from '../types.js';
import { createOpencodeReader, opencodeReader } from './reader.js';
import { assistantMessage, userMessage, writeDatabase, writeJsonTree, type FixtureSession } from './test-support/fixtures.js';

const parse = (s: DiscoveredSession) => opencodeReader.parse(s, { detail: 'full' });

function byId(sessions: DiscoveredSession[]): Map<string, DiscoveredSession> {
  return new Map(sessions.map((s) => [s.sessionId, s]));
}

/** A parent that launched two subagents through `task`: one the part names, one it does not. */
function familyFixture(): FixtureSession[] {
  const t0 = 1_760_000_000_000;
  const parent: FixtureSession = {
    id: 'ses_parent',
    directory: '/work/app',
    title: 'Survey logging',
    created: t0,
    updated: t0 + 60_000,
    messages: [
      userMessage('msg_001', t0 + 1000, 'Find every logger'),
      assistantMessage('msg_002', t0 + 2000, [
        { id: 'prt_002_1', data: { type: 'reasoning', text: 'Delegate the search.', time: { start: t0 + 2001 } } },
        { id: 'prt_002_2', data: { type: 'text', text: 'Launching helpers.', time: { start: t0 + 2002 } } },
        {
          id: 'prt_002_3',
          data: {
            type: 'tool',
            tool: 'task',
            callID: 'call_a',
            state: {
              status: 'completed',
              input: { description: 'Scan src', prompt: 'List loggers in src/', subagent_type: 'general' },
              output: 'receipt',
              metadata: { sessionId: 'ses_child_a' },
              time: { start: t0 + 2003, end: t0 + 9000 },
            },
          },
        },
        {
          id: 'prt_002_4',
          data: {
            type: 'tool',
            tool: 'task',
            callID: 'call_b',
            state: {
              status: 'completed',
              input: { description: 'Scan lib', prompt: 'List loggers in lib/', subagent_type: 'explore' },
              output: 'done',
              time: { start: t0 + 2004, end: t0 + 9500 },
            },
          },
        },
        { id: 'prt_002_5', data: { type: 'step-finish', tokens: { input: 1, output: 1 }, cost: 5 } },
      ]),
      assistantMessage('msg_003', t0 + 10_000, [{ id: 'prt_003_1', data: { type: 'text', text: 'Two loggers found.' } }]),
    ],
  };
  const childA: FixtureSession = {
    id: 'ses_child_a',
    parentId: 'ses_parent',
    directory: '/work/app',
    title: 'Scan src (@general subagent)',
    created: t0 + 3000,
    updated: t0 + 8000,
    messages: [
      userMessage('msg_101', t0 + 3000, 'List loggers in src/'),
      assistantMessage(
        'msg_102',
        t0 + 4000,
        [
          {
            id: 'prt_102_1',
            data: {
              type: 'tool',
              tool: 'bash',
              callID: 'c1',
              state: { status: 'completed', input: { command: 'grep -r logger src' }, output: 'src/a.rs', metadata: { exit: 0 } },
            },
          },
          { id: 'prt_102_2', data: { type: 'text', text: 'src/a.rs has one.' } },
        ],
        { modelID: 'claude-haiku-4-5', path: { cwd: '/work/app/src', root: '/work/app' } },
      ),
    ],
  };
  const childB: FixtureSession = {
    id: 'ses_child_b',
    parentId: 'ses_parent',
    directory: '/work/app',
    title: 'Scan lib (@explore subagent)',
    created: t0 + 3500,
    updated: t0 + 9000,
    messages: [
      userMessage('msg_201', t0 + 3500, 'List loggers in lib/'),
      assistantMessage('msg_202', t0 + 5000, [{ id: 'prt_202_1', data: { type: 'text', text: 'lib/b.rs has one.' } }]),
    ],
  };
  return [parent, childA, childB];
}

describe('opencodeReader homes', () => {
  it('uses $XDG_DATA_HOME/opencode, else ~/.local/share/opencode', () => {
    expect(opencodeReader.homes({ env: () => undefined, homedir: '/h' })).toEqual(['/h/.local/share/opencode']);
    expect(opencodeReader.homes({ env: (n) => (n === 'XDG_DATA_HOME' ? '/data' : undefined), homedir: '/h' })).toEqual(['/data/opencode']);
  });
});

describe.skipIf(!hasCorpus)('opencodeReader over the corpus JSON trees', () => {
  it('reads the v2 layout (parts in per-message folders)', async () => {
    const home = join(await tempDir(), 'opencode');
    await copyCorpus('opencode/storage_v2', join(home, 'storage'));
    const found = await opencodeReader.discover(home);
    expect(found.problems).toEqual([]);
    const sessions = byId(found.sessions);
    expect([...sessions.keys()].sort()).toEqual(['s_stage0_large', 's_stage0_small']);

    const small = await parse(sessions.get('s_stage0_small') as DiscoveredSession);
    expect(small.record?.repo).toBe('/tmp/repo');
    expect(small.record?.models).toEqual(['gpt-4o-mini']);
    expect(small.record?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Hello'],
      ['assistant', ''],
      ['assistant', 'Found 2 files.'],
    ]);
    expect(small.record?.turns[1]?.tool_calls).toEqual([
      { name: 'bash', format: 'shell', input: 'ls', output: 'a.txt\nb.txt\n', status: 'ok', exit_code: 0 },
    ]);
    expect(small.record?.started_at).toBe('2024-10-27T03:33:20.000Z');

    const large = await parse(sessions.get('s_stage0_large') as DiscoveredSession);
    const rec = large.record;
    expect(rec?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Step 1'],
      ['assistant', ''],
      ['reasoning', 'Investigating failing command.'],
      ['event', 'context compacted'],
      ['event', 'interrupted'],
      ['user', 'Step 2'],
      ['assistant', 'Ok'],
    ]);
    expect(rec?.turns[1]?.tool_calls?.[0]).toMatchObject({ name: 'bash', status: 'ok', exit_code: 1 });
    // The message states its tokens; its cost is only on the step (the message's own is drift).
    expect(rec?.totals).toEqual({
      input_tokens: 120,
      output_tokens: 16,
      cache_read_tokens: 0,
      cache_creation_tokens: 0,
      reasoning_tokens: 0,
      cost_usd: 0.0011,
    });
    expect(large.cwds).toEqual(['/tmp/large']);
  });

  it('reads the legacy layout (flat parts naming their message)', async () => {
    const home = join(await tempDir(), 'opencode');
    await copyCorpus('opencode/storage_legacy', join(home, 'storage'));
    const found = await opencodeReader.discover(home);
    expect(found.sessions.map((s) => s.sessionId)).toEqual(['s_stage0_drift']);
    const session = found.sessions[0] as DiscoveredSession;
    expect(session.files).toHaveLength(5);
    const parsed = await parse(session);
    expect(parsed.record?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Open README'],
      ['assistant', ''],
      ['assistant', 'Read README and extracted the title.'],
    ]);
    expect(parsed.record?.turns[1]?.tool_calls).toEqual([
      { name: 'bash', format: 'shell', input: 'cat README.md', output: '# Title\n\nBody\n', status: 'ok' },
    ]);
    const tree = await opencodeReader.tree(session);
    expect(tree.map((e) => e.relPath).sort()).toEqual([
      'storage/message/s_stage0_drift/msg_0001.json',
      'storage/message/s_stage0_drift/msg_0002.json',
      'storage/part/prt_0001.json',
      'storage/part/prt_0002.json',
      'storage/session/proj_test/ses_s_stage0_drift.json',
    ]);
  });
});

describe('opencodeReader subagents', () => {
  it('nests child sessions in the task calls that launched them (database)', async () => {
    const home = join(await tempDir(), 'opencode');
    await mkdir(home, { recursive: true });
    writeDatabase(join(home, 'opencode.db'), familyFixture());
    const found = await opencodeReader.discover(home);
    expect(found.sessions.map((s) => s.sessionId)).toEqual(['ses_parent']);
    const parsed = await parse(found.sessions[0] as DiscoveredSession);
    const rec = parsed.record;
    expect(rec?.turns.map((t) => t.role)).toEqual(['user', 'reasoning', 'assistant', 'assistant']);
    const calls = rec?.turns[2]?.tool_calls ?? [];
    expect(calls.map((c) => [c.name, c.subagent?.id, c.subagent?.name, c.output])).toEqual([
      ['task', 'ses_child_a', 'general', 'src/a.rs has one.'],
      ['task', 'ses_child_b', 'explore', 'lib/b.rs has one.'],
    ]);
    const a = calls[0]?.subagent;
    expect(a).toMatchObject({
      description: 'Scan src',
      models: ['claude-haiku-4-5'],
      status: 'completed',
      started_at: '2025-10-09T08:53:23.000Z',
    });
    expect(a?.totals).toEqual({
      input_tokens: 100,
      output_tokens: 20,
      cache_read_tokens: 50,
      cache_creation_tokens: 10,
      reasoning_tokens: 5,
      cost_usd: 0.01,
    });
    expect(a?.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'assistant']);
    // The main agent's own totals: two assistant messages, each counted once (not its steps too).
    expect(rec?.totals).toEqual({
      input_tokens: 200,
      output_tokens: 40,
      cache_read_tokens: 100,
      cache_creation_tokens: 20,
      reasoning_tokens: 10,
      cost_usd: 0.02,
    });
    expect(parsed.cwds).toEqual(['/work/app', '/work/app/src']);
  });

  it('nests them in the JSON tree as well, and a child named directly reads on its own', async () => {
    const home = join(await tempDir(), 'opencode');
    await writeJsonTree(join(home, 'storage'), familyFixture());
    const found = await opencodeReader.discover(home);
    expect(found.sessions.map((s) => s.sessionId)).toEqual(['ses_parent']);
    const parsed = await parse(found.sessions[0] as DiscoveredSession);
    expect(parsed.record?.turns[2]?.tool_calls?.map((c) => c.subagent?.id)).toEqual(['ses_child_a', 'ses_child_b']);

    const child = await opencodeReader.claim(join(home, 'storage', 'session', 'proj', 'ses_child_a.json'));
    expect(child?.sessionId).toBe('ses_child_a');
    const alone = await parse(child as DiscoveredSession);
    expect(alone.record?.turns.map((t) => t.text)).toEqual(['List loggers in src/', '', 'src/a.rs has one.']);
  });

  it('keeps a child no call accounts for as a task call of its own', async () => {
    const [parent, childA] = familyFixture() as [FixtureSession, FixtureSession];
    parent.messages = parent.messages.filter((m) => m.id !== 'msg_002');
    const home = join(await tempDir(), 'opencode');
    await mkdir(home, { recursive: true });
    writeDatabase(join(home, 'opencode.db'), [parent, childA]);
    const [session] = (await opencodeReader.discover(home)).sessions;
    const rec = (await parse(session as DiscoveredSession)).record;
    expect(rec?.turns.map((t) => [t.role, t.tool_calls?.[0]?.subagent?.id])).toEqual([
      ['user', undefined],
      ['assistant', 'ses_child_a'],
      ['assistant', undefined],
    ]);
  });
});

describe('opencodeReader with both stores', () => {
  it('lists a session the database and the JSON tree both hold once, read from the database', async () => {
    const home = join(await tempDir(), 'opencode');
    const [parent, childA, childB] = familyFixture() as [FixtureSession, FixtureSession, FixtureSession];
    const onlyJson: FixtureSession = {
      id: 'ses_only_json',
      directory: '/work/app',
      title: 'json only',
      created: 1_760_000_100_000,
      updated: 1_760_000_100_000,
      messages: [userMessage('msg_900', 1_760_000_100_000, 'json only')],
    };
    await writeJsonTree(join(home, 'storage'), [parent, childA, childB, onlyJson]);
    const fromDb = structuredClone(parent);
    (fromDb.messages[0] as FixtureSession['messages'][number]).parts = [
      { id: 'prt_001_1', data: { type: 'text', text: 'Find every logger (db copy)' } },
    ];
    writeDatabase(join(home, 'opencode.db'), [fromDb, childA, childB]);

    const found = await opencodeReader.discover(home);
    expect(found.problems).toEqual([]);
    expect(found.sessions.map((s) => s.sessionId).sort()).toEqual(['ses_only_json', 'ses_parent']);
    const parentSession = byId(found.sessions).get('ses_parent') as DiscoveredSession;
    expect(parentSession.path).toBe(`${join(home, 'opencode.db')}#ses_parent`);
    const rec = (await parse(parentSession)).record;
    expect(rec?.turns[0]?.text).toBe('Find every logger (db copy)');
  });

  it('reports a corrupt or locked database as unreadable and still lists the other sessions', async () => {
    const home = join(await tempDir(), 'opencode');
    await writeJsonTree(join(home, 'storage'), [
      {
        id: 'ses_json',
        directory: '/w',
        title: 't',
        created: 1_760_000_000_000,
        updated: 1_760_000_000_000,
        messages: [userMessage('msg_1', 1_760_000_000_000, 'hi')],
      },
    ]);
    await writeFile(join(home, 'opencode.db'), 'this is not a database, only text long enough to have a header');
    const locked = join(home, 'opencode-beta.db');
    writeDatabase(locked, [{ id: 'ses_locked', directory: '/w', title: 't', created: 1, updated: 1, messages: [] }], 'delete');
    const writer = new Database(locked);
    try {
      writer.exec('BEGIN EXCLUSIVE');
      writer.exec("UPDATE session SET title = 'busy'");
      const reader = createOpencodeReader({ busyTimeoutMs: 50 });
      const found = await reader.discover(home);
      expect(found.sessions.map((s) => s.sessionId)).toEqual(['ses_json']);
      expect(found.problems.map((p) => [p.path, p.kind]).sort()).toEqual([
        [locked, 'unreadable'],
        [join(home, 'opencode.db'), 'unreadable'],
      ]);
      expect(found.problems.find((p) => p.path === locked)?.reason).toMatch(/locked/);
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  });
});

describe('opencodeReader database custody', () => {
  it('exports a database session as JSON lines that read back to the same record', async () => {
    const home = join(await tempDir(), 'opencode');
    await mkdir(home, { recursive: true });
    const db = join(home, 'opencode.db');
    writeDatabase(db, familyFixture());
    const session = await opencodeReader.claim(`${db}#ses_parent`);
    expect(session?.path).toBe(`${db}#ses_parent`);
    const entries = await opencodeReader.tree(session as DiscoveredSession);
    expect(entries.map((e) => [e.relPath, e.kind])).toEqual([['opencode-export/ses_parent.jsonl', 'export']]);
    const entry = entries[0];
    if (entry?.kind !== 'export') throw new Error('expected an export');
    const kept = join(await tempDir(), 'kept', 'ses_parent.jsonl');
    await mkdir(join(kept, '..'), { recursive: true });
    await writeFile(kept, await entry.produce());

    const reread = await opencodeReader.claim(kept);
    expect(reread?.sessionId).toBe('ses_parent');
    const fromExport = await parse(reread as DiscoveredSession);
    const fromDb = await parse(session as DiscoveredSession);
    expect(fromExport.badLines).toEqual([]);
    expect(fromExport.record).toEqual(fromDb.record);
  });

  it('claims a database by its newest top-level session, and refuses what is not OpenCode', async () => {
    const dir = await tempDir();
    const db = join(dir, 'opencode.db');
    const [parent, childA] = familyFixture() as [FixtureSession, FixtureSession];
    writeDatabase(db, [parent, childA, { id: 'ses_older', directory: '/w', title: 'old', created: 1, updated: 2, messages: [] }]);
    expect((await opencodeReader.claim(db))?.sessionId).toBe('ses_parent');
    expect(await opencodeReader.claim(`${db}#ses_missing`)).toBeNull();
    const other = join(dir, 'other.json');
    await writeFile(other, '{"id":"x","role":"user","time":{"created":1}}');
    expect(await opencodeReader.claim(other)).toBeNull();
    const jsonl = join(dir, 'x.jsonl');
    await writeFile(jsonl, '{"type":"user"}\n');
    expect(await opencodeReader.claim(jsonl)).toBeNull();
    expect(await opencodeReader.discover(join(dir, 'absent'))).toEqual({ sessions: [], problems: [] });
  });

  it('counts bad JSON in a message file and reports a vanished part', async () => {
    const home = join(await tempDir(), 'opencode');
    const storage = join(home, 'storage');
    await writeJsonTree(storage, [
      {
        id: 'ses_x',
        directory: '/w',
        title: 't',
        created: 1_760_000_000_000,
        updated: 1_760_000_000_000,
        messages: [userMessage('msg_1', 1_760_000_000_000, 'hi'), userMessage('msg_2', 1_760_000_001_000, 'again')],
      },
    ]);
    await writeFile(join(storage, 'message', 'ses_x', 'msg_2.json'), '{"id": "msg_2", "ro');
    const [session] = (await opencodeReader.discover(home)).sessions;
    const s = session as DiscoveredSession;
    s.files.push({ path: join(storage, 'part', 'msg_1', 'prt_gone.json'), size: 1, mtimeMs: 1 });
    const parsed = await parse(s);
    expect(parsed.badLines).toEqual([{ path: join(storage, 'message', 'ses_x', 'msg_2.json'), count: 1 }]);
    expect(parsed.problems.map((p) => p.kind)).toEqual(['unreadable']);
    expect(parsed.record?.turns.map((t) => t.text)).toEqual(['hi']);
  });

  it('reads a storage file changed since discovery as it now is, and reports one swapped for a FIFO', async () => {
    const home = join(await tempDir(), 'opencode');
    const storage = join(home, 'storage');
    const t0 = 1_760_000_000_000;
    await writeJsonTree(storage, [
      {
        id: 'ses_x',
        directory: '/w',
        title: 't',
        created: t0,
        updated: t0,
        messages: [userMessage('msg_1', t0, 'hi'), userMessage('msg_2', t0 + 1000, 'again'), userMessage('msg_3', t0 + 2000, 'last')],
      },
    ]);
    const [session] = (await opencodeReader.discover(home)).sessions;
    // Discovery saw each file's size; a part grown or shrunk since is read whole all the same.
    const part = (m: string): string => join(storage, 'part', m, `prt_${m}_1.json`);
    await writeFile(part('msg_1'), JSON.stringify({ id: 'prt_msg_1_1', messageID: 'msg_1', type: 'text', text: 'hi, now longer' }));
    await writeFile(part('msg_2'), JSON.stringify({ id: 'prt_msg_2_1', messageID: 'msg_2', type: 'text', text: 'a' }));
    await rm(part('msg_3'));
    execFileSync('mkfifo', [part('msg_3')]);
    const parsed = await parse(session as DiscoveredSession);
    expect(parsed.record?.turns.map((t) => t.text)).toEqual(['hi, now longer', 'a']);
    expect(parsed.problems.map((p) => [p.path, p.kind])).toEqual([[part('msg_3'), 'unreadable']]);
  });

  it("orders a database message's parts by id as SQLite does (by UTF-8 bytes), whatever order they were written in", async () => {
    const home = join(await tempDir(), 'opencode');
    await mkdir(home, { recursive: true });
    const t0 = 1_760_000_000_000;
    const texts = (ids: string[]) => ids.map((id) => ({ id, data: { type: 'text', text: id.slice(4) } }));
    const session = (id: string, partIds: string[]): FixtureSession => ({
      id,
      directory: '/w',
      title: 't',
      created: t0,
      updated: t0,
      messages: [userMessage(`msg_${id}_1`, t0, 'go'), assistantMessage(`msg_${id}_2`, t0 + 1000, texts(partIds))],
    });
    // U+E000 is EE 80 80 in UTF-8, before the emoji's F0…; in UTF-16 it comes after the emoji's D83D.
    writeDatabase(join(home, 'opencode.db'), [
      session('ses_plain', ['prt_b', 'prt_é', 'prt_a']),
      session('ses_wide', ['prt_😀', 'prt_d', 'prt_\ue000', 'prt_c']),
    ]);
    const sessions = byId((await opencodeReader.discover(home)).sessions);
    for (const detail of ['full', 'summary'] as const) {
      const said = async (id: string) =>
        (await opencodeReader.parse(sessions.get(id) as DiscoveredSession, { detail })).record?.turns.find((t) => t.role === 'assistant')
          ?.text;
      expect(await said('ses_plain')).toBe('a\n\nb\n\né');
      expect(await said('ses_wide')).toBe('c\n\nd\n\n\ue000\n\n😀');
    }
  });
});
