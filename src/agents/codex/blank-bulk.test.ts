import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import type { Detail, SessionRecord } from '../../record/types.js';
import { parseBlanked } from './blank-bulk.js';
import { codexReader } from './reader.js';
import { Rollout, writeRollout } from './test-support/rollout-fixture.js';

/** A tool's output long enough to be cut, with the escapes that make finding its end hard. */
const bulky = `${'a "quoted" path C:\\\\dir\\\\ and a \\" lone escape\n'.repeat(60)}ends in a backslash \\`;
const parent = '0199bbbb-0000-7000-8000-000000000001';
const child = '0199bbbb-0000-7000-8000-000000000002';

function parseLine(line: string) {
  const buf = Buffer.from(`junk before\n${line}\njunk after`);
  const start = 'junk before\n'.length;
  return parseBlanked(buf, start, start + Buffer.byteLength(line));
}

describe('codex parseBlanked', () => {
  it('parses a long tool output line as JSON.parse does, the output alone read as ""', () => {
    const obj = {
      timestamp: '2026-10-01T09:00:00.000Z',
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: 'c1', output: bulky, internal_chat_message_metadata_passthrough: { turn_id: 't' } },
      metadata: { note: 'ünïcode after the output' },
    };
    const blanked = parseLine(JSON.stringify(obj));
    expect(blanked).toEqual({ key: 'output', obj: { ...obj, payload: { ...obj.payload, output: '' } } });
  });

  it('cuts a reasoning item\u2019s encrypted content and an agent message event\u2019s text', () => {
    const reasoning = { type: 'reasoning', summary: [{ type: 'summary_text', text: 'plan' }], encrypted_content: 'x'.repeat(2000) };
    expect(parseLine(JSON.stringify({ timestamp: 't', type: 'response_item', payload: reasoning }))).toEqual({
      key: 'encrypted_content',
      obj: { timestamp: 't', type: 'response_item', payload: { ...reasoning, encrypted_content: '' } },
    });
    const message = { type: 'agent_message', message: bulky };
    expect(parseLine(JSON.stringify({ timestamp: 't', type: 'event_msg', payload: message }))?.obj).toEqual({
      timestamp: 't',
      type: 'event_msg',
      payload: { type: 'agent_message', message: '' },
    });
  });

  it('leaves to the whole parse a line of another kind, a torn or glued line, and one with a NUL byte', () => {
    const line = JSON.stringify({
      timestamp: 't',
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: 'c1', output: bulky },
    });
    expect(parseLine(JSON.stringify({ timestamp: 't', type: 'event_msg', payload: { type: 'user_message', message: bulky } }))).toBe(
      undefined,
    );
    expect(parseLine(line.slice(0, 1500))).toBe(undefined);
    expect(parseLine(line.slice(0, 1500) + line)).toBe(undefined);
    expect(parseLine(line.replace('lone', 'lo\u0000ne'))).toBe(undefined);
  });
});

async function parsed(body: Rollout, detail: Detail) {
  const home = join(await tempDir(), '.codex');
  await writeRollout(home, '0199-test', body);
  const sessions = (await codexReader.discover(home)).sessions;
  expect(sessions).toHaveLength(1);
  return codexReader.parse(sessions[0]!, { detail });
}

const shape = (r: SessionRecord | null) => ({
  started: r?.started_at,
  ended: r?.ended_at,
  totals: r?.totals,
  turns: r?.turns.map((t) => [t.role, t.at, (t.tool_calls ?? []).map((c) => c.name)]),
});

describe('codex rollouts below the full level', () => {
  const rollout = () =>
    new Rollout('0199-test')
      .meta()
      .turnContext()
      .user('Run it')
      .userEvent('Run it')
      .reasoning(['Thinking'], 'x'.repeat(4000))
      .functionCall('exec_command', { cmd: 'make' }, 'c1')
      .functionOutput('c1', bulky)
      .customCall('apply_patch', '*** Begin Patch', 'c2')
      .customOutput('c2', bulky)
      .agentMessageEvent(bulky)
      .assistant('Done.')
      .tokens(1000, 400, 50, 20);

  it('reads the same turns, times and totals as the full level', async () => {
    const full = await parsed(rollout(), 'full');
    for (const detail of ['summary', 'messages'] as const) {
      const lower = await parsed(rollout(), detail);
      expect(shape(lower.record)).toEqual(shape(full.record));
      expect(lower.badLines).toEqual([]);
    }
  });

  it('still reads the output of a call that launched an agent (it names the child)', async () => {
    const home = join(await tempDir(), '.codex');
    await writeRollout(
      home,
      parent,
      new Rollout(parent)
        .meta()
        .functionCall('spawn_agent', { agent_type: 'explorer', message: 'Look' }, 'call_spawn')
        .functionOutput('call_spawn', JSON.stringify({ agent_id: child, nickname: 'Boyle', note: bulky })),
    );
    await writeRollout(
      home,
      child,
      new Rollout(child, '2026-10-01T09:00:03.000Z')
        .meta({ source: { subagent: { thread_spawn: { parent_thread_id: parent, depth: 1, agent_role: 'explorer' } } } })
        .user('Look')
        .assistant('Seen.'),
    );
    const [session] = (await codexReader.discover(home)).sessions;
    const r = await codexReader.parse(session!, { detail: 'summary' });
    const spawn = r.record?.turns.flatMap((t) => t.tool_calls ?? []).find((c) => c.name === 'spawn_agent');
    expect(spawn?.subagent?.id).toBe(child);
  });

  it('counts a long line broken inside its output as bad, as the full level does', async () => {
    const broken = () => {
      const r = rollout();
      const line = JSON.stringify({
        timestamp: '2026-10-01T09:00:30.000Z',
        type: 'response_item',
        payload: { type: 'function_call_output', call_id: 'c1', output: bulky },
      });
      return r.raw(line.replace('lone', 'lo"ne')).assistant('After.');
    };
    const full = await parsed(broken(), 'full');
    const summary = await parsed(broken(), 'summary');
    expect(full.badLines.map((b) => b.count)).toEqual([1]);
    expect(summary.badLines.map((b) => b.count)).toEqual([1]);
    expect(shape(summary.record)).toEqual(shape(full.record));
  });
});
