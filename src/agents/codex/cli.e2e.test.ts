// The built CLI over a temporary Codex home (run `npm run build` first): the corpus rollouts plus a
// parent whose spawned agent must nest rather than be listed.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli.js';
import { copyCorpus, hasCorpus, tempDir } from '../../../test/support/temp.js';
import type { SessionRecord } from '../../record/types.js';
import { Rollout, writeRollout } from './test-support/rollout-fixture.js';

const PARENT = '0199bbbb-0000-7000-8000-000000000001';
const CHILD = '0199bbbb-0000-7000-8000-000000000002';

async function codexHome(): Promise<{ home: string; parentPath: string }> {
  const home = await tempDir();
  const codex = join(home, '.codex');
  await copyCorpus('codex/sessions', join(codex, 'sessions'));
  const parentPath = await writeRollout(
    codex,
    PARENT,
    new Rollout(PARENT)
      .meta({ cwd: join(home, 'work', 'demo') })
      .userEvent('Review the parser')
      .turnContext('gpt-5', join(home, 'work', 'demo'))
      .functionCall('spawn_agent', { agent_type: 'explorer', message: 'Inspect the parser' }, 'call_spawn')
      .functionOutput('call_spawn', JSON.stringify({ agent_id: CHILD, nickname: 'Boyle' }))
      .functionCall('exec_command', { cmd: 'cargo test' }, 'call_test')
      .functionOutput('call_test', 'Process exited with code 0\nOutput:\nok')
      .assistant('All good.')
      .tokens(5000, 1000, 200, 80),
  );
  await writeRollout(
    codex,
    CHILD,
    new Rollout(CHILD, '2026-10-01T09:00:03.000Z')
      .meta({ source: { subagent: { thread_spawn: { parent_thread_id: PARENT, depth: 1, agent_role: 'explorer' } } } })
      .userEvent('Inspect the parser')
      .turnContext('gpt-5-mini')
      .assistant('The parser is fine.')
      .tokens(1000, 400, 50, 20),
  );
  return { home, parentPath };
}

interface ScanJson {
  roots: { agent: string; path: string; sessions: number }[];
  sessions: {
    agent: string;
    session_id: string;
    repo: string;
    turns: number;
    tool_calls: number;
    subagents: number;
    totals: { input_tokens: number };
  }[];
  unparsed: unknown[];
}

describe.skipIf(!hasCorpus)('agentlog with Codex sessions', () => {
  it('scan --json lists the Codex sessions, not the spawned child', async () => {
    const { home } = await codexHome();
    const r = await runCli(['scan', '--json', '--agent', 'codex'], home);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as ScanJson;
    expect(out.roots).toContainEqual({ agent: 'codex', path: join(home, '.codex'), sessions: 4 });
    const codex = out.sessions.filter((s) => s.agent === 'codex');
    expect(codex.map((s) => s.session_id).sort()).toEqual(
      ['019c8a4c-ed82-79a1-aa28-7738fc5ab61a', '019c8bfe-ec25-79e0-97d7-bda6a9c575ff', PARENT, 'fixture-managed-thread'].sort(),
    );
    expect(codex.find((s) => s.session_id === PARENT)).toMatchObject({
      repo: '~/work/demo',
      turns: 3,
      tool_calls: 2,
      subagents: 1,
      totals: { input_tokens: 4000 },
    });
    expect(out.unparsed).toEqual([]);
  });

  it('show <id> --json prints the same bytes twice, the child nested in its launch', async () => {
    const { home } = await codexHome();
    const first = await runCli(['show', PARENT, '--json'], home);
    const second = await runCli(['show', PARENT, '--json'], home);
    expect(first.code, first.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const record = JSON.parse(first.stdout) as SessionRecord;
    const spawn = record.turns.flatMap((t) => t.tool_calls ?? []).find((c) => c.name === 'spawn_agent');
    expect(spawn).toMatchObject({
      output: 'The parser is fine.',
      subagent: { id: CHILD, name: 'explorer', totals: { input_tokens: 600, cache_read_tokens: 400 } },
    });
    const corpus = await runCli(['show', '019c8a4c', '--json'], home);
    expect(corpus.code, corpus.stderr).toBe(0);
    expect((JSON.parse(corpus.stdout) as SessionRecord).totals.input_tokens).toBe(367_673);
  });

  it('show <file> --detail messages carries tool call names only', async () => {
    const { home, parentPath } = await codexHome();
    const r = await runCli(['show', parentPath, '--detail', 'messages', '--json'], home);
    expect(r.code, r.stderr).toBe(0);
    const record = JSON.parse(r.stdout) as SessionRecord;
    expect(record.detail).toBe('messages');
    const calls = record.turns.flatMap((t) => t.tool_calls ?? []);
    expect(calls.map((c) => Object.keys(c))).toEqual([['name', 'subagent'], ['name']]);
    expect(record.turns.map((t) => t.text)).toContain('All good.');
    const text = await runCli(['show', parentPath, '--detail', 'messages'], home);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('exec_command');
    expect(text.stdout).not.toContain('cargo test');
  });
});
