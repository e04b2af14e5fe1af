import { appendFile, readFile, utimes, writeFile } from 'node:fs/promises';
import { DiscoveryCache } from '../../scan/discovery-cache.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import type { Turn } from '../../record/types.js';
import { readers } from '../all-readers.js';
import { qwenReader } from './index.js';
import { callPart, Chat, chatsDir, say, think, writeChat } from './test-support/chat.js';

const sessionId = '5b1c7e0a-2f4d-4c1e-9a7b-0d3e8f6a1c01';

/** A session with a subagent, tool errors, a compaction, a resume by a newer version and a rewind. */
function richChat(): Chat {
  const c = new Chat(sessionId);
  c.system('s0', 0, 'session_source', { sourceType: 'cli' });
  c.user('u1', 1, 'explain src/parser.ts\n--- Content from referenced files ---\nContent from @src/parser.ts:\nexport {}', {
    display: 'explain @src/parser.ts',
  });
  c.assistant(
    'a1',
    2,
    [think('Reading the parser first.'), say('Let me run the tests.'), callPart('call_1', 'run_shell_command', { command: 'npm test' })],
    {
      promptTokenCount: 1000,
      candidatesTokenCount: 60,
      totalTokenCount: 1060,
      cachedContentTokenCount: 400,
      thoughtsTokenCount: 10,
    },
  );
  c.toolResult('t1', 3, 'call_1', 'run_shell_command', { output: 'Command: npm test\nOutput: 1 failing\nExit Code: 1' }, 'success');
  c.assistant('a2', 4, [callPart('call_2', 'read_file', { absolute_path: '/work/app/missing.ts' })]);
  c.toolResult('t2', 5, 'call_2', 'read_file', { error: 'File not found: /work/app/missing.ts' }, 'error');
  c.assistant('a3', 6, [
    callPart('call_3', 'task', { description: 'find usages', prompt: 'Find every caller of parse()', subagent_type: 'general-purpose' }),
  ]);
  c.toolResult('t3', 7, 'call_3', 'task', { output: 'Found 3 callers.' }, 'success', {
    type: 'task_execution',
    subagentName: 'general-purpose',
    taskDescription: 'find usages',
    taskPrompt: 'Find every caller of parse()',
    status: 'completed',
    result: 'Found 3 callers.',
    executionSummary: {
      rounds: 2,
      totalDurationMs: 5000,
      totalToolCalls: 1,
      successfulToolCalls: 1,
      failedToolCalls: 0,
      successRate: 100,
      inputTokens: 3000,
      outputTokens: 120,
      totalTokens: 3120,
    },
    toolCalls: [{ callId: 'sub_1', name: 'grep_search', status: 'success', args: { pattern: 'parse(' }, result: '3 matches' }],
  });
  c.assistant('a4', 8, [say('The parser fails on empty input.')]);
  c.system('s1', 9, 'chat_compression', {
    info: { originalTokenCount: 9000, newTokenCount: 2000, compressionStatus: 1 },
    compressedHistory: [],
  });
  // Resumed the next day by a newer Qwen Code: the same file grows.
  c.version = '0.2.2';
  c.user('n1', 99, 'Background task finished', { display: 'Background agent done', subtype: 'notification' });
  c.user('u5', 100, 'fix it');
  c.assistant('a5', 101, [say('Fixed.')]);
  c.user('u6', 102, 'try another approach');
  c.assistant('a6', 103, [say('Rewrote the lexer.')]);
  // `/rewind` to before u6: the rewound records stay in the file on a dead branch.
  c.system('r1', 104, 'rewind', { truncatedCount: 2 }, { parent: 'a5' });
  c.user('u7', 105, 'keep the first fix and add a test');
  c.assistant('a7', 106, [say('Added a test.')]);
  // A subagent's own request, written beside the session.
  c.lines.push({
    ...(c.lines.at(-1) as object),
    uuid: 'x1',
    parentUuid: null,
    isSidechain: true,
    agentId: 'explore-7f3c',
    timestamp: '2026-05-02T10:01:50.000Z',
  });
  c.system('s2', 107, 'custom_title', { customTitle: 'Parser fix', titleSource: 'auto' }, { keepTail: true });
  return c;
}

async function home(): Promise<{ home: string; path: string }> {
  const h = join(await tempDir(), '.qwen');
  const path = await writeChat(h, richChat());
  return { home: h, path };
}

const roles = (turns: readonly Turn[]) => turns.map((t) => [t.role, t.text]);

describe('qwenReader', () => {
  it('finds the chat under projects/<cwd>/chats with its working directory', async () => {
    const { home: h, path } = await home();
    const found = await qwenReader.discover(h);
    expect(found.problems).toEqual([]);
    expect(found.sessions).toEqual([
      { agent: 'qwen', sessionId, home: h, path, files: [expect.objectContaining({ path })], cwd: '/work/app' },
    ]);
    expect(path).toBe(join(chatsDir(h), `${sessionId}.jsonl`));
    expect(await qwenReader.claim(path)).toMatchObject({ agent: 'qwen', sessionId, home: h });
    for (const other of readers) if (other !== qwenReader) expect(await other.claim(path), other.id).toBeNull();
  });

  it('reads the active branch: typed prompts, reasoning, paired tool calls, the subagent, events', async () => {
    const { home: h } = await home();
    const session = (await qwenReader.discover(h)).sessions[0]!;
    const parsed = await qwenReader.parse(session, { detail: 'full' });
    expect(parsed.badLines).toEqual([]);
    expect(parsed.cwds).toEqual(['/work/app']);
    const r = parsed.record!;
    expect(r).toMatchObject({ agent: 'qwen', session_id: sessionId, repo: '/work/app', branch: 'main', models: ['qwen3-coder-plus'] });
    expect(r.started_at).toBe('2026-05-02T10:00:00.000Z');
    expect(roles(r.turns)).toEqual([
      ['user', 'explain @src/parser.ts'],
      ['reasoning', 'Reading the parser first.'],
      ['assistant', 'Let me run the tests.'],
      ['assistant', ''],
      ['assistant', ''],
      ['assistant', 'The parser fails on empty input.'],
      ['event', 'context compacted'],
      ['event', 'Background agent done'],
      ['user', 'fix it'],
      ['assistant', 'Fixed.'],
      ['user', 'keep the first fix and add a test'],
      ['assistant', 'Added a test.'],
    ]);
    const calls = r.turns.flatMap((t) => t.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ name: 'run_shell_command', format: 'shell', input: 'npm test', status: 'ok', exit_code: 1 });
    expect(calls[1]).toMatchObject({
      name: 'read_file',
      path: '/work/app/missing.ts',
      status: 'error',
      output: 'File not found: /work/app/missing.ts',
    });
    expect(calls[2]?.subagent).toMatchObject({
      id: 'call_3',
      name: 'general-purpose',
      description: 'find usages',
      status: 'completed',
      totals: { input_tokens: 3000, output_tokens: 120 },
    });
    expect(roles(calls[2]?.subagent?.turns ?? [])).toEqual([
      ['user', 'Find every caller of parse()'],
      ['assistant', 'Found 3 callers.'],
    ]);
    expect(calls[2]?.subagent?.turns[1]?.tool_calls).toEqual([
      { name: 'grep_search', format: 'json', input: '{"pattern":"parse("}', output: '3 matches', status: 'ok' },
    ]);
  });

  it('counts every request once: cache reads out of input, reasoning out of the completion count', async () => {
    const { home: h } = await home();
    const session = (await qwenReader.discover(h)).sessions[0]!;
    const r = (await qwenReader.parse(session, { detail: 'full' })).record!;
    // Eight requests (a1–a7, a6 rewound, and x1 a sidechain's) of 600 input + 400 cached, 50 output;
    // a1's completion of 60 held 10 reasoning tokens.
    expect(r.totals).toEqual({
      input_tokens: 600 * 8,
      output_tokens: 50 * 8,
      cache_read_tokens: 400 * 8,
      cache_creation_tokens: 0,
      reasoning_tokens: 10,
      cost_usd: null,
    });
    expect(r.turns.find((t) => t.text === 'Let me run the tests.')?.usage).toMatchObject({
      input_tokens: 600,
      output_tokens: 50,
      reasoning_tokens: 10,
    });
  });

  it('counts Gemini-style usage, where thoughts are stated beside the candidates, once too', async () => {
    const h = join(await tempDir(), '.qwen');
    const c = new Chat('gem').user('u', 1, 'hi').assistant('a', 2, [say('hello')], {
      promptTokenCount: 100,
      candidatesTokenCount: 20,
      thoughtsTokenCount: 30,
      totalTokenCount: 150,
    });
    await writeChat(h, c);
    const session = (await qwenReader.discover(h)).sessions[0]!;
    const r = (await qwenReader.parse(session, { detail: 'full' })).record!;
    expect(r.totals).toMatchObject({ input_tokens: 100, output_tokens: 20, reasoning_tokens: 30 });
  });

  it('indexes the prose of every branch, the rewound one superseded, and counts a torn line as nothing', async () => {
    const { home: h, path } = await home();
    await appendFile(path, 'not json\n{"uuid":"half');
    const session = (await qwenReader.discover(h)).sessions[0]!;
    const x = await qwenReader.messages.extract(session, null);
    expect(x.badLines).toBe(1);
    expect(x.records.map((m) => m.text)).toEqual([
      'explain @src/parser.ts',
      'Let me run the tests.',
      'The parser fails on empty input.',
      'fix it',
      'Fixed.',
      'try another approach',
      'Rewrote the lexer.',
      'keep the first fix and add a test',
      'Added a test.',
    ]);
    expect(x.marks).toEqual([{ kind: 'record_ids', record_ids: ['u6', 'a6'], at_ms: expect.any(Number), reason: 'qwen_rewound_branch' }]);
    const parsed = await qwenReader.parse(session, { detail: 'full' });
    expect(parsed.badLines).toEqual([{ path, count: 1 }]);
  });

  it('shows a line for tail as the record reads it', () => {
    const c = richChat();
    const view = (uuid: string) => qwenReader.entryView?.(c.lines.find((l) => l['uuid'] === uuid) as Record<string, unknown>);
    expect(view('u1')).toEqual({ timestamp: '2026-05-02T10:00:01.000Z', role: 'user', text: 'explain @src/parser.ts' });
    expect(view('a1')).toMatchObject({ role: 'assistant', text: 'Let me run the tests. [run_shell_command]' });
    expect(view('t2')).toMatchObject({ role: 'tool', text: 'File not found: /work/app/missing.ts' });
  });

  it('takes its home from QWEN_RUNTIME_DIR, else ~/.qwen; a missing home is empty', async () => {
    expect(qwenReader.homes({ env: () => undefined, homedir: '/u' })).toEqual(['/u/.qwen']);
    expect(qwenReader.homes({ env: (n) => (n === 'QWEN_RUNTIME_DIR' ? '/r' : undefined), homedir: '/u' })).toEqual(['/r']);
    expect(await qwenReader.discover(join(await tempDir(), 'none'))).toEqual({ sessions: [], problems: [] });
  });

  it('reads the same session below the full detail level without parsing tool outputs: same turns, times, totals', async () => {
    const { home: h } = await home();
    const session = (await qwenReader.discover(h)).sessions[0]!;
    const full = (await qwenReader.parse(session, { detail: 'full' })).record!;
    const summary = (await qwenReader.parse(session, { detail: 'summary' })).record!;
    const shape = (r: typeof full) => ({
      started: r.started_at,
      ended: r.ended_at,
      totals: r.totals,
      turns: r.turns.map((t) => [t.role, t.text, (t.tool_calls ?? []).map((c) => [c.name, c.subagent?.turns.length ?? 0])]),
    });
    expect(shape(summary)).toEqual(shape(full));
  });
});

describe('qwen discovery through a discovery cache', () => {
  it('answers as from the disk, cold and warm, and reads a rewritten chat again', async () => {
    const { home: h, path } = await home();
    const old = Math.floor(Date.now() / 1000) - 3600;
    await utimes(path, old, old);
    const cache = await DiscoveryCache.open(join(await tempDir(), 'cache.json'), 't', () => Date.now() + 60_000);
    const plain = await qwenReader.discover(h);
    expect(await qwenReader.discover(h, cache)).toEqual(plain);
    await cache.save();
    expect(await qwenReader.discover(h, cache)).toEqual(plain);
    expect(cache.stats).toMatchObject({ factHits: 1, factMisses: 1 });
    await cache.save();

    // Rewritten with another working directory, its times put back (a coarse clock): read again.
    await writeFile(path, (await readFile(path, 'utf8')).replaceAll('/work/app', '/work/elsewhere'));
    await utimes(path, old, old);
    const after = await qwenReader.discover(h, cache);
    expect(after).toEqual(await qwenReader.discover(h));
    expect(after.sessions[0]?.cwd).toBe('/work/elsewhere');
  });
});
