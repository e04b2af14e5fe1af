import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { parseIntendantSession } from './parse-session.js';
import { FixtureSession, tod } from './test-support/fixture.js';

function rewound(s: FixtureSession, ms: number, cut: number): void {
  s.row({
    ts: tod(ms),
    ts_ms: ms,
    turn: 3,
    event: 'conversation_rewound',
    level: 'info',
    message: `Conversation rewound (tail_rollback): messages after seq ${cut} superseded`,
    data: { cut_after_seq: cut, kind: 'tail_rollback', superseded_at_ms: ms },
  });
}

async function session(cut: number): Promise<FixtureSession> {
  const home = join(await tempDir(), '.intendant');
  const s = await FixtureSession.create(home, 'rewind', { project_root: '/w', task: 'build it' });
  s.laneUser(1_000, 1, 'build it', { turn: 1 });
  await s.laneAssistant(2_000, 1, 2, 'Building.');
  await s.agentInput(2_100, 1, [{ function: 'execAsAgent', nonce: 1, command: 'make' }]);
  await s.agentOutput(2_200, 1, 'built');
  s.laneUser(3_000, 3, 'now deploy', { turn: 2, provenance: 'follow_up' });
  await s.sidecar('turns/turn_002_reasoning.txt', 'deploying needs the key');
  s.row({
    ts: tod(3_500),
    ts_ms: 3_500,
    turn: 2,
    event: 'reasoning',
    level: 'info',
    data: { has_summary: false, has_full_content: true, full_content_length: 23 },
    file: 'turns/turn_002_reasoning.txt',
  });
  await s.laneAssistant(4_000, 2, 4, 'Deploying.');
  await s.agentInput(4_100, 2, [{ function: 'askHuman', nonce: 1, question: 'Deploy to prod?' }]);
  await s.agentOutput(4_200, 2, 'yes deploy');
  // The native askHuman answer rides tool result 5; its lane projection references it.
  s.laneUser(4_300, 6, 'yes deploy', { turn: 2, provenance: 'ask_human_answer', refSeq: 5 });
  rewound(s, 5_000, cut);
  s.laneUser(6_000, 7, 'just build', { turn: 3, provenance: 'follow_up' });
  await s.save();
  return s;
}

describe('intendant rewinds', () => {
  it('removes every message after the cut, with the turns and tool calls that followed them', async () => {
    const p = await parseIntendantSession((await session(2)).dir, { detail: 'full' });
    expect(p.record?.turns.map((t) => [t.role, t.text, t.tool_calls?.map((c) => c.name)])).toEqual([
      ['user', 'build it', undefined],
      ['assistant', 'Building.', ['execAsAgent']],
      ['event', 'Conversation rewound (tail_rollback): messages after seq 2 superseded', undefined],
      ['user', 'just build', undefined],
    ]);
    expect(p.record?.turns[1]?.tool_calls?.[0]).toMatchObject({ input: 'make', output: 'built', status: 'ok' });
    // The cut messages stay available, marked, for the message index.
    expect(p.messages.map((m) => [m.seq, m.superseded])).toEqual([
      [1, false],
      [2, false],
      [3, true],
      [4, true],
      [6, true],
      [7, false],
    ]);
  });

  it('keeps a projection whose referenced tool result survived the cut', async () => {
    const p = await parseIntendantSession((await session(5)).dir, { detail: 'full' });
    expect(p.record?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'build it'],
      ['assistant', 'Building.'],
      ['user', 'now deploy'],
      ['reasoning', 'deploying needs the key'],
      ['assistant', 'Deploying.'],
      ['user', 'yes deploy'],
      ['event', 'Conversation rewound (tail_rollback): messages after seq 5 superseded'],
      ['user', 'just build'],
    ]);
    expect(p.record?.turns[4]?.tool_calls).toEqual([
      { name: 'askHuman', format: 'text', input: 'Deploy to prod?', output: 'yes deploy', status: 'ok' },
    ]);
  });
});
