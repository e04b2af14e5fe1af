import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import type { Turn } from '../../record/types.js';
import { readers } from '../all-readers.js';
import { droidReader } from './index.js';
import { Session, say, think, use, writeSession } from './test-support/session.js';

const mainId = 'd7a1c2e3-0000-4000-8000-000000000001';
const childId = 'd7a1c2e3-0000-4000-8000-000000000002';

function mainSession(): Session {
  return (
    new Session(mainId)
      .user('m1', 1, '<system-reminder>\nUser system info (darwin 24.5.0)\n</system-reminder>\n\nwhy does the parser fail?')
      .assistant('m2', 2, [
        think('Run the tests first.'),
        say('Running the tests.'),
        use('toolu_1', 'Execute', { command: 'npm test', riskLevel: 'low' }),
      ])
      .results('m3', 3, [{ id: 'toolu_1', content: '1 failing' }])
      .assistant('m4', 4, [use('toolu_2', 'Read', { file_path: '/work/app/missing.ts' })])
      .results('m5', 5, [{ id: 'toolu_2', content: 'Error: file not found', isError: true }])
      .assistant('m6', 6, [
        use('toolu_3', 'Task', { subagent_type: 'worker', description: 'find callers', prompt: 'Find every caller of parse()' }),
      ])
      .results('m7', 20, [{ id: 'toolu_3', content: 'Found 3 callers.' }])
      .assistant('m8', 21, [say('The parser fails on empty input.')])
      // Resumed later (`droid -r`): the same file grows.
      .user('m9', 3600, 'fix it')
      .assistant('m10', 3601, [use('toolu_4', 'Edit', { file_path: '/work/app/src/parser.ts', old_str: 'a', new_str: 'b' }), say('Fixed.')])
      .results('m11', 3602, [{ id: 'toolu_4', content: 'ok' }])
  );
}

function childSession(): Session {
  return new Session(childId, '/work/app', { title: 'find callers', callingSessionId: mainId, callingToolUseId: 'toolu_3' })
    .user('c1', 7, 'Find every caller of parse()')
    .assistant('c2', 8, [use('toolu_c1', 'Grep', { pattern: 'parse(' })], 'claude-haiku-4-5')
    .results('c3', 9, [{ id: 'toolu_c1', content: 'src/a.ts:3' }])
    .assistant('c4', 10, [say('Found 3 callers.')], 'claude-haiku-4-5');
}

async function home(): Promise<{ home: string; path: string }> {
  const h = join(await tempDir(), '.factory');
  const path = await writeSession(h, mainSession(), {
    inputTokens: 5000,
    outputTokens: 400,
    cacheCreationTokens: 300,
    cacheReadTokens: 9000,
    thinkingTokens: 50,
  });
  await writeSession(h, childSession(), {
    inputTokens: 800,
    outputTokens: 60,
    cacheCreationTokens: 0,
    cacheReadTokens: 100,
    thinkingTokens: 0,
  });
  return { home: h, path };
}

const roles = (turns: readonly Turn[]) => turns.map((t) => [t.role, t.text]);

describe('droidReader', () => {
  it('lists the session once, its sub-agent session with it, and keeps every file', async () => {
    const { home: h, path } = await home();
    const found = await droidReader.discover(h);
    expect(found.problems).toEqual([]);
    expect(found.sessions.map((s) => [s.sessionId, s.cwd, s.files.length])).toEqual([[mainId, '/work/app', 4]]);
    expect(await droidReader.claim(path)).toMatchObject({ agent: 'droid', sessionId: mainId, home: h });
    for (const other of readers) if (other !== droidReader) expect(await other.claim(path), other.id).toBeNull();
    const tree = await droidReader.tree(found.sessions[0]!);
    expect(tree.map((e) => e.relPath)).toEqual([
      `sessions/-work-app/${mainId}.jsonl`,
      `sessions/-work-app/${mainId}.settings.json`,
      `sessions/-work-app/${childId}.jsonl`,
      `sessions/-work-app/${childId}.settings.json`,
    ]);
  });

  it('reads prompts without injected reminders, reasoning, paired tool calls and the nested sub-agent', async () => {
    const { home: h } = await home();
    const session = (await droidReader.discover(h)).sessions[0]!;
    const parsed = await droidReader.parse(session, { detail: 'full' });
    expect(parsed.badLines).toEqual([]);
    const r = parsed.record!;
    expect(r).toMatchObject({ agent: 'droid', session_id: mainId, repo: '/work/app', models: ['claude-sonnet-4-5-20250929'] });
    expect(roles(r.turns)).toEqual([
      ['user', 'why does the parser fail?'],
      ['reasoning', 'Run the tests first.'],
      ['assistant', 'Running the tests.'],
      ['assistant', ''],
      ['assistant', ''],
      ['assistant', 'The parser fails on empty input.'],
      ['user', 'fix it'],
      ['assistant', 'Fixed.'],
    ]);
    const calls = r.turns.flatMap((t) => t.tool_calls ?? []);
    expect(calls[0]).toEqual({ name: 'Execute', format: 'shell', input: 'npm test', output: '1 failing', status: 'ok' });
    expect(calls[1]).toMatchObject({ name: 'Read', path: '/work/app/missing.ts', status: 'error', output: 'Error: file not found' });
    expect(calls[3]).toMatchObject({ name: 'Edit', format: 'diff', input: '-a\n+b', status: 'ok' });
    const sub = calls[2]?.subagent;
    expect(sub).toMatchObject({ id: childId, name: 'find callers', models: ['claude-haiku-4-5', 'claude-sonnet-4-5-20250929'] });
    expect(sub?.totals).toMatchObject({ input_tokens: 800, output_tokens: 60, cache_read_tokens: 100 });
    expect(roles(sub?.turns ?? [])).toEqual([
      ['user', 'Find every caller of parse()'],
      ['assistant', ''],
      ['assistant', 'Found 3 callers.'],
    ]);
  });

  it('takes the session’s own tokens from its settings file', async () => {
    const { home: h } = await home();
    const session = (await droidReader.discover(h)).sessions[0]!;
    const r = (await droidReader.parse(session, { detail: 'full' })).record!;
    expect(r.totals).toEqual({
      input_tokens: 5000,
      output_tokens: 400,
      cache_creation_tokens: 300,
      cache_read_tokens: 9000,
      reasoning_tokens: 50,
      cost_usd: null,
    });
  });

  it('indexes prompts and replies of the session and its sub-agent; a bad line is counted', async () => {
    const { home: h, path } = await home();
    await appendFile(path, 'nonsense\n{"type":"mess');
    const session = (await droidReader.discover(h)).sessions[0]!;
    const x = await droidReader.messages.extract(session, null);
    expect(x.badLines).toBe(1);
    expect(x.records.map((m) => [m.role, m.text, m.subagent ?? false])).toEqual([
      ['user', 'why does the parser fail?', false],
      ['assistant', 'Running the tests.', false],
      ['assistant', 'The parser fails on empty input.', false],
      ['user', 'fix it', false],
      ['assistant', 'Fixed.', false],
      ['user', 'Find every caller of parse()', true],
      ['assistant', 'Found 3 callers.', true],
    ]);
  });

  it('lists a legacy session directly under sessions/, and a sub-agent whose caller is gone on its own', async () => {
    const h = join(await tempDir(), '.factory');
    await writeSession(h, new Session('legacy-1').user('u', 1, 'hi').assistant('a', 2, [say('hello')]), undefined, join(h, 'sessions'));
    await writeSession(h, childSession());
    const found = await droidReader.discover(h);
    expect(found.sessions.map((s) => s.sessionId).sort()).toEqual([childId, 'legacy-1']);
  });

  it('shows a line for tail as the record reads it', () => {
    const s = mainSession();
    expect(droidReader.entryView?.(s.lines[1] as Record<string, unknown>)).toEqual({
      timestamp: '2026-07-04T09:00:01.000Z',
      role: 'user',
      text: 'why does the parser fail?',
    });
    expect(droidReader.entryView?.(s.lines[2] as Record<string, unknown>)).toMatchObject({
      role: 'assistant',
      text: 'Running the tests. [Execute]',
    });
  });

  it('looks in ~/.factory (Droid follows HOME); a missing home is empty', async () => {
    expect(droidReader.homes({ env: () => undefined, homedir: '/u' })).toEqual(['/u/.factory']);
    expect(await droidReader.discover(join(await tempDir(), 'none'))).toEqual({ sessions: [], problems: [] });
  });

  it('reads the same session below the full detail level without parsing tool outputs: same turns, times, totals', async () => {
    const { home: h } = await home();
    const session = (await droidReader.discover(h)).sessions[0]!;
    const full = (await droidReader.parse(session, { detail: 'full' })).record!;
    const summary = (await droidReader.parse(session, { detail: 'summary' })).record!;
    const shape = (r: typeof full) => ({
      started: r.started_at,
      ended: r.ended_at,
      totals: r.totals,
      turns: r.turns.map((t) => [t.role, t.text, (t.tool_calls ?? []).map((c) => [c.name, c.subagent?.turns.length ?? 0])]),
    });
    expect(shape(summary)).toEqual(shape(full));
  });
});
