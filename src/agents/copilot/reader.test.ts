import { appendFile, mkdir, utimes, writeFile } from 'node:fs/promises';
import { DiscoveryCache } from '../../scan/discovery-cache.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import type { Turn } from '../../record/types.js';
import { readers } from '../all-readers.js';
import { copilotReader } from './index.js';
import { Events, writeSession } from './test-support/events.js';

const sessionId = '3f2a9c10-5b6d-4e7f-8a9b-0c1d2e3f4a5b';

/** A session with a sub-agent, a failed tool, reasoning, a compaction, an abort and a resume. */
function richEvents(): Events {
  const ev = new Events(sessionId).start(0);
  ev.add('session.info', 1, { infoType: 'folder_trust', message: 'Folder /work/app has been added to trusted folders.' });
  ev.user(2, 'why does the parser fail?');
  ev.add('assistant.turn_start', 3, { turnId: '0', interactionId: 'i1' });
  ev.add('assistant.reasoning', 3, { reasoningId: 'r1', content: 'Check the tests first.' });
  ev.assistant(4, 'Running the tests.', [{ id: 'tc_1', name: 'bash', args: { command: 'npm test', description: 'run tests' } }]);
  ev.toolDone(5, 'tc_1', 'bash', '1 failing\n<exited with exit code 1>');
  ev.assistant(6, '', [{ id: 'tc_2', name: 'view', args: { path: '/work/app/missing.ts' } }]);
  ev.toolDone(7, 'tc_2', 'view', 'Path does not exist', false);
  ev.assistant(8, '', [
    { id: 'tc_3', name: 'task', args: { description: 'find callers', prompt: 'Find every caller of parse()', agent_type: 'explore' } },
  ]);
  ev.add(
    'subagent.started',
    9,
    { toolCallId: 'tc_3', agentName: 'explore', agentDisplayName: 'Explore', agentDescription: 'Fast codebase exploration' },
    'explore-1',
  );
  ev.user(9, 'Find every caller of parse()', { source: 'agent-explore-1' }, 'explore-1');
  ev.assistant(10, 'Searching.', [{ id: 'tc_s1', name: 'grep', args: { pattern: 'parse(' } }], 'explore-1');
  ev.toolDone(11, 'tc_s1', 'grep', 'src/a.ts:3', true, 'explore-1');
  ev.assistant(12, 'Found 3 callers.', [], 'explore-1');
  ev.add('subagent.completed', 13, {
    toolCallId: 'tc_3',
    agentName: 'explore',
    agentDisplayName: 'Explore',
    model: 'claude-haiku-4.5',
    totalTokens: 900,
    totalToolCalls: 1,
  });
  ev.toolDone(13, 'tc_3', 'task', 'Found 3 callers.');
  ev.assistant(14, 'The parser fails on empty input.');
  ev.add('session.compaction_start', 15, { trigger: 'threshold' });
  ev.add('session.compaction_complete', 16, {
    success: true,
    summaryContent: 'We looked at the parser.',
    preCompactionTokens: 90000,
    postCompactionTokens: 12000,
  });
  ev.user(17, 'fix it');
  ev.assistant(18, '', [{ id: 'tc_4', name: 'edit', args: { path: '/work/app/src/parser.ts', old_str: 'a', new_str: 'b' } }]);
  ev.add('tool.execution_start', 19, { toolCallId: 'tc_4', toolName: 'edit', arguments: {} });
  ev.add('abort', 20, { reason: 'user_initiated' });
  ev.shutdown(21, {
    'claude-sonnet-4.5': { input: 5000, output: 300, cacheRead: 4000, cacheWrite: 200, reasoning: 40 },
    'claude-haiku-4.5': { input: 900, output: 50, cacheRead: 0, cacheWrite: 0 },
  });
  // Resumed the next day: the same log grows.
  ev.add('session.resume', 86_400, {
    resumeTime: '2026-06-04T08:00:00.000Z',
    eventCount: 30,
    context: { cwd: '/work/app', branch: 'fix' },
  });
  ev.user(86_401, 'continue');
  ev.assistant(86_402, 'Fixed.');
  ev.add('assistant.turn_end', 86_403, { turnId: '3' });
  ev.shutdown(86_404, { 'claude-sonnet-4.5': { input: 1000, output: 100, cacheRead: 600, cacheWrite: 0 } });
  return ev;
}

async function home(): Promise<{ home: string; path: string }> {
  const h = join(await tempDir(), '.copilot');
  return { home: h, path: await writeSession(h, richEvents()) };
}

const roles = (turns: readonly Turn[]) => turns.map((t) => [t.role, t.text]);

describe('copilotReader', () => {
  it('finds session folders and older loose logs, each once, with the working directory', async () => {
    const { home: h, path } = await home();
    const loose = join(h, 'session-state', 'a1b2c3d4-0000-4000-8000-000000000009.jsonl');
    await writeFile(
      loose,
      new Events('a1b2c3d4-0000-4000-8000-000000000009').start(0, '/work/old').user(1, 'hi').assistant(2, 'hello').text(),
    );
    await mkdir(join(h, 'session-state', 'empty-folder'), { recursive: true });
    const found = await copilotReader.discover(h);
    expect(found.problems).toEqual([]);
    expect(found.sessions.map((s) => [s.sessionId, s.cwd])).toEqual([
      [sessionId, '/work/app'],
      ['a1b2c3d4-0000-4000-8000-000000000009', '/work/old'],
    ]);
    expect(await copilotReader.claim(join(h, 'session-state', sessionId))).toMatchObject({ agent: 'copilot', sessionId, path, home: h });
    for (const other of readers) if (other !== copilotReader) expect(await other.claim(path), other.id).toBeNull();
    const tree = await copilotReader.tree(found.sessions[0]!);
    expect(tree.map((e) => e.relPath)).toEqual([`session-state/${sessionId}/events.jsonl`, `session-state/${sessionId}/workspace.yaml`]);
  });

  it('reads the turns: typed prompts, reasoning, paired tool calls, the sub-agent nested, events', async () => {
    const { home: h } = await home();
    const session = (await copilotReader.discover(h)).sessions[0]!;
    const parsed = await copilotReader.parse(session, { detail: 'full' });
    expect(parsed.badLines).toEqual([]);
    expect(parsed.cwds).toEqual(['/work/app']);
    const r = parsed.record!;
    expect(r).toMatchObject({
      agent: 'copilot',
      session_id: sessionId,
      repo: '/work/app',
      branch: 'fix',
      started_at: '2026-06-03T08:00:00.000Z',
      ended_at: '2026-06-04T08:00:04.000Z',
    });
    expect(r.models).toEqual(['claude-sonnet-4.5', 'claude-haiku-4.5']);
    expect(roles(r.turns)).toEqual([
      ['user', 'why does the parser fail?'],
      ['reasoning', 'Check the tests first.'],
      ['assistant', 'Running the tests.'],
      ['assistant', ''],
      ['assistant', ''],
      ['assistant', 'The parser fails on empty input.'],
      ['event', 'context compacted'],
      ['user', 'fix it'],
      ['assistant', ''],
      ['event', 'interrupted'],
      ['user', 'continue'],
      ['assistant', 'Fixed.'],
    ]);
    const calls = r.turns.flatMap((t) => t.tool_calls ?? []);
    expect(calls[0]).toEqual({
      name: 'bash',
      format: 'shell',
      input: 'npm test',
      output: '1 failing\n<exited with exit code 1>',
      status: 'ok',
    });
    expect(calls[1]).toMatchObject({ name: 'view', path: '/work/app/missing.ts', status: 'error', output: 'Path does not exist' });
    expect(calls[3]).toMatchObject({ name: 'edit', format: 'diff', input: '-a\n+b', status: 'interrupted' });
    const sub = calls[2]?.subagent;
    expect(sub).toMatchObject({
      id: 'tc_3',
      name: 'explore',
      description: 'Fast codebase exploration',
      status: 'completed',
      models: ['claude-haiku-4.5'],
    });
    expect(roles(sub?.turns ?? [])).toEqual([
      ['event', 'Find every caller of parse()'],
      ['assistant', 'Searching.'],
      ['assistant', 'Found 3 callers.'],
    ]);
    expect(sub?.turns[1]?.tool_calls).toEqual([
      { name: 'grep', format: 'json', input: '{"pattern":"parse("}', output: 'src/a.ts:3', status: 'ok' },
    ]);
  });

  it('sums each lifetime’s shutdown usage per model, cache reads taken out of the input', async () => {
    const { home: h } = await home();
    const session = (await copilotReader.discover(h)).sessions[0]!;
    const r = (await copilotReader.parse(session, { detail: 'full' })).record!;
    expect(r.totals).toEqual({
      input_tokens: 1000 + 900 + 400,
      output_tokens: 300 + 50 + 100,
      cache_read_tokens: 4000 + 600,
      cache_creation_tokens: 200,
      reasoning_tokens: 40,
      cost_usd: null,
    });
  });

  it('indexes typed prompts and every reply, sub-agents flagged; a bad line is counted', async () => {
    const { home: h, path } = await home();
    await appendFile(path, 'garbage\n{"type":"user.mess');
    const session = (await copilotReader.discover(h)).sessions[0]!;
    const x = await copilotReader.messages.extract(session, null);
    expect(x.badLines).toBe(1);
    expect(x.records.map((m) => [m.role, m.text, m.subagent ?? false])).toEqual([
      ['user', 'why does the parser fail?', false],
      ['assistant', 'Running the tests.', false],
      ['assistant', 'Searching.', true],
      ['assistant', 'Found 3 callers.', true],
      ['assistant', 'The parser fails on empty input.', false],
      ['user', 'fix it', false],
      ['user', 'continue', false],
      ['assistant', 'Fixed.', false],
    ]);
  });

  it('shows a line for tail as the record reads it', () => {
    const ev = richEvents();
    const at = (i: number) => copilotReader.entryView?.(ev.lines[i] as Record<string, unknown>);
    expect(at(2)).toEqual({ timestamp: '2026-06-03T08:00:02.000Z', role: 'user', text: 'why does the parser fail?' });
    expect(at(5)).toMatchObject({ role: 'assistant', text: 'Running the tests. [bash]' });
  });

  it('takes its home from COPILOT_HOME, else ~/.copilot; a missing home is empty', async () => {
    expect(copilotReader.homes({ env: () => undefined, homedir: '/u' })).toEqual(['/u/.copilot']);
    expect(copilotReader.homes({ env: (n) => (n === 'COPILOT_HOME' ? '/c' : undefined), homedir: '/u' })).toEqual(['/c']);
    expect(await copilotReader.discover(join(await tempDir(), 'none'))).toEqual({ sessions: [], problems: [] });
  });

  it('reads the same session below the full detail level without parsing tool outputs: same turns, times, totals', async () => {
    const { home: h } = await home();
    const session = (await copilotReader.discover(h)).sessions[0]!;
    const full = (await copilotReader.parse(session, { detail: 'full' })).record!;
    const summary = (await copilotReader.parse(session, { detail: 'summary' })).record!;
    const shape = (r: typeof full) => ({
      started: r.started_at,
      ended: r.ended_at,
      totals: r.totals,
      turns: r.turns.map((t) => [t.role, t.text, (t.tool_calls ?? []).map((c) => [c.name, c.subagent?.turns.length ?? 0])]),
    });
    expect(shape(summary)).toEqual(shape(full));
  });
});

describe('copilot discovery through a discovery cache', () => {
  it('answers as from the disk, cold and warm, and reads a rewritten events file again', async () => {
    const { home: h, path } = await home();
    const old = Math.floor(Date.now() / 1000) - 3600;
    await utimes(path, old, old);
    await utimes(join(h, 'session-state'), old, old);
    const cache = await DiscoveryCache.open(join(await tempDir(), 'cache.json'), 't', () => Date.now() + 60_000);
    const plain = await copilotReader.discover(h);
    expect(await copilotReader.discover(h, cache)).toEqual(plain);
    await cache.save();
    expect(await copilotReader.discover(h, cache)).toEqual(plain);
    expect(cache.stats).toMatchObject({ dirHits: 1, dirMisses: 1, factHits: 1, factMisses: 1 });
    await cache.save();

    // Started elsewhere, its times put back (a coarse clock): read again.
    await writeFile(path, new Events(sessionId).start(0, '/work/elsewhere').user(1, 'hi').text());
    await utimes(path, old, old);
    const moved = await copilotReader.discover(h, cache);
    expect(moved).toEqual(await copilotReader.discover(h));
    expect(moved.sessions.map((s) => s.cwd)).toEqual(['/work/elsewhere']);
    await cache.save();

    // No longer opening with session.start: no longer a session.
    await writeFile(path, `${JSON.stringify({ type: 'other', data: {} })}\n`);
    await utimes(path, old, old);
    expect((await copilotReader.discover(h, cache)).sessions).toEqual([]);
  });
});
