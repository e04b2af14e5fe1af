// The Crush reader on databases written with Crush's own schema: projects from projects.json,
// tool calls paired with their results, sub-agents nested, summaries, cancellations and errors,
// tokens by Crush's counters, locked and corrupt databases, and the kept export read back.
import Database from 'better-sqlite3';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { finaliseRecord } from '../../record/finalise.js';
import type { DiscoveredSession } from '../types.js';
import { Catalog } from '../../custody/catalog.js';
import { createCrushReader, crushReader } from './reader.js';
import {
  assistant,
  finish,
  reasoning,
  text,
  toolCall,
  toolResult,
  user,
  writeCrushDatabase,
  writeCrushProject,
  writeProjects,
  type CrushSessionFixture,
} from './test-support/fixtures.js';

const t0 = 1_790_000_000;
const main = 'aaaaaaaa-0000-4000-8000-000000000001';

function family(): CrushSessionFixture[] {
  return [
    {
      id: main,
      title: 'Fix the parser',
      at: t0,
      promptTokens: 12_000,
      completionTokens: 300,
      cost: 0.5,
      messages: [
        user('u1', t0 + 1, 'Fix the parser please'),
        assistant('a1', t0 + 2, [
          reasoning('Look first.'),
          text('Reading it.'),
          toolCall('call_bash', 'bash', { command: 'ls src', description: 'list' }),
          toolCall('call_edit', 'edit', { file_path: '/w/src/p.ts', old_string: 'a', new_string: 'b' }),
        ]),
        {
          id: 't1',
          role: 'tool',
          at: t0 + 3,
          parts: [toolResult('call_bash', 'bash', 'p.ts'), toolResult('call_edit', 'edit', 'no match', true)],
        },
        assistant('a2', t0 + 4, [toolCall('call_agent', 'agent', { prompt: 'Find the tests' })]),
        { id: 't2', role: 'tool', at: t0 + 9, parts: [toolResult('call_agent', 'agent', 'Tests are in test/.')] },
        assistant('a3', t0 + 10, [text('Done.')]),
        {
          id: 's1',
          role: 'assistant',
          at: t0 + 11,
          parts: [text('Summary of all so far.'), finish('end_turn', t0 + 12)],
          model: 'claude-sonnet-4-5',
          summary: true,
        },
        user('u2', t0 + 13, 'And the docs?'),
        {
          id: 'a4',
          role: 'assistant',
          at: t0 + 14,
          parts: [text('Start'), finish('canceled', t0 + 15, 'User canceled request')],
          model: 'claude-sonnet-4-5',
        },
        { id: 'a5', role: 'assistant', at: t0 + 16, parts: [finish('error', t0 + 17, 'rate limited')], model: 'claude-sonnet-4-5' },
      ],
    },
    {
      id: `a2$$call_agent`,
      parentId: main,
      title: 'Find the tests',
      at: t0 + 5,
      promptTokens: 2000,
      completionTokens: 50,
      cost: 0.1,
      messages: [user('su1', t0 + 5, 'Find the tests'), assistant('sa1', t0 + 6, [text('Tests are in test/.')], 'claude-haiku-4-5')],
    },
    { id: `title-${main}`, parentId: main, title: 'Generate a title', at: t0 + 1, messages: [user('tu', t0 + 1, 'title this')] },
  ];
}

async function home(): Promise<{ home: string; project: string; database: string }> {
  const root = await tempDir();
  const h = join(root, '.local', 'share', 'crush');
  const project = join(root, 'code', 'app');
  return { home: h, project, database: await writeCrushProject(h, project, family()) };
}

describe('crushReader', () => {
  it('lists the top-level sessions of every project in projects.json, once', async () => {
    const { home: h, project, database } = await home();
    const found = await crushReader.discover(h);
    expect(found.problems).toEqual([]);
    expect(found.sessions).toHaveLength(1);
    expect(found.sessions[0]).toMatchObject({ agent: 'crush', sessionId: main, path: `${database}#${main}`, cwd: project, home: h });
    expect(found.sessions[0]?.files.map((f) => f.path)).toContain(database);
  });

  it('finds nothing, and no problem, without a home or without projects.json', async () => {
    const root = await tempDir();
    expect(await crushReader.discover(join(root, 'missing'))).toEqual({ sessions: [], problems: [] });
    await mkdir(join(root, 'crush'));
    expect(await crushReader.discover(join(root, 'crush'))).toEqual({ sessions: [], problems: [] });
  });

  it('reads the record: prompts as typed, reasoning, calls paired with results, the sub-agent nested', async () => {
    const { home: h } = await home();
    const [session] = (await crushReader.discover(h)).sessions;
    const parsed = await crushReader.parse(session as DiscoveredSession, { detail: 'full' });
    expect(parsed.problems).toEqual([]);
    expect(parsed.badLines).toEqual([]);
    const rec = parsed.record;
    expect(rec?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Fix the parser please'],
      ['reasoning', 'Look first.'],
      ['assistant', 'Reading it.'],
      ['assistant', ''],
      ['assistant', 'Done.'],
      ['event', 'context compacted'],
      ['user', 'And the docs?'],
      ['assistant', 'Start'],
      ['event', 'interrupted'],
      ['event', 'error: rate limited'],
    ]);
    const calls = rec?.turns[2]?.tool_calls ?? [];
    expect(calls[0]).toMatchObject({ name: 'bash', format: 'shell', input: 'ls src', output: 'p.ts', status: 'ok' });
    expect(calls[1]).toMatchObject({
      name: 'edit',
      format: 'diff',
      path: '/w/src/p.ts',
      input: '-a\n+b',
      output: 'no match',
      status: 'error',
    });
    const agent = rec?.turns[3]?.tool_calls?.[0];
    expect(agent).toMatchObject({ name: 'agent', format: 'text', input: 'Find the tests', output: 'Tests are in test/.', status: 'ok' });
    expect(agent?.subagent).toMatchObject({
      id: 'a2$$call_agent',
      status: 'completed',
      models: ['claude-haiku-4-5'],
      description: 'Find the tests',
    });
    expect(agent?.subagent?.turns.map((t) => t.text)).toEqual(['Find the tests', 'Tests are in test/.']);
    // Crush adds the sub-agent's cost into the parent's: counted once here.
    expect(rec?.totals).toMatchObject({ input_tokens: 12_000, output_tokens: 300, cost_usd: 0.4 });
    expect(agent?.subagent?.totals).toMatchObject({ input_tokens: 2000, output_tokens: 50, cost_usd: 0.1 });
    expect(rec?.models).toEqual(['claude-sonnet-4-5']);
    expect(rec?.started_at).toBe(new Date(t0 * 1000).toISOString());
  });

  it('indexes typed prompts and answers, the sub-agent as its own thread, never the summary or the title session', async () => {
    const { home: h } = await home();
    const [session] = (await crushReader.discover(h)).sessions;
    const x = await crushReader.messages.extract(session as DiscoveredSession, null);
    expect(x.records.map((r) => [r.role, r.text, r.thread ?? null])).toEqual([
      ['user', 'Fix the parser please', null],
      ['assistant', 'Reading it.', null],
      ['assistant', 'Done.', null],
      ['user', 'And the docs?', null],
      ['assistant', 'Start', null],
      ['user', 'Find the tests', 'a2$$call_agent'],
      ['assistant', 'Tests are in test/.', 'a2$$call_agent'],
    ]);
  });

  it('claims a database, a database row and an export; keeps the session as an export that reads back the same', async () => {
    const { home: h, database, project } = await home();
    expect((await crushReader.claim(database))?.sessionId).toBe(main);
    const claimed = await crushReader.claim(`${database}#a2$$call_agent`);
    expect(claimed).toMatchObject({ sessionId: 'a2$$call_agent', cwd: project });
    const [session] = (await crushReader.discover(h)).sessions;
    const [entry] = await crushReader.tree(session as DiscoveredSession);
    if (entry?.kind !== 'export') throw new Error('expected an export');
    expect(entry.relPath).toBe(`crush-export/${main}.jsonl`);
    const kept = join(await tempDir(), 'kept.jsonl');
    await writeFile(kept, await entry.produce());
    const again = await crushReader.claim(kept);
    expect(again).toMatchObject({ sessionId: main, cwd: project });
    const a = await crushReader.parse(session as DiscoveredSession, { detail: 'full' });
    const b = await crushReader.parse(again as DiscoveredSession, { detail: 'full' });
    expect(b.record).toEqual(a.record);
    expect((await entry.produce()).equals(await readFile(kept))).toBe(true);
  });

  it('reports a locked or corrupt database as unreadable and still lists the other projects', async () => {
    const root = await tempDir();
    const h = join(root, 'crush');
    const good = join(root, 'good');
    const corrupt = join(root, 'corrupt');
    const locked = join(root, 'locked');
    for (const p of [good, corrupt, locked]) await mkdir(join(p, '.crush'), { recursive: true });
    writeCrushDatabase(join(good, '.crush', 'crush.db'), family());
    await writeFile(join(corrupt, '.crush', 'crush.db'), 'this is not a database, only text long enough to have a header');
    writeCrushDatabase(join(locked, '.crush', 'crush.db'), [{ id: 'locked-1', title: 't', at: t0, messages: [] }]);
    await writeProjects(
      h,
      [good, corrupt, locked].map((p) => ({ path: p, dataDir: join(p, '.crush') })),
    );
    const writer = new Database(join(locked, '.crush', 'crush.db'));
    try {
      writer.pragma('locking_mode = EXCLUSIVE');
      writer.exec('BEGIN EXCLUSIVE');
      writer.exec("UPDATE sessions SET title = 'busy'");
      const found = await createCrushReader({ busyTimeoutMs: 50 }).discover(h);
      expect(found.sessions.map((s) => s.sessionId)).toEqual([main]);
      expect(found.problems.map((p) => [p.path, p.kind]).sort()).toEqual([
        [join(corrupt, '.crush', 'crush.db'), 'unreadable'],
        [join(locked, '.crush', 'crush.db'), 'unreadable'],
      ]);
      expect(found.problems.find((p) => p.path.startsWith(locked))?.reason).toMatch(/locked/);
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  });

  it('is not fooled by other agents’ databases or a broken parts column', async () => {
    const root = await tempDir();
    const other = join(root, 'sessions.db');
    writeCrushDatabase(other, family());
    expect(await crushReader.claim(other)).toBeNull();
    const h = join(root, 'crush');
    const database = await writeCrushProject(h, join(root, 'p'), family());
    const db = new Database(database);
    db.prepare("UPDATE messages SET parts = 'not json' WHERE id = 'a3'").run();
    db.close();
    const [session] = (await crushReader.discover(h)).sessions;
    const parsed = await crushReader.parse(session as DiscoveredSession, { detail: 'full' });
    expect(parsed.badLines).toEqual([{ path: database, count: 1 }]);
    expect(parsed.record?.turns.some((t) => t.text === 'Done.')).toBe(false);
  });

  it('reads at summary detail what the full record says at that detail, tool results read without their output', async () => {
    const { home: h, database } = await home();
    const db = new Database(database);
    // A failed sub-agent call (its status comes from the result), and tool rows that are not a parts array.
    db.prepare("UPDATE messages SET parts = json_set(parts, '$[0].data.is_error', json('true')) WHERE id = 't2'").run();
    db.prepare(
      "INSERT INTO messages (id, session_id, role, parts, created_at, updated_at) VALUES ('t3', ?, 'tool', 'not json', ?, ?), ('t4', ?, 'tool', '{\"a\":1}', ?, ?), ('t5', ?, 'tool', '[\"x\", 5]', ?, ?)",
    ).run(main, t0 + 18, t0 + 18, main, t0 + 19, t0 + 19, main, t0 + 20, t0 + 20);
    db.close();
    const [session] = (await crushReader.discover(h)).sessions;
    const full = await crushReader.parse(session as DiscoveredSession, { detail: 'full' });
    const summary = await crushReader.parse(session as DiscoveredSession, { detail: 'summary' });
    expect(summary.badLines).toEqual([{ path: database, count: 2 }]);
    expect(summary.badLines).toEqual(full.badLines);
    const asSummary = (r: typeof full.record) => (r === null ? null : finaliseRecord(r, { detail: 'summary', elide: (t) => t }));
    expect(asSummary(summary.record)).toEqual(asSummary(full.record));
    expect(summary.record?.turns[3]?.tool_calls?.[0]?.subagent?.status).toBe('failed');
  });

  it('is located by custody where the project keeps its database, outside the home: tail reads its newest turns', async () => {
    const { home: h, database } = await home();
    const catalog = await Catalog.open({
      stateRoot: join(h, '..', 'agentlog'),
      agents: [{ reader: crushReader, homes: [h] }],
      version: 't',
    });
    expect(await catalog.locate(main)).toMatchObject({ root: 'vendor', rootPath: h, main: database });
    const page = await catalog.lastEntries(main, 3);
    const [session] = (await crushReader.discover(h)).sessions;
    const turns = (await crushReader.parse(session as DiscoveredSession, { detail: 'messages' })).record?.turns ?? [];
    expect(page.entries.map((e) => [e.role, e.timestamp])).toEqual(turns.slice(-3).map((t) => [t.role, t.at]));
    expect(page.entries).toHaveLength(3);
  });
});
