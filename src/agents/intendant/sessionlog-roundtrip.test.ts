// What agentlog/sessionlog writes, this reader reads back, message for message.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { SessionLog, type Clock } from '../../sessionlog/index.js';
import { intendantReader } from './index.js';
import { parseIntendantSession } from './parse-session.js';
import { FixtureSession } from './test-support/fixture.js';

function steppingClock(start = 1_784_455_407_000): Clock {
  let t = start;
  return { now: () => (t += 250) };
}

describe('intendant reader over agentlog/sessionlog', () => {
  it('reads a written session message for message, with tools, reasoning, a rewind and a subagent', async () => {
    const stateRoot = await tempDir();
    const clock = steppingClock();
    const log = await SessionLog.open({
      stateRoot,
      projectRoot: '/home/dev/webapp',
      task: 'Fix the login redirect loop',
      name: 'Login loop',
      model: 'claude-sonnet-4-5',
      clock,
      strict: true,
    });
    log.userMessage({ provenance: 'task', text: 'Fix the login redirect loop' });
    log.turnStart(1);
    log.reasoning({ summary: 'look at middleware', content: 'The redirect must come from the middleware.' });
    log.reasoning({ content: 'Second thought: check the cookie too.' });
    log.modelResponseWithMessage({
      content: 'Found it: the middleware re-issues the 302.',
      tokens: { prompt: 5310, completion: 212, cached: 1024 },
      model: 'claude-sonnet-4-5',
    });
    log.agentInput({ commands: [{ function: 'execAsAgent', nonce: 1, command: 'npm test -- auth' }] });
    log.agentOutput({ stdout: 'FAIL auth.test.ts', stderr: 'AssertionError: expected 200' });

    const child = await SessionLog.open({
      stateRoot,
      projectRoot: '/home/dev/webapp',
      task: 'Find the cookie code',
      role: 'research',
      clock,
      strict: true,
    });
    child.userMessage({ provenance: 'task', text: 'Find the cookie code' });
    child.turnStart(1);
    child.modelResponseWithMessage({ content: 'It is in src/session.ts', tokens: { prompt: 40, completion: 4 } });
    child.writeSummary({ outcome: 'completed', totalTurns: 1 });
    await child.close();
    log.sessionRelationship(log.sessionId, child.sessionId, 'subagent');

    log.userMessage({ provenance: 'follow_up', text: 'also add a regression test' });
    log.turnStart(2);
    const bad = log.modelResponseWithMessage({ content: 'Adding a flaky test.', tokens: { prompt: 6000, completion: 30 } });
    log.conversationRewound(bad.seq - 2);
    log.userMessage({ provenance: 'steer', text: 'a deterministic test, please' });
    log.turnStart(3);
    log.modelResponseWithMessage({ content: 'Added a deterministic regression test.', tokens: { prompt: 6100, completion: 40 } });
    log.roundComplete(1, 3);
    await log.close();

    const d = await intendantReader.discover(stateRoot);
    expect(d.problems).toEqual([]);
    expect(d.sessions.map((s) => s.sessionId)).toEqual([log.sessionId]);
    const session = d.sessions[0];
    if (session === undefined) throw new Error('no session');
    const parsed = await intendantReader.parse(session, { detail: 'full' });
    expect(parsed.problems).toEqual([]);
    expect(parsed.badLines).toEqual([]);
    const record = parsed.record;
    if (record === null) throw new Error('no record');
    expect(record.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Fix the login redirect loop'],
      ['reasoning', 'The redirect must come from the middleware.'],
      ['reasoning', 'Second thought: check the cookie too.'],
      ['assistant', 'Found it: the middleware re-issues the 302.'],
      ['event', `Conversation rewound (tail_rollback): messages after seq ${bad.seq - 2} superseded`],
      ['user', 'a deterministic test, please'],
      ['assistant', 'Added a deterministic regression test.'],
    ]);
    expect(record).toMatchObject({ session_id: log.sessionId, repo: '/home/dev/webapp', models: ['claude-sonnet-4-5'] });
    expect(record.totals).toMatchObject({ input_tokens: 5310 - 1024 + 6000 + 6100, output_tokens: 212 + 30 + 40, cache_read_tokens: 1024 });
    const calls = record.turns[3]?.tool_calls ?? [];
    expect(calls[0]).toEqual({
      name: 'execAsAgent',
      format: 'shell',
      input: 'npm test -- auth',
      output: 'FAIL auth.test.ts\nAssertionError: expected 200',
      status: 'ok',
    });
    expect(calls[1]).toMatchObject({
      name: 'subagent',
      output: 'It is in src/session.ts',
      subagent: {
        id: child.sessionId,
        name: 'research',
        description: 'Find the cookie code',
        totals: { input_tokens: 40, output_tokens: 4 },
      },
    });

    // Every lane message, the superseded ones included, in the order written.
    const { messages } = await parseIntendantSession(session.path, { detail: 'full' });
    expect(messages.map((m) => [m.role, m.text, m.superseded])).toEqual([
      ['user', 'Fix the login redirect loop', false],
      ['assistant', 'Found it: the middleware re-issues the 302.', false],
      ['user', 'also add a regression test', true],
      ['assistant', 'Adding a flaky test.', true],
      ['user', 'a deterministic test, please', false],
      ['assistant', 'Added a deterministic regression test.', false],
    ]);
  });

  it('reads a legacy session the library resumed: legacy rows before its epoch marker, the lane after', async () => {
    const stateRoot = await tempDir();
    const legacy = await FixtureSession.create(stateRoot, 'legacy-1', {
      created_at: '2026-06-01T10:00:00',
      project_root: '/home/dev/webapp',
      task: 'Fix X',
      status: 'idle',
    });
    legacy.raw(
      '{"ts":"10:00:01.000","event":"session_started","level":"info","message":"Session started: legacy-1","data":{"session_id":"legacy-1","task":"Fix X"}}',
    );
    await legacy.legacyModel('10:00:05.000', 1, 'Looking.');
    await legacy.save();
    await writeFile(
      join(legacy.dir, 'conversation.jsonl'),
      '{"role":"user","content":"Fix X"}\n{"role":"assistant","content":"Looking."}\n',
    );

    const log = await SessionLog.open({
      dir: legacy.dir,
      projectRoot: '/home/dev/webapp',
      task: 'continue',
      clock: steppingClock(),
      strict: true,
    });
    log.userMessage({ provenance: 'resume_task', text: 'continue' });
    log.turnStart(2);
    log.modelResponseWithMessage({ content: 'Continuing.' });
    log.conversationRewound(1);
    log.userMessage({ provenance: 'follow_up', text: 'start over from the task' });
    await log.close();

    const p = await parseIntendantSession(legacy.dir, { detail: 'full' });
    expect(p.problems).toEqual([]);
    expect(p.record?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Fix X'],
      ['event', 'Conversation rewound (tail_rollback): messages after seq 1 superseded'],
      ['user', 'start over from the task'],
    ]);
    expect(p.messages.map((m) => [m.text, m.seq, m.legacy, m.superseded])).toEqual([
      ['Fix X', 1, true, false],
      ['Looking.', 2, true, true],
      ['continue', 3, false, true],
      ['Continuing.', 4, false, true],
      ['start over from the task', 5, false, false],
    ]);
  });
});
