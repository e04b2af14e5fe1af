import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import type { ToolCall, Turn } from '../../record/types.js';
import { kimiReader } from './index.js';
import { at, iso, prompt, state, step, writeSession, type FixtureSession, type WireRecord } from './test-support/wire.js';

const task = (text: string, s: number): WireRecord => prompt(text, s, { kind: 'system_trigger', name: 'subagent' });
const agentCall = (id: string, child: string, status: string, args: WireRecord) => ({
  id,
  name: 'Agent',
  args,
  output: `agent_id: ${child}\nactual_subagent_type: x\nstatus: ${status}\n\n[summary]\nreceipt`,
});

async function record(fixture: FixtureSession) {
  const home = join(await tempDir(), '.kimi-code');
  const dir = await writeSession(home, 'session_nest', fixture);
  const parsed = await kimiReader.parse((await kimiReader.claim(dir))!, { detail: 'full' });
  expect(parsed.problems).toEqual([]);
  return { record: parsed.record!, cwds: parsed.cwds };
}

const callsOf = (turns: readonly Turn[]): ToolCall[] => turns.flatMap((t) => t.tool_calls ?? []);

describe('Kimi subagents', () => {
  it('nests children in their launching calls, grandchildren in theirs, and an unlinked child by time', async () => {
    const { record: r, cwds } = await record({
      state: state('/repo', { main: null, 'agent-0': 'main', 'agent-1': 'agent-0', 'agent-2': 'main', 'agent-3': 'main' }),
      wires: {
        main: [
          prompt('delegate', 1),
          ...step('s1', 2, {
            calls: [
              agentCall('Agent_0', 'agent-0', 'completed', { description: 'survey', subagent_type: 'explore', prompt: 'look around' }),
            ],
          }),
          ...step('s2', 30, { text: 'done' }),
          prompt('again', 40),
          ...step('s3', 41, { calls: [agentCall('Agent_1', 'agent-3', 'failed', { prompt: 'never mind' })] }),
          { type: 'context.undo', count: 1, time: at(50) },
        ],
        'agent-0': [
          { type: 'config.update', cwd: '/repo/sub', modelAlias: 'moonshot-ai/kimi-k2.7-code', time: at(3) },
          task('look around', 3),
          ...step('c1', 4, {
            calls: [agentCall('Agent_0', 'agent-1', 'completed', { description: 'dig', subagent_type: 'coder', prompt: 'dig' })],
          }),
          ...step('c2', 10, { text: 'child summary' }),
        ],
        'agent-1': [task('dig', 5), ...step('g1', 6, { text: 'grandchild says hi', model: 'kimi-k2-mini' })],
        'agent-2': [
          { type: 'config.update', profileName: 'plan', time: at(20) },
          task('orphan task', 20),
          ...step('o1', 21, { text: 'orphan result' }),
        ],
        'agent-3': [task('never mind', 42), ...step('u1', 43, { text: 'undone child' })],
      },
    });
    expect(r.turns.map((t) => [t.role, t.at, t.text])).toEqual([
      ['user', iso(1), 'delegate'],
      ['assistant', iso(2), ''],
      ['assistant', iso(20), ''],
      ['assistant', iso(30), 'done'],
    ]);
    const [launch, orphan] = callsOf(r.turns);
    expect(launch).toMatchObject({ name: 'Agent', format: 'text', input: 'look around', output: 'child summary', status: 'ok' });
    const child = launch!.subagent!;
    expect(child).toMatchObject({
      id: 'agent-0',
      name: 'explore',
      description: 'survey',
      status: 'completed',
      models: ['kimi-k2.7-code'],
      started_at: iso(3),
      ended_at: iso(10),
    });
    expect(child.totals.input_tokens).toBe(20);
    expect(child.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'look around'],
      ['assistant', ''],
      ['assistant', 'child summary'],
    ]);
    const grand = callsOf(child.turns)[0]!;
    expect(grand.output).toBe('grandchild says hi');
    expect(grand.subagent).toMatchObject({
      id: 'agent-1',
      name: 'coder',
      description: 'dig',
      models: ['kimi-k2-mini'],
      status: 'completed',
    });
    expect(orphan).toEqual({
      name: 'Agent',
      output: 'orphan result',
      subagent: expect.objectContaining({ id: 'agent-2', name: 'plan', description: null, status: null }),
    });
    // The launch of agent-3 was undone, and its whole run with it.
    expect(JSON.stringify(r)).not.toContain('undone child');
    // Main's own tokens only: three model calls of its own (the undone one included), none of its children's.
    expect(r.totals.input_tokens).toBe(30);
    expect(cwds).toEqual(['/repo', '/repo/sub']);
  });

  it('links a child through a subagent.spawned record when the result does not name it', async () => {
    const { record: r } = await record({
      wires: {
        main: [
          prompt('go', 1),
          ...step('s1', 2, { calls: [{ id: 'Task_1', name: 'Agent', args: { prompt: 'work' }, output: 'finished' }] }),
          { type: 'subagent.spawned', subagentId: 'agent-5', parentToolCallId: 'Task_1', time: at(2) },
        ],
        'agent-5': [task('work', 3), ...step('w1', 4, { text: 'worked' })],
      },
    });
    const call = callsOf(r.turns)[0]!;
    expect(call.subagent?.id).toBe('agent-5');
    expect(call.output).toBe('worked');
  });
});
