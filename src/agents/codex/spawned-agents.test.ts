import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { finaliseRecord } from '../../record/finalise.js';
import { makeHomeElider } from '../../record/home-elide.js';
import type { Detail, SessionRecord, ToolCall } from '../../record/types.js';
import type { DiscoveredSession } from '../types.js';
import { codexReader } from './reader.js';
import { Rollout, writeRollout } from './test-support/rollout-fixture.js';

const PARENT = '0199aaaa-0000-7000-8000-000000000001';
const CHILD = '0199aaaa-0000-7000-8000-000000000002';
const CHILD2 = '0199aaaa-0000-7000-8000-000000000003';

function spawnMeta(parent: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    source: {
      subagent: { thread_spawn: { parent_thread_id: parent, depth: 1, agent_nickname: 'Boyle', agent_role: 'explorer', ...extra } },
    },
  };
}

function child(id: string, start: string, words: string, meta: Record<string, unknown> = spawnMeta(PARENT)): Rollout {
  return new Rollout(id, start)
    .meta(meta)
    .event('task_started')
    .user('Inspect the parser')
    .userEvent('Inspect the parser')
    .turnContext('gpt-5-mini', '/work/demo')
    .functionCall('exec_command', { cmd: 'rg parse' }, `${id}-c1`)
    .functionOutput(`${id}-c1`, 'src/parse.rs')
    .assistant(words)
    .tokens(1000, 400, 50, 20)
    .event('task_complete', { last_agent_message: words });
}

async function onlySession(home: string): Promise<DiscoveredSession> {
  const d = await codexReader.discover(home);
  expect(d.sessions).toHaveLength(1);
  const s = d.sessions[0];
  if (s === undefined) throw new Error('no session');
  return s;
}

async function recordOf(session: DiscoveredSession, detail: Detail = 'full'): Promise<SessionRecord> {
  const parsed = await codexReader.parse(session, { detail });
  if (parsed.record === null) throw new Error('no record');
  return finaliseRecord(parsed.record, { detail, elide: makeHomeElider(null) });
}

const spawnCalls = (r: SessionRecord): ToolCall[] => r.turns.flatMap((t) => t.tool_calls ?? []).filter((c) => c.name === 'spawn_agent');

describe('codex spawned agents', () => {
  it('nests a spawned rollout in its spawn_agent call and does not list it on its own', async () => {
    const home = join(await tempDir(), '.codex');
    const parentPath = await writeRollout(
      home,
      PARENT,
      new Rollout(PARENT)
        .meta()
        .user('Review the parser')
        .userEvent('Review the parser')
        .turnContext('gpt-5')
        .functionCall('spawn_agent', { agent_type: 'explorer', message: 'Inspect the parser\nand report back' }, 'call_spawn')
        .functionOutput('call_spawn', JSON.stringify({ agent_id: CHILD, nickname: 'Boyle' }))
        .functionCall('wait', { ids: [CHILD] }, 'call_wait')
        .functionOutput('call_wait', '{"status":{"completed":"The parser is fine."}}')
        .assistant('All good.')
        .tokens(5000, 1000, 200, 80),
    );
    const childPath = await writeRollout(home, CHILD, child(CHILD, '2026-10-01T09:00:03.000Z', 'The parser is fine.'));
    const session = await onlySession(home);
    expect(session).toMatchObject({ sessionId: PARENT, path: parentPath });
    expect(session.files.map((f) => f.path)).toEqual([parentPath, childPath]);
    expect((await codexReader.tree(session)).map((e) => (e.kind === 'file' ? e.path : e.relPath))).toEqual([parentPath, childPath]);

    const r = await recordOf(session);
    expect(r.totals).toMatchObject({ input_tokens: 4000, cache_read_tokens: 1000, output_tokens: 200, reasoning_tokens: 80 });
    const [spawn] = spawnCalls(r);
    expect(spawn).toMatchObject({
      name: 'spawn_agent',
      format: 'text',
      input: 'Inspect the parser\nand report back',
      output: 'The parser is fine.',
      status: 'ok',
    });
    expect(spawn?.subagent).toMatchObject({
      id: CHILD,
      name: 'explorer',
      description: 'Inspect the parser',
      models: ['gpt-5-mini'],
      started_at: '2026-10-01T09:00:03.000Z',
      status: 'completed',
      totals: {
        input_tokens: 600,
        output_tokens: 50,
        cache_read_tokens: 400,
        cache_creation_tokens: 0,
        reasoning_tokens: 20,
        cost_usd: null,
      },
      truncated: false,
      omitted_turns: 0,
    });
    expect(spawn?.subagent?.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(spawn?.subagent?.turns[1]?.tool_calls?.[0]).toMatchObject({ name: 'exec_command', input: 'rg parse', output: 'src/parse.rs' });

    const summary = await recordOf(session, 'summary');
    expect(spawnCalls(summary)[0]?.subagent).toMatchObject({ id: CHILD, name: 'explorer', totals: { input_tokens: 600 } });

    // Asked for by its own file, the child is shown as a session of its own.
    const claimed = await codexReader.claim(childPath);
    expect(claimed).toMatchObject({ sessionId: CHILD, files: [{ path: childPath }] });
    // The parent claimed by path brings its child along.
    expect((await codexReader.claim(parentPath))?.files.map((f) => f.path)).toEqual([parentPath, childPath]);
  });

  it('matches multi-agent v2 launches by agent path, in the collaboration namespace', async () => {
    const home = join(await tempDir(), '.codex');
    await writeRollout(
      home,
      PARENT,
      new Rollout(PARENT)
        .meta()
        .userEvent('split the work')
        .functionCall('spawn_agent', { task_name: 'docs', message: 'Write the docs' }, 'c_docs', { namespace: 'collaboration' })
        .functionCall('spawn_agent', { task_name: 'tests', message: 'Write the tests' }, 'c_tests', { namespace: 'collaboration' })
        .functionOutput('c_tests', JSON.stringify({ task_name: '/root/tests', nickname: 'Ada' }))
        .functionOutput('c_docs', JSON.stringify({ task_name: '/root/docs', nickname: 'Bo' })),
    );
    const v2 = (id: string, path: string, task: string) =>
      new Rollout(id, '2026-10-01T09:00:05.000Z')
        .meta({ ...spawnMeta(PARENT, { agent_path: path, agent_role: 'worker' }), agent_path: path })
        .line('response_item', { type: 'agent_message', author: '/root', recipient: path, content: [{ type: 'input_text', text: task }] })
        .assistant(`${task}: done`);
    // Written in the opposite order to the calls: the path decides, not the order.
    await writeRollout(home, CHILD, v2(CHILD, '/root/tests', 'Write the tests'));
    await writeRollout(home, CHILD2, v2(CHILD2, '/root/docs', 'Write the docs'));
    const r = await recordOf(await onlySession(home));
    expect(spawnCalls(r).map((c) => [c.subagent?.description, c.subagent?.id, c.output, c.subagent?.turns[0]?.text])).toEqual([
      ['docs', CHILD2, 'Write the docs: done', 'Write the docs'],
      ['tests', CHILD, 'Write the tests: done', 'Write the tests'],
    ]);
  });

  it('matches by collab_agent_spawn_end, else by parent and order, and places a stray child in time', async () => {
    const home = join(await tempDir(), '.codex');
    const CHILD3 = '0199aaaa-0000-7000-8000-000000000004';
    await writeRollout(
      home,
      PARENT,
      new Rollout(PARENT)
        .meta()
        .userEvent('go')
        .functionCall('spawn_agent', { message: 'first' }, 'c1')
        .event('collab_agent_spawn_end', { call_id: 'c1', new_thread_id: CHILD3, new_agent_role: 'reviewer' })
        .functionCall('spawn_agent', { message: 'second' }, 'c2')
        .assistant('waiting')
        .assistant('later')
        .assistant('much later'),
    );
    await writeRollout(
      home,
      CHILD3,
      child(CHILD3, '2026-10-01T09:00:02.500Z', 'third words', spawnMeta(PARENT, { agent_role: undefined })),
    );
    await writeRollout(home, CHILD, child(CHILD, '2026-10-01T09:00:04.000Z', 'first unnamed'));
    await writeRollout(home, CHILD2, child(CHILD2, '2026-10-01T09:00:05.500Z', 'second unnamed'));
    const r = await recordOf(await onlySession(home));
    const launched = r.turns.flatMap((t) => (t.tool_calls ?? []).map((c) => [t.at, c.subagent?.id, c.subagent?.name, c.output]));
    expect(launched).toEqual([
      ['2026-10-01T09:00:02.000Z', CHILD3, 'reviewer', 'third words'],
      ['2026-10-01T09:00:02.000Z', CHILD, 'explorer', 'first unnamed'],
      // No launch left for the last child: it gets a call of its own where it started.
      ['2026-10-01T09:00:05.500Z', CHILD2, 'explorer', 'second unnamed'],
    ]);
    expect(r.turns.map((t) => t.text)).toEqual(['go', '', 'waiting', '', 'later', 'much later']);
    expect(r.turns[3]?.tool_calls?.[0]?.subagent?.id).toBe(CHILD2);
  });

  it('nests a grandchild in the child, across sessions/ and archived_sessions/', async () => {
    const home = join(await tempDir(), '.codex');
    await writeRollout(
      home,
      PARENT,
      new Rollout(PARENT)
        .meta()
        .userEvent('go')
        .functionCall('spawn_agent', { message: 'm' }, 'c1')
        .functionOutput('c1', JSON.stringify({ agent_id: CHILD })),
      'archived_sessions',
    );
    await writeRollout(
      home,
      CHILD,
      child(CHILD, '2026-10-01T09:00:03.000Z', 'child')
        .functionCall('spawn_agent', { message: 'deeper' }, 'g1')
        .functionOutput('g1', JSON.stringify({ agent_id: CHILD2 })),
    );
    await writeRollout(home, CHILD2, child(CHILD2, '2026-10-01T09:00:09.000Z', 'grandchild', spawnMeta(CHILD, { depth: 2 })));
    const session = await onlySession(home);
    expect(session.files).toHaveLength(3);
    const r = await recordOf(session);
    const sub = spawnCalls(r)[0]?.subagent;
    expect(sub?.id).toBe(CHILD);
    const inner = sub?.turns.flatMap((t) => t.tool_calls ?? []).find((c) => c.name === 'spawn_agent');
    expect(inner?.subagent).toMatchObject({ id: CHILD2, turns: expect.any(Array) as unknown });
    expect(inner?.output).toBe('grandchild');
  });

  it('keeps helpers (source.subagent.other) and orphaned children as sessions of their own', async () => {
    const home = join(await tempDir(), '.codex');
    await writeRollout(home, PARENT, new Rollout(PARENT).meta().userEvent('go').assistant('ok'));
    await writeRollout(
      home,
      CHILD,
      new Rollout(CHILD)
        .meta({ parent_thread_id: PARENT, source: { subagent: { other: 'guardian' } } })
        .userEvent('assess')
        .assistant('fine'),
    );
    await writeRollout(home, CHILD2, new Rollout(CHILD2).meta(spawnMeta('0199-missing-parent')).userEvent('lost').assistant('still here'));
    const ids = (await codexReader.discover(home)).sessions.map((s) => s.sessionId).sort();
    expect(ids).toEqual([PARENT, CHILD, CHILD2].sort());
  });
});
