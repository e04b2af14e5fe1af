import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { finaliseRecord } from '../../record/finalise.js';
import { makeHomeElider } from '../../record/home-elide.js';
import type { Detail, SessionRecord, ToolCall, Turn } from '../../record/types.js';
import type { ParsedSession } from '../types.js';
import { codexReader } from './reader.js';
import { Rollout, writeRollout } from './test-support/rollout-fixture.js';

async function parseRollout(body: Rollout | string, detail: Detail = 'full'): Promise<ParsedSession> {
  const home = join(await tempDir(), '.codex');
  const path = await writeRollout(home, '0199-test', body);
  const session = await codexReader.claim(path);
  if (session === null) throw new Error('not claimed');
  return codexReader.parse(session, { detail });
}

async function record(body: Rollout | string, detail: Detail = 'full'): Promise<SessionRecord> {
  const parsed = await parseRollout(body, detail);
  if (parsed.record === null) throw new Error('no record');
  return finaliseRecord(parsed.record, { detail, elide: makeHomeElider(null) });
}

const roles = (turns: readonly Turn[]) => turns.map((t) => `${t.role}:${t.text}`);
const calls = (r: SessionRecord): ToolCall[] => r.turns.flatMap((t) => t.tool_calls ?? []);

describe('codex user turns', () => {
  it('keeps only what the person typed: developer messages and injected parts go', async () => {
    const r = await record(
      new Rollout('0199-test')
        .meta()
        .developer('<permissions instructions>\nsandbox\n</permissions instructions>')
        .user(
          '# AGENTS.md instructions for /work/demo\n\n<INSTRUCTIONS>\nrules\n</INSTRUCTIONS>',
          '<environment_context>\n<cwd>/work/demo</cwd>\n</environment_context>',
        )
        .user('<user_instructions>\nuse tabs\n</user_instructions>', 'Summarise the README.')
        .turnContext()
        .assistant('It is a demo.'),
    );
    expect(roles(r.turns)).toEqual(['user:Summarise the README.', 'assistant:It is a demo.']);
  });

  it('lets content_item_kinds decide over the prefix list', async () => {
    const r = await record(
      new Rollout('0199-test').meta().userWithKinds([
        { text: 'injected but plain-looking', kind: 'agents_md.instructions' },
        { text: '<environment_context> is what I typed', kind: 'user.text' },
      ]),
    );
    expect(roles(r.turns)).toEqual(['user:<environment_context> is what I typed']);
  });

  it('writes the text Codex writes twice once', async () => {
    const r = await record(
      new Rollout('0199-test')
        .meta()
        .user('[REDACTED len=5296]')
        .user('fix the bug')
        .userEvent('fix the bug')
        .turnContext()
        .agentMessageEvent('looking now')
        .assistant('looking now')
        .user('and the test')
        .userEvent('and the test')
        .assistant('done'),
    );
    // With user_message events present, they are the typed text: an injected item the prefix list
    // cannot recognise (here a redacted AGENTS.md) has no event twin and is no turn.
    expect(roles(r.turns)).toEqual(['user:fix the bug', 'assistant:looking now', 'user:and the test', 'assistant:done']);
  });

  it('reads user turns from the events when they come first', async () => {
    const r = await record(new Rollout('0199-test').meta().userEvent('first').user('first').assistant('ok'));
    expect(roles(r.turns)).toEqual(['user:first', 'assistant:ok']);
  });
});

describe('codex assistant and reasoning turns', () => {
  it('names the model from turn_context on assistant turns, only where it changes', async () => {
    const parsed = await parseRollout(
      new Rollout('0199-test')
        .meta()
        .user('a')
        .turnContext('gpt-5')
        .assistant('one')
        .turnContext('gpt-5')
        .assistant('two')
        .turnContext('gpt-5-codex')
        .assistant('three'),
    );
    expect(parsed.record?.turns.filter((t) => t.role === 'assistant').map((t) => t.model)).toEqual(['gpt-5', 'gpt-5', 'gpt-5-codex']);
    const r = await record(
      new Rollout('0199-test')
        .meta()
        .user('a')
        .turnContext('gpt-5')
        .assistant('one')
        .turnContext('gpt-5')
        .assistant('two')
        .turnContext('gpt-5-codex')
        .assistant('three'),
    );
    expect(r.models).toEqual(['gpt-5', 'gpt-5-codex']);
    expect(r.turns.filter((t) => t.role === 'assistant').map((t) => t.model)).toEqual(['gpt-5', undefined, 'gpt-5-codex']);
  });

  it('reads reasoning summaries once and never the encrypted content', async () => {
    const r = await record(
      new Rollout('0199-test')
        .meta()
        .user('think')
        .reasoningEvent('**Checking** the parser')
        .reasoning(['**Checking** the parser'], 'gAAAAAB-top-secret')
        .reasoning([], 'gAAAAAB-only-encrypted')
        .assistant('done'),
    );
    expect(roles(r.turns)).toEqual(['user:think', 'reasoning:**Checking** the parser', 'assistant:done']);
    expect(JSON.stringify(r)).not.toContain('gAAAAAB');
  });

  it('falls back to agent_reasoning events when no item carries a summary', async () => {
    const r = await record(new Rollout('0199-test').meta().user('think').reasoningEvent('plain thought').reasoning([]).assistant('done'));
    expect(roles(r.turns)).toEqual(['user:think', 'reasoning:plain thought', 'assistant:done']);
  });
});

describe('codex tool calls', () => {
  it('pairs outputs by call_id, attaches consecutive calls to the preceding assistant turn', async () => {
    const patch = '*** Begin Patch\n*** Update File: src/a.rs\n@@\n-a\n+b\n*** End Patch';
    const r = await record(
      new Rollout('0199-test')
        .meta()
        .user('go')
        .functionCall('shell', { command: ['bash', '-lc', 'ls'], workdir: '/work/demo' }, 'call_01')
        .assistant('Listing first.', 'commentary')
        .functionCall('exec_command', { cmd: 'cargo test' }, 'call_02')
        .customCall('apply_patch', patch, 'call_03')
        .functionOutput('call_02', 'Chunk ID: x\nWall time: 2 seconds\nProcess exited with code 101\nOutput:\ntest failed\n')
        .customOutput('call_03', 'Success. Updated the following files:\nM src/a.rs')
        .functionOutput('call_01', '{"output":"README.md\\nsrc\\n","metadata":{"exit_code":0,"duration_seconds":0.4}}')
        .functionCall('update_plan', { plan: [{ step: 'x', status: 'done' }] }, 'call_04')
        .assistant('Done.'),
    );
    expect(r.turns.map((t) => [t.role, t.text, (t.tool_calls ?? []).map((c) => c.name)])).toEqual([
      ['user', 'go', []],
      ['assistant', '', ['shell']],
      ['assistant', 'Listing first.', ['exec_command', 'apply_patch', 'update_plan']],
      ['assistant', 'Done.', []],
    ]);
    expect(calls(r)).toEqual([
      { name: 'shell', format: 'shell', input: 'ls', output: 'README.md\nsrc\n', status: 'ok', exit_code: 0 },
      { name: 'exec_command', format: 'shell', input: 'cargo test', output: 'test failed\n', status: 'error', exit_code: 101 },
      {
        name: 'apply_patch',
        format: 'diff',
        path: 'src/a.rs',
        input: patch,
        output: 'Success. Updated the following files:\nM src/a.rs',
        status: 'ok',
      },
      { name: 'update_plan', format: 'json', input: '{"plan":[{"step":"x","status":"done"}]}' },
    ]);
  });

  it('reads local shell, web search and MCP calls', async () => {
    const r = await record(
      new Rollout('0199-test')
        .meta()
        .user('go')
        .line('response_item', {
          type: 'local_shell_call',
          call_id: 'ls_1',
          status: 'completed',
          action: { type: 'exec', command: ['grep', '-rn', 'x y', '.'] },
        })
        .functionOutput('ls_1', '{"output":"","metadata":{"exit_code":1}}')
        .line('response_item', { type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'codex rollout' } })
        .functionCall('mcp__docs__search', { q: 'x' }, 'mcp_1')
        .event('mcp_tool_call_end', {
          call_id: 'mcp_1',
          invocation: { server: 'docs', tool: 'search', arguments: { q: 'x' } },
          result: { Ok: { content: [{ type: 'text', text: 'found' }], isError: false } },
        })
        .functionOutput('mcp_1', 'found')
        .event('mcp_tool_call_end', {
          call_id: 'mcp_2',
          invocation: { server: 'docs', tool: 'fetch', arguments: {} },
          result: { Err: 'timeout' },
        }),
    );
    expect(calls(r)).toEqual([
      { name: 'local_shell', format: 'shell', input: "grep -rn 'x y' .", output: '', status: 'error', exit_code: 1 },
      { name: 'web_search', format: 'text', input: 'codex rollout', status: 'ok' },
      { name: 'mcp__docs__search', format: 'json', input: '{"q":"x"}', output: 'found', status: 'ok' },
      { name: 'mcp__docs__fetch', format: 'json', input: '{}', output: 'timeout', status: 'error' },
    ]);
  });

  it('merges an MCP end event with the item that follows it, but never two items sharing an id', async () => {
    const r = await record(
      new Rollout('0199-test')
        .meta()
        .user('go')
        .event('mcp_tool_call_end', {
          call_id: 'm1',
          invocation: { server: 'docs', tool: 'search', arguments: { q: 1 } },
          result: { Ok: { content: [{ type: 'text', text: 'hit' }] } },
        })
        .functionCall('mcp__docs__search', { q: 1 }, 'm1')
        .functionOutput('m1', 'hit')
        .functionCall('exec_command', { cmd: 'ls' }, 'dup')
        .functionOutput('dup', 'a')
        .functionCall('exec_command', { cmd: 'pwd' }, 'dup')
        .functionOutput('dup', '/w'),
    );
    expect(calls(r).map((c) => [c.name, c.input, c.output])).toEqual([
      ['mcp__docs__search', '{"q":1}', 'hit'],
      ['exec_command', 'ls', 'a'],
      ['exec_command', 'pwd', '/w'],
    ]);
  });

  it('marks calls of an aborted turn interrupted and notes the interruption once', async () => {
    const r = await record(
      new Rollout('0199-test')
        .meta()
        .user('go')
        .functionCall('exec_command', { cmd: 'sleep 100' }, 'c1')
        .functionCall('exec_command', { cmd: 'sleep 200' }, 'c2')
        .functionOutput('c2', 'aborted')
        .event('turn_aborted', { reason: 'interrupted' })
        .user('<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>')
        .user('try again')
        .assistant('ok'),
    );
    expect(roles(r.turns)).toEqual(['user:go', 'assistant:', 'event:interrupted', 'user:try again', 'assistant:ok']);
    expect(calls(r).map((c) => c.status)).toEqual(['interrupted', 'interrupted']);
  });

  it('drops tool input and output below full detail but keeps the same skeleton and figures', async () => {
    const body = new Rollout('0199-test')
      .meta()
      .user('go '.repeat(100))
      .turnContext('gpt-5')
      .reasoning(['thinking'])
      .functionCall('exec_command', { cmd: 'ls' }, 'c1')
      .functionOutput('c1', 'a\nb')
      .assistant('done')
      .tokens(100, 20, 10, 5);
    const full = await record(body);
    const messages = await record(body, 'messages');
    const summary = await record(body, 'summary');
    for (const r of [messages, summary]) {
      expect(r.turns.map((t) => t.role)).toEqual(full.turns.map((t) => t.role));
      expect(calls(r)).toEqual([{ name: 'exec_command' }]);
      expect(r.totals).toEqual(full.totals);
      expect(r.models).toEqual(full.models);
      expect([r.started_at, r.ended_at]).toEqual([full.started_at, full.ended_at]);
    }
    expect(roles(messages.turns)).toEqual(roles(full.turns));
    expect(summary.turns.map((t) => t.text)).toEqual([`${'go '.repeat(100)}`.trim().slice(0, 200), '', '', '']);
  });
});

describe('codex events', () => {
  it('turns a compaction into one event and never its summary into a user turn', async () => {
    const r = await record(
      new Rollout('0199-test')
        .meta()
        .user('build it')
        .assistant('built')
        .line('compacted', {
          message: 'Summary: widget built.',
          replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'build it' }] }],
        })
        .event('context_compacted')
        .assistant('continuing'),
    );
    expect(roles(r.turns)).toEqual(['user:build it', 'assistant:built', 'event:context compacted', 'assistant:continuing']);
  });
});

describe('codex tokens', () => {
  it('takes the last cumulative token_count as the totals, never the sum', async () => {
    const r = await record(
      new Rollout('0199-test')
        .meta()
        .user('a')
        .tokens(540, 64, 88, 32)
        .event('token_count', { info: null })
        .assistant('b')
        .tokens(800, 96, 120, 40),
    );
    // Codex's input includes the cached reads; the record counts them apart.
    expect(r.totals).toEqual({
      input_tokens: 704,
      output_tokens: 120,
      cache_read_tokens: 96,
      cache_creation_tokens: 0,
      reasoning_tokens: 40,
      cost_usd: null,
    });
  });

  it('accepts the newer token_usage_record with the same rule, for this thread only', async () => {
    const usage = (input: number) => ({
      input_tokens: input,
      cached_input_tokens: 10,
      output_tokens: 5,
      reasoning_output_tokens: 1,
      total_tokens: input + 5,
    });
    const r = await record(
      new Rollout('0199-test')
        .meta()
        .user('a')
        .tokens(50, 0, 1, 0)
        .line('token_usage_record', {
          thread_id: '0199-test',
          usage: usage(30),
          turn_token_usage: usage(30),
          thread_token_usage: usage(300),
        })
        .line('token_usage_record', { thread_id: '0199-other', thread_token_usage: usage(9000) }),
    );
    expect(r.totals).toMatchObject({ input_tokens: 290, cache_read_tokens: 10, output_tokens: 5, reasoning_tokens: 1 });
  });
});

describe('codex session facts', () => {
  it('takes repo from session_meta, branch from git, every cwd and models first-seen', async () => {
    const parsed = await parseRollout(
      new Rollout('0199-test')
        .meta({ cwd: '/work/demo', git: { branch: 'feature/x' } })
        .user('a')
        .turnContext('gpt-5', '/work/demo')
        .turnContext('o3', '/work/demo/sub')
        .turnContext('gpt-5', '/tmp'),
    );
    expect(parsed.record).toMatchObject({
      agent: 'codex',
      session_id: '0199-test',
      repo: '/work/demo',
      branch: 'feature/x',
      models: ['gpt-5', 'o3'],
    });
    expect(parsed.cwds).toEqual(['/work/demo', '/work/demo/sub', '/tmp']);
  });

  it('falls back to the first turn_context cwd when session_meta names none', async () => {
    const parsed = await parseRollout(
      new Rollout('0199-test').meta({ cwd: undefined, git: undefined }).turnContext('gpt-5', '/work/b').user('a'),
    );
    expect(parsed.record).toMatchObject({
      repo: '/work/b',
      branch: null,
      started_at: '2026-10-01T09:00:00.000Z',
      ended_at: '2026-10-01T09:00:02.000Z',
    });
  });
});

describe('codex drift', () => {
  it('survives torn, invalid, unknown and enveloped lines, counting the bad ones', async () => {
    const body = new Rollout('0199-test')
      .meta()
      .raw('{"not json')
      .raw('[1,2,3]')
      .line('ghost_trace', { anything: true })
      .line('event_msg', { type: 'brand_new_event', x: 1 })
      .line(
        'response_item',
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'with ordinal' }] },
        { ordinal: 7, metadata: { source: 'x' } },
      )
      .line('response_item', { type: 'message', role: 'assistant' })
      .line('response_item', { type: 'function_call_output', call_id: 'nobody', output: 'orphan' })
      .line('event_msg', { type: 'token_count', info: { total_token_usage: 'not an object' } })
      .line('turn_context', { model: 42 })
      .text();
    const parsed = await parseRollout(`${body}{"timestamp":"2026-10-01T10:00:00Z","type":"respo`);
    expect(parsed.badLines).toEqual([{ path: expect.stringContaining('0199-test') as unknown as string, count: 2 }]);
    expect(parsed.record?.turns.map((t) => t.text)).toEqual(['with ordinal']);
  });

  it('gives no record, without throwing, for a binary file or one with no Codex lines', async () => {
    const dir = await tempDir();
    const binary = join(dir, 'bin.jsonl');
    await writeFile(binary, Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 37) % 256)));
    const parsed = await codexReader.parse(
      { agent: 'codex', sessionId: 'b', home: dir, path: binary, files: [{ path: binary, size: 5000, mtimeMs: 0 }] },
      { detail: 'full' },
    );
    expect(parsed.record).toBeNull();
    expect(parsed.badLines[0]?.count).toBeGreaterThan(0);
  });

  it('clips a huge output and message as it reads', async () => {
    const r = await record(
      new Rollout('0199-test')
        .meta()
        .user('x'.repeat(300 * 1024))
        .functionCall('exec_command', { cmd: 'cat big' }, 'c')
        .functionOutput('c', 'y'.repeat(2 * 1024 * 1024)),
    );
    expect(Buffer.byteLength(r.turns[0]?.text ?? '')).toBeLessThan(257 * 1024);
    expect(Buffer.byteLength(calls(r)[0]?.output ?? '')).toBeLessThan(4200);
  });
});
