import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyCorpus, hasCorpus, tempDir } from '../../../test/support/temp.js';
import type { Subagent, Totals, ToolCall, Turn } from '../../record/types.js';
import { assistant, at, parsePath, toolResult, toolUse, usage, user, writeMain, writeSubagent } from './test-support/fixtures.js';

function calls(turns: readonly Turn[]): ToolCall[] {
  return turns.flatMap((t) => t.tool_calls ?? []);
}

function subagentsOf(turns: readonly Turn[]): Subagent[] {
  return calls(turns).flatMap((c) => (c.subagent === undefined ? [] : [c.subagent]));
}

function sumAll(totals: Totals, turns: readonly Turn[]): number[] {
  const sum = [totals.input_tokens, totals.output_tokens, totals.cache_creation_tokens, totals.cache_read_tokens];
  const walk = (ts: readonly Turn[]): void => {
    for (const s of subagentsOf(ts)) {
      sum[0]! += s.totals.input_tokens;
      sum[1]! += s.totals.output_tokens;
      sum[2]! += s.totals.cache_creation_tokens;
      sum[3]! += s.totals.cache_read_tokens;
      walk(s.turns);
    }
  };
  walk(turns);
  return sum;
}

async function home(): Promise<string> {
  return join(await tempDir(), '.claude');
}

const side = (agentId: string): Record<string, unknown> => ({ isSidechain: true, agentId, cwd: '/work/demo/pkg' });

describe.skipIf(!hasCorpus)('the real 774 KB session (older layout: inline isSidechain lines)', () => {
  const file = 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl';

  it('adds up, with its subagents, to exactly ccusage’s totals', async () => {
    const h = await home();
    const path = await copyCorpus(`claude/projects/-sample-project/${file}`, join(h, 'projects', '-sample-project', file));
    const { record } = await parsePath(path);
    // ccusage 20.0.24 `session --json` for this session: input 818, output 51,933, cache creation 137,976, cache read 3,647,854.
    expect(sumAll(record.totals, record.turns)).toEqual([818, 51_933, 137_976, 3_647_854]);
    // The main agent's own share, subagents' usage kept apart.
    expect(record.totals).toMatchObject({
      input_tokens: 373,
      output_tokens: 2636,
      cache_creation_tokens: 6672,
      cache_read_tokens: 161_313,
      cost_usd: null,
    });
  });

  it('nests each sidechain in the Task call that launched it, with its last words as the call output', async () => {
    const h = await home();
    const path = await copyCorpus(`claude/projects/-sample-project/${file}`, join(h, 'projects', '-sample-project', file));
    const { record, parsed } = await parsePath(path);
    const tasks = calls(record.turns).filter((c) => c.name === 'Task');
    expect(tasks).toHaveLength(5);
    expect(tasks.every((c) => c.subagent !== undefined)).toBe(true);
    expect(tasks.map((c) => c.subagent?.description)).toEqual([
      'Setup Next.js project',
      'Create data models',
      'Build TODO components',
      'Implement state management',
      'Create main page integration',
    ]);
    for (const c of tasks) {
      const sub = c.subagent as Subagent;
      expect(sub).toMatchObject({
        name: 'general-purpose',
        status: 'completed',
        models: ['claude-sonnet-4-20250514'],
        truncated: false,
        omitted_turns: 0,
      });
      expect(sub.turns[0]).toMatchObject({ role: 'user' });
      expect(c.input?.startsWith(sub.turns[0]?.text.slice(0, 40) ?? '?')).toBe(true);
      const lastWords = [...sub.turns].reverse().find((t) => t.role === 'assistant' && t.text !== '')?.text;
      expect(c.output).toBe(lastWords);
      expect(sub.started_at! <= sub.ended_at!).toBe(true);
    }
    expect(tasks[0]?.subagent?.id).toBe('toolu_014i9ThHMNShCHocf9xMKasf');
    // No sidechain turn leaks into the main conversation.
    expect(record.turns.filter((t) => t.role === 'user').map((t) => t.text)).toEqual([
      '/orchestrator create TODO app by Next.js',
      'Thanks! Please update CLAUDE.md for current changes',
    ]);
    expect(parsed.cwds).toEqual(['/path/to/Demo', '/path/to/Demo/todo-app', '/path/to/Demo/todo-app/types']);
  });
});

describe('newer layout: <session>/subagents/agent-<id>.jsonl + .meta.json', () => {
  it.skipIf(!hasCorpus)('nests the corpus demo subagent in its Task call (no ids there: by order)', async () => {
    const h = await home();
    const base = join(h, 'projects', '-subagent-demo');
    await copyCorpus('claude/projects/-subagent-demo', base);
    const { record, session } = await parsePath(join(base, '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl'));
    expect(session.files).toHaveLength(3);
    const [sub] = subagentsOf(record.turns);
    expect(sub).toMatchObject({ id: 'a0ad4f44468bdf20d', name: 'general-purpose', description: 'search files', status: null });
    expect(sub?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Search the repo for TODO comments'],
      ['assistant', 'Searching.'],
    ]);
    expect(calls(sub?.turns ?? [])[0]).toMatchObject({
      name: 'bash',
      format: 'shell',
      input: 'grep -rn TODO',
      output: 'a.txt:1: TODO fix',
      status: 'ok',
    });
  });

  it('joins by the meta toolUseId, nests a subagent’s own subagent, and keeps every usage apart', async () => {
    const h = await home();
    const main = await writeMain(h, [
      user('Survey logging', 1),
      assistant(
        'm1',
        [
          toolUse('toolu_1', 'Agent', {
            description: 'Survey logging',
            prompt: 'Find every logger in src/',
            subagent_type: 'Explore',
            run_in_background: true,
          }),
        ],
        2,
        {},
        { usage: usage(100, 10) },
      ),
      user([toolResult('toolu_1', 'Async agent launched successfully. agentId: a1111')], 3, {
        toolUseResult: { isAsync: true, status: 'async_launched', agentId: 'a1111' },
      }),
      {
        type: 'queue-operation',
        operation: 'enqueue',
        sessionId: 's',
        timestamp: at(40),
        content:
          '<task-notification>\n<task-id>a1111</task-id>\n<tool-use-id>toolu_1</tool-use-id>\n<status>completed</status>\n</task-notification>',
      },
      user(
        '<task-notification>\n<task-id>a1111</task-id>\n<tool-use-id>toolu_1</tool-use-id>\n<status>completed</status>\n<summary>done</summary>\n</task-notification>',
        41,
      ),
      assistant('m2', [{ type: 'text', text: 'The subagent found two loggers.' }], 42, {}, { usage: usage(200, 20) }),
    ]);
    await writeSubagent(
      h,
      'a1111',
      [
        user('Find every logger in src/', 4, side('a1111')),
        assistant(
          's1',
          [toolUse('toolu_2', 'Task', { description: 'Read a.rs', prompt: 'Read src/a.rs', subagent_type: 'reader' })],
          5,
          side('a1111'),
          { usage: usage(30, 3), model: 'claude-haiku-4-5' },
        ),
        user([toolResult('toolu_2', [{ type: 'text', text: 'a.rs logs with log::info' }])], 20, {
          ...side('a1111'),
          toolUseResult: { status: 'completed', agentId: 'a2222' },
        }),
        assistant('s2', [{ type: 'text', text: 'Two loggers: src/a.rs and src/b.rs.' }], 21, side('a1111'), {
          usage: usage(40, 4),
          model: 'claude-haiku-4-5',
        }),
      ],
      { agentType: 'Explore', description: 'Survey logging', toolUseId: 'toolu_1' },
    );
    await writeSubagent(
      h,
      'a2222',
      [
        user('Read src/a.rs', 6, { ...side('a2222'), cwd: '/work/demo/src' }),
        assistant('r1', [{ type: 'text', text: 'a.rs uses log::info.' }], 7, side('a2222'), {
          usage: usage(7, 1),
          model: 'claude-haiku-4-5',
        }),
      ],
      { agentType: 'reader', description: 'Read a.rs', toolUseId: 'toolu_2', parentAgentId: 'a1111' },
    );
    const { record, parsed } = await parsePath(main);
    expect(record.totals).toMatchObject({ input_tokens: 300, output_tokens: 30 });
    const [agent] = calls(record.turns);
    expect(agent).toMatchObject({
      name: 'Agent',
      format: 'text',
      input: 'Find every logger in src/',
      output: 'Two loggers: src/a.rs and src/b.rs.',
    });
    const outer = agent?.subagent as Subagent;
    expect(outer).toMatchObject({
      id: 'a1111',
      name: 'Explore',
      description: 'Survey logging',
      models: ['claude-haiku-4-5'],
      started_at: at(4),
      ended_at: at(21),
      status: 'completed',
      totals: { input_tokens: 70, output_tokens: 7, cache_read_tokens: 0, cache_creation_tokens: 0, reasoning_tokens: 0, cost_usd: null },
      truncated: false,
      omitted_turns: 0,
    });
    const [task] = calls(outer.turns);
    expect(task).toMatchObject({ name: 'Task', output: 'a.rs uses log::info.' });
    expect(task?.subagent).toMatchObject({
      id: 'a2222',
      name: 'reader',
      status: 'completed',
      totals: { input_tokens: 7, output_tokens: 1 },
    });
    expect(parsed.cwds).toEqual(['/work/demo', '/work/demo/pkg', '/work/demo/src']);
    // The notification is machinery, not a user turn.
    expect(record.turns.filter((t) => t.role === 'user').map((t) => t.text)).toEqual(['Survey logging']);
  });

  it('falls back to toolUseResult.agentId ↔ file name, and takes status from the result or the last notification', async () => {
    const h = await home();
    const main = await writeMain(h, [
      user('Go', 1),
      assistant(
        'm1',
        [
          toolUse('t1', 'Task', { prompt: 'one', subagent_type: 'A' }),
          toolUse('t2', 'Task', { prompt: 'two', subagent_type: 'B' }),
          toolUse('t3', 'Agent', { prompt: 'three', subagent_type: 'C', run_in_background: true }),
          toolUse('t4', 'Agent', { prompt: 'four', subagent_type: 'D', run_in_background: true }),
        ],
        2,
      ),
      user([toolResult('t1', 'failed hard', { is_error: true })], 10, { toolUseResult: { agentId: 'b1' } }),
      user([toolResult('t2', 'ok')], 11, { toolUseResult: { status: 'completed', agentId: 'b2' } }),
      user([toolResult('t3', 'launched')], 12, { toolUseResult: { status: 'async_launched', agentId: 'b3' } }),
      user([toolResult('t4', 'launched')], 13, { toolUseResult: { status: 'async_launched', agentId: 'b4' } }),
      user('<task-notification><task-id>b4</task-id><status>completed</status></task-notification>', 30),
      user('<task-notification><task-id>b4</task-id><status>killed</status></task-notification>', 31),
    ]);
    // Files listed in an order unlike the calls', prompts unlike the calls': only the ids can join them.
    for (const [id, n] of [
      ['b4', 4],
      ['b2', 5],
      ['b1', 6],
      ['b3', 7],
    ] as const) {
      await writeSubagent(h, id, [
        user(`prompt of ${id}`, n, side(id)),
        assistant(`x${id}`, [{ type: 'text', text: `words of ${id}` }], n + 1, side(id)),
      ]);
    }
    const { record } = await parsePath(main);
    expect(calls(record.turns).map((c) => [c.name, c.subagent?.id, c.subagent?.name, c.subagent?.status, c.output])).toEqual([
      ['Task', 'b1', 'A', 'failed', 'words of b1'],
      ['Task', 'b2', 'B', 'completed', 'words of b2'],
      ['Agent', 'b3', 'C', 'running', 'words of b3'],
      ['Agent', 'b4', 'D', 'stopped', 'words of b4'],
    ]);
  });

  it('keeps a subagent file no call launched as a stand-in Agent call, its tokens its own', async () => {
    const h = await home();
    const main = await writeMain(h, [
      user('Go', 1),
      assistant('m1', [{ type: 'text', text: 'Working.' }], 2, {}, { usage: usage(5, 5) }),
      user('Later', 20),
    ]);
    await writeSubagent(
      h,
      'c1',
      [
        user('lost prompt', 10, side('c1')),
        assistant('c', [{ type: 'text', text: 'lost words' }], 11, side('c1'), { usage: usage(50, 50) }),
      ],
      { agentType: 'Plan' },
    );
    const { record } = await parsePath(main);
    expect(record.totals).toMatchObject({ input_tokens: 5, output_tokens: 5 });
    expect(record.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'assistant', 'user']);
    expect(record.turns[2]?.tool_calls?.[0]).toMatchObject({
      name: 'Agent',
      input: 'lost prompt',
      output: 'lost words',
      subagent: { id: 'c1', name: 'Plan', totals: { input_tokens: 50 } },
    });
  });
});

describe('older layout: inline sidechains', () => {
  it('groups interleaved sidechains by agentId and joins them by toolUseResult.agentId', async () => {
    const h = await home();
    const main = await writeMain(h, [
      user('Go', 1),
      assistant(
        'm1',
        [
          toolUse('t1', 'Task', { prompt: 'same prompt', description: 'first' }),
          toolUse('t2', 'Task', { prompt: 'same prompt', description: 'second' }),
        ],
        2,
      ),
      user('same prompt', 3, side('q2')),
      user('same prompt', 3, side('q1')),
      assistant('q1a', [{ type: 'text', text: 'q1 done' }], 4, side('q1'), { usage: usage(1, 1) }),
      assistant('q2a', [{ type: 'text', text: 'q2 done' }], 5, side('q2'), { usage: usage(2, 2) }),
      user([toolResult('t1', 'q1 done')], 6, { toolUseResult: { agentId: 'q1' } }),
      user([toolResult('t2', 'q2 done')], 7, { toolUseResult: { agentId: 'q2' } }),
    ]);
    const { record } = await parsePath(main);
    expect(calls(record.turns).map((c) => [c.subagent?.description, c.subagent?.id, c.output, c.subagent?.totals.input_tokens])).toEqual([
      ['first', 'q1', 'q1 done', 1],
      ['second', 'q2', 'q2 done', 2],
    ]);
    expect(record.totals.input_tokens).toBe(0);
    expect(record.turns).toHaveLength(2);
  });

  it('keeps a sidechain nothing launched as the main agent’s own turns, in line order', async () => {
    const h = await home();
    const main = await writeMain(h, [
      user('Run the suite', 1, { isSidechain: true, parentUuid: null, uuid: 'a' }),
      assistant('z1', [{ type: 'text', text: 'Running.' }], 2, { isSidechain: true, parentUuid: 'a', uuid: 'b' }, { usage: usage(9, 9) }),
      user('Thanks', 3),
    ]);
    const { record } = await parsePath(main);
    expect(record.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Run the suite'],
      ['assistant', 'Running.'],
      ['user', 'Thanks'],
    ]);
    expect(record.totals.input_tokens).toBe(9);
  });
});
