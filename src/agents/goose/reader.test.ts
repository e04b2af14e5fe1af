// The Goose reader on a `sessions.db` written with Goose's schema 13 and on legacy JSONL files:
// what the user saw (model-only messages left out), reasoning, tool requests paired with responses,
// notifications, Goose's counters as totals, legacy files the database already holds listed once,
// locked and corrupt databases, and the kept export read back.
import Database from 'better-sqlite3';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { finaliseRecord } from '../../record/finalise.js';
import type { SessionRecord } from '../../record/types.js';
import type { DiscoveredSession } from '../types.js';
import { createGooseReader, gooseReader } from './reader.js';
import {
  assistant,
  notification,
  text,
  thinking,
  toolRequest,
  toolResponse,
  user,
  writeGooseDatabase,
  writeLegacySession,
  type GooseSessionFixture,
} from './test-support/fixtures.js';

const t0 = 1_790_000_000;

function work(id = '20261001_1'): GooseSessionFixture {
  return {
    id,
    name: 'Fix the parser',
    workingDir: '/work/app',
    createdAt: '2026-09-21 14:13:20',
    inputTokens: 15_000,
    outputTokens: 700,
    cost: 0.12,
    model: 'claude-sonnet-4-5',
    messages: [
      user('m1', t0 + 1, 'Fix the parser please'),
      { id: 'm1b', role: 'user', created: t0 + 1, content: [text('<info-msg>injected context</info-msg>')], userVisible: false },
      assistant('m2', t0 + 2, [
        thinking('Look first.'),
        text('Reading it.'),
        toolRequest('t1', 'developer__shell', { command: 'ls src' }),
        toolRequest('t2', 'developer__text_editor', { command: 'str_replace', path: '/work/app/p.ts', old_str: 'a', new_str: 'b' }),
        { type: 'toolRequest', id: 't3', toolCall: { status: 'error', error: '-32602: bad arguments' } },
      ]),
      { id: 'm3', role: 'user', created: t0 + 3, content: [toolResponse('t1', 'p.ts'), toolResponse('t2', 'no match', true)] },
      assistant('m4', t0 + 4, [text('Done.'), notification('Context compacted to stay within limits')]),
    ],
  };
}

describe('gooseReader', () => {
  it('reads what the user saw: prompts, reasoning, calls paired with responses, notifications, the counters', async () => {
    const home = join(await tempDir(), 'goose');
    const database = await writeGooseDatabase(home, [work()]);
    const found = await gooseReader.discover(home);
    expect(found.problems).toEqual([]);
    expect(found.sessions).toEqual([
      expect.objectContaining({ agent: 'goose', sessionId: '20261001_1', path: `${database}#20261001_1`, cwd: '/work/app', home }),
    ]);
    const parsed = await gooseReader.parse(found.sessions[0] as DiscoveredSession, { detail: 'full' });
    expect(parsed.problems).toEqual([]);
    expect(parsed.badLines).toEqual([]);
    expect(parsed.cwds).toEqual(['/work/app']);
    const rec = parsed.record;
    expect(rec?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Fix the parser please'],
      ['reasoning', 'Look first.'],
      ['assistant', 'Reading it.'],
      ['assistant', 'Done.'],
      ['event', 'Context compacted to stay within limits'],
    ]);
    const calls = rec?.turns[2]?.tool_calls ?? [];
    expect(calls[0]).toMatchObject({ name: 'developer__shell', format: 'shell', input: 'ls src', output: 'p.ts', status: 'ok' });
    expect(calls[1]).toMatchObject({
      name: 'developer__text_editor',
      format: 'diff',
      path: '/work/app/p.ts',
      input: '-a\n+b',
      status: 'error',
    });
    expect(calls[2]).toMatchObject({ name: 'tool', status: 'error', output: '-32602: bad arguments' });
    expect(rec?.totals).toMatchObject({ input_tokens: 15_000, output_tokens: 700, cost_usd: 0.12 });
    expect(rec?.models).toEqual(['claude-sonnet-4-5']);
    expect(rec?.started_at).toBe('2026-09-21T14:13:20.000Z');
    expect(rec?.ended_at).toBe('2026-09-21T14:13:24.000Z');
    expect(rec?.repo).toBe('/work/app');
  });

  it('indexes the visible prompts and answers by Goose message id', async () => {
    const home = join(await tempDir(), 'goose');
    await writeGooseDatabase(home, [work()]);
    const [session] = (await gooseReader.discover(home)).sessions;
    const x = await gooseReader.messages.extract(session as DiscoveredSession, null);
    expect(x.records.map((r) => [r.role, r.text, r.item_id])).toEqual([
      ['user', 'Fix the parser please', 'm1'],
      ['assistant', 'Reading it.', 'm2'],
      ['assistant', 'Done.', 'm4'],
    ]);
  });

  it('lists a legacy JSONL file once, and not when the database imported it', async () => {
    const home = join(await tempDir(), 'goose');
    await writeGooseDatabase(home, [work('20250301_120000')]);
    await writeLegacySession(home, work('20250301_120000'));
    const legacy = await writeLegacySession(home, work('20250302_090000'));
    const found = await gooseReader.discover(home);
    expect(found.sessions.map((s) => [s.sessionId, s.path === legacy])).toEqual([
      ['20250301_120000', false],
      ['20250302_090000', true],
    ]);
    const parsed = await gooseReader.parse(found.sessions[1] as DiscoveredSession, { detail: 'full' });
    expect(parsed.record?.turns.map((t) => t.text)).toEqual([
      'Fix the parser please',
      'Look first.',
      'Reading it.',
      'Done.',
      'Context compacted to stay within limits',
    ]);
    expect(parsed.record?.totals).toMatchObject({ input_tokens: 15_000, output_tokens: 700, cost_usd: null });
    expect(await gooseReader.claim(legacy)).toMatchObject({ sessionId: '20250302_090000', cwd: '/work/app', home });
  });

  it('finds nothing, and no problem, without a home', async () => {
    expect(await gooseReader.discover(join(await tempDir(), 'missing'))).toEqual({ sessions: [], problems: [] });
  });

  it('keeps a database session as an export that reads back to the same record', async () => {
    const home = join(await tempDir(), 'goose');
    const database = await writeGooseDatabase(home, [work()]);
    expect((await gooseReader.claim(database))?.sessionId).toBe('20261001_1');
    const [session] = (await gooseReader.discover(home)).sessions;
    const [entry] = await gooseReader.tree(session as DiscoveredSession);
    if (entry?.kind !== 'export') throw new Error('expected an export');
    expect(entry.relPath).toBe('goose-export/20261001_1.jsonl');
    const kept = join(await tempDir(), 'kept.jsonl');
    await writeFile(kept, await entry.produce());
    const again = await gooseReader.claim(kept);
    expect(again?.sessionId).toBe('20261001_1');
    const a = await gooseReader.parse(session as DiscoveredSession, { detail: 'full' });
    const b = await gooseReader.parse(again as DiscoveredSession, { detail: 'full' });
    expect(b.record).toEqual(a.record);
    expect((await entry.produce()).equals(await readFile(kept))).toBe(true);
  });

  it('reports a locked or corrupt database as unreadable and still lists the legacy files', async () => {
    const corruptHome = join(await tempDir(), 'goose');
    await mkdir(join(corruptHome, 'sessions'), { recursive: true });
    await writeFile(join(corruptHome, 'sessions', 'sessions.db'), 'this is not a database, only text long enough to have a header');
    await writeLegacySession(corruptHome, work('20250302_090000'));
    const corrupt = await gooseReader.discover(corruptHome);
    expect(corrupt.sessions.map((s) => s.sessionId)).toEqual(['20250302_090000']);
    expect(corrupt.problems.map((p) => p.kind)).toEqual(['unreadable']);

    const home = join(await tempDir(), 'goose');
    const database = await writeGooseDatabase(home, [work()]);
    await writeLegacySession(home, work('20250302_090000'));
    const writer = new Database(database);
    try {
      writer.pragma('locking_mode = EXCLUSIVE');
      writer.exec('BEGIN EXCLUSIVE');
      writer.exec("UPDATE sessions SET name = 'busy'");
      const found = await createGooseReader({ busyTimeoutMs: 50 }).discover(home);
      expect(found.sessions.map((s) => s.sessionId)).toEqual(['20250302_090000']);
      expect(found.problems).toEqual([
        expect.objectContaining({ path: database, kind: 'unreadable', reason: expect.stringMatching(/locked/) }),
      ]);
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  });

  it('counts content that is not JSON and reads the rest', async () => {
    const home = join(await tempDir(), 'goose');
    const database = await writeGooseDatabase(home, [work()]);
    const db = new Database(database);
    db.prepare("UPDATE messages SET content_json = 'not json' WHERE message_id = 'm4'").run();
    db.close();
    const [session] = (await gooseReader.discover(home)).sessions;
    const parsed = await gooseReader.parse(session as DiscoveredSession, { detail: 'full' });
    expect(parsed.badLines).toEqual([{ path: database, count: 1 }]);
    expect(parsed.record?.turns.map((t) => t.text)).toEqual(['Fix the parser please', 'Look first.', 'Reading it.']);
  });

  it('reads at summary detail what the full record says, tool responses read without their output', async () => {
    const home = join(await tempDir(), 'goose');
    const s = work();
    s.messages.push(
      assistant('m5', t0 + 5, [
        toolRequest('t4', 'developer__shell', { command: 'a' }),
        toolRequest('t5', 'developer__shell', { command: 'b' }),
      ]),
      {
        id: 'm6',
        role: 'user',
        created: t0 + 6,
        content: [{ type: 'toolResponse', id: 't4', toolResult: { status: 'error', error: 'boom' } }],
      },
      { id: 'm7', role: 'user', created: t0 + 7, content: [text('and a word'), toolResponse('t5', 'out', true)] },
      { id: 'm8', role: 'user', created: t0 + 8, content: [text('no tools here')] },
    );
    const database = await writeGooseDatabase(home, [s]);
    const db = new Database(database);
    db.prepare('UPDATE messages SET content_json = \'{"type":"toolResponse"}\' WHERE message_id = \'m8\'').run();
    db.prepare("UPDATE messages SET content_json = json_insert(content_json, '$[#]', 'stray') WHERE message_id = 'm7'").run();
    db.close();
    const [session] = (await gooseReader.discover(home)).sessions;
    const full = await gooseReader.parse(session as DiscoveredSession, { detail: 'full' });
    const summary = await gooseReader.parse(session as DiscoveredSession, { detail: 'summary' });
    expect(summary.badLines).toEqual([{ path: database, count: 1 }]);
    expect(summary.badLines).toEqual(full.badLines);
    const asSummary = (r: SessionRecord | null) => (r === null ? null : finaliseRecord(r, { detail: 'summary', elide: (t) => t }));
    expect(asSummary(summary.record)).toEqual(asSummary(full.record));
    const statuses = (r: SessionRecord | null) => r?.turns.flatMap((t) => (t.tool_calls ?? []).map((c) => [c.name, c.status]));
    expect(statuses(summary.record)).toEqual(statuses(full.record));
    expect(statuses(summary.record)?.slice(-2)).toEqual([
      ['developer__shell', 'error'],
      ['developer__shell', 'error'],
    ]);
    const x = await gooseReader.messages.extract(session as DiscoveredSession, null);
    expect(x.records.map((r) => r.text)).toContain('and a word');
  });
});
