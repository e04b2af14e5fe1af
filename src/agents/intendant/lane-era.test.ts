import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { finaliseRecord } from '../../record/finalise.js';
import { serialiseRecord } from '../../record/serialise.js';
import { intendantReader } from './index.js';
import { parseIntendantSession } from './parse-session.js';
import { FixtureSession, runtimeLine } from './test-support/fixture.js';

const id = '3c1e9a52-7f0b-4d2e-9a41-0c6f5e2b7d18';
const meta = {
  created_at: '2026-07-19T14:03:27',
  created_at_ms: 1784455407530,
  project_root: '/home/dev/webapp',
  name: '  Login   loop ',
  task: 'Fix the login redirect loop',
  status: 'idle',
  last_turn: 7,
  rounds: 2,
};
const found = 'Found it: the middleware re-issues the 302 when the session cookie is missing.';

/** A lane-era session built from the example lines of research/intendant.md §1.3–§1.5. */
async function laneSession(): Promise<FixtureSession> {
  const home = join(await tempDir(), '.intendant');
  const s = await FixtureSession.create(home, id, meta);
  s.raw(
    '{"ts":"14:03:27.512","ts_ms":1784455407512,"event":"session_start","level":"info","message":"Session started at 2026-07-19 14:03:27"}',
  );
  s.row({ ts: '14:03:27.520', ts_ms: 1784455407520, event: 'debug', level: 'debug', message: 'Model: claude-sonnet-4-5' });
  s.raw(
    '{"ts":"14:03:27.600","ts_ms":1784455407600,"event":"conversation_message","level":"info","message":"Fix the login redirect loop","data":{"message_id":"5b0f3c9e-8d2a-4c1b-9e7f-2a6d1c4b8e90","message_seq":2,"provenance":"task","role":"user","text":"Fix the login redirect loop"}}',
  );
  s.raw(
    '{"ts":"14:03:28.020","ts_ms":1784455408020,"turn":1,"event":"turn_start","level":"info","data":{"budget_pct":0.0,"remaining_tokens":200000}}',
  );
  await s.sidecar('turns/turn_001_reasoning.txt', 'The 302 must come from the middleware.');
  s.row({
    ts: '14:03:40.000',
    ts_ms: 1784455420000,
    turn: 1,
    event: 'reasoning',
    level: 'info',
    message: 'middleware suspicion',
    data: { has_summary: true, has_full_content: true, full_content_length: 38 },
    file: 'turns/turn_001_reasoning.txt',
  });
  // A second block appended to the same sidecar, with no summary and (as the original writes it) no span.
  await s.sidecar('turns/turn_001_reasoning.txt', 'Or the cookie is never set.');
  s.row({
    ts: '14:03:41.000',
    ts_ms: 1784455421000,
    turn: 1,
    event: 'reasoning',
    level: 'info',
    data: { has_summary: false, has_full_content: true, full_content_length: 27 },
    file: 'turns/turn_001_reasoning.txt',
  });
  await s.sidecar('turns/turn_001_model.txt', found);
  s.raw(
    '{"ts":"14:04:02.331","ts_ms":1784455442331,"turn":1,"event":"model_response","level":"info","message":"Found it: the middleware re-issues the 302 when the session cookie is missing.","data":{"content_length":78,"model_bytes":78,"model_offset":0,"tokens":{"cache_creation":0,"cached":1024,"completion":212,"prompt":5310,"total":5522}},"file":"turns/turn_001_model.txt"}',
  );
  s.raw(
    '{"ts":"14:04:02.332","ts_ms":1784455442332,"turn":1,"event":"conversation_message","level":"info","message":"Found it: the middleware re-issues the 302 when the session cookie is missing.","data":{"message_id":"c41d8e2a-6f3b-4a90-8e57-1b2c3d4e5f60","message_seq":3,"model_bytes":78,"model_offset":0,"provenance":"assistant","role":"assistant"},"file":"turns/turn_001_model.txt"}',
  );
  await s.agentInput(1784455442400, 1, [
    { function: 'execAsAgent', nonce: 1, command: 'npm test -- auth' },
    {
      function: 'editFile',
      nonce: 2,
      file_path: '/home/dev/webapp/src/auth.ts',
      operation: 'replace',
      match_content: 'res.redirect(302',
      content: 'next(',
    },
  ]);
  await s.agentOutput(
    1784455450000,
    1,
    `${runtimeLine(1, { exit_code: 1, stdout: 'FAIL auth.test.ts', stderr: 'AssertionError' })}\n${runtimeLine(2, { replacements: 1 })}`,
  );
  // Machinery on the lane (a coordination radar) is logged for replay, never said by a person.
  s.laneUser(1784455460000, 5, '[coordination radar] 2 peers active', { turn: 2, provenance: 'system_injection' });
  // Born in the lane era: this legacy-shaped line is a diagnostic and must not become a turn.
  s.raw(
    '{"ts":"14:05:10.004","ts_ms":1784455510004,"turn":3,"event":"info","level":"info","message":"Round 2 follow-up: also add a regression test (1 attachment(s))"}',
  );
  s.row({ ts: '14:05:20.000', ts_ms: 1784455520000, event: 'debug', level: 'debug', message: 'Model: claude-opus-4-1' });
  await s.laneAssistant(1784455700000, 4, 10, 'Should I keep the old cookie name?', {
    prompt: 6000,
    completion: 30,
    cached: 5000,
    cache_creation: 100,
  });
  s.raw(
    '{"ts":"14:09:41.115","ts_ms":1784455781115,"turn":4,"event":"conversation_message","level":"info","message":"Yes, keep the old cookie name","data":{"message_id":"0e6c1f7a-4b2d-4f8e-a1c3-9d5e7b2a6f04","message_seq":11,"provenance":"ask_human_answer","ref_seq":10,"role":"user","text":"Yes, keep the old cookie name"}}',
  );
  s.raw(
    '{"ts":"14:12:02.880","ts_ms":1784455922880,"turn":5,"event":"conversation_message","level":"info","message":"see the screenshot","data":{"attachments":[{"mime":"image/png","name":"shot.png","upload_id":"u-1","url":"/api/session/current/uploads/u-1/raw"}],"message_id":"9a7d2e31-5c40-4e8b-b1f6-3a2c8d9e0f17","message_seq":14,"provenance":"follow_up","role":"user","text":"see the screenshot"}}',
  );
  s.row({ ts: '14:12:30.000', ts_ms: 1784455950000, turn: 5, event: 'interrupted', level: 'warn', message: 'Interrupted by user' });
  await s.save();
  return s;
}

describe('intendant lane era', () => {
  it('reads user text from the canonical lane and assistant text from the referenced span', async () => {
    const s = await laneSession();
    const p = await parseIntendantSession(s.dir, { detail: 'full' });
    expect(p.problems).toEqual([]);
    expect(p.badLines).toEqual([]);
    const record = p.record;
    if (record === null) throw new Error('no record');
    expect(record.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Fix the login redirect loop'],
      ['reasoning', 'The 302 must come from the middleware.'],
      ['reasoning', 'Or the cookie is never set.'],
      ['assistant', found],
      ['assistant', 'Should I keep the old cookie name?'],
      ['user', 'Yes, keep the old cookie name'],
      ['user', 'see the screenshot'],
      ['event', 'Interrupted by user'],
    ]);
    expect(record.turns[0]?.at).toBe('2026-07-19T10:03:27.600Z');
    expect(record.turns[3]?.model).toBe('claude-sonnet-4-5');
    expect(record.turns[4]?.model).toBe('claude-opus-4-1');
    expect(record.models).toEqual(['claude-sonnet-4-5', 'claude-opus-4-1']);
    expect(record).toMatchObject({
      agent: 'intendant',
      session_id: id,
      repo: '/home/dev/webapp',
      branch: null,
      started_at: '2026-07-19T10:03:27.512Z',
      ended_at: '2026-07-19T10:12:30.000Z',
    });
    // `prompt` includes its cached part (5310 + 212 = total 5522): input counts only the uncached rest.
    expect(record.totals).toEqual({
      input_tokens: 5310 - 1024 + (6000 - 5000),
      output_tokens: 242,
      cache_read_tokens: 6024,
      cache_creation_tokens: 100,
      reasoning_tokens: 0,
      cost_usd: null,
    });
    expect(p.cwds).toEqual(['/home/dev/webapp']);
    expect(p.meta.name).toBe('Login loop');
  });

  it('turns the runtime batch into tool calls with their outputs, exit codes and status', async () => {
    const s = await laneSession();
    const record = (await parseIntendantSession(s.dir, { detail: 'full' })).record;
    expect(record?.turns[3]?.tool_calls).toEqual([
      {
        name: 'execAsAgent',
        format: 'shell',
        input: 'npm test -- auth',
        output: 'FAIL auth.test.ts\nAssertionError',
        status: 'error',
        exit_code: 1,
      },
      {
        name: 'editFile',
        format: 'json',
        path: '/home/dev/webapp/src/auth.ts',
        input: '{"file_path":"/home/dev/webapp/src/auth.ts","operation":"replace","match_content":"res.redirect(302","content":"next("}',
        output: '{"replacements":1}',
        status: 'ok',
      },
    ]);
  });

  it('keeps counts, tokens, times and models the same at every detail level', async () => {
    const s = await laneSession();
    const session = await intendantReader.claim(s.dir);
    if (session === null) throw new Error('not claimed');
    const shape = async (detail: 'full' | 'messages' | 'summary') => {
      const r = (await intendantReader.parse(session, { detail })).record;
      if (r === null) throw new Error('no record');
      const f = finaliseRecord(r, { detail, elide: (t) => t });
      return {
        roles: f.turns.map((t) => t.role),
        calls: f.turns.map((t) => t.tool_calls?.map((c) => c.name)),
        totals: f.totals,
        models: f.models,
        times: [f.started_at, f.ended_at],
      };
    };
    const full = await shape('full');
    expect(await shape('messages')).toEqual(full);
    expect(await shape('summary')).toEqual(full);
    const summary = (await intendantReader.parse(session, { detail: 'summary' })).record;
    expect(summary === null ? '' : finaliseRecord(summary, { detail: 'summary', elide: (t) => t }).turns[0]?.text).toBe(
      'Fix the login redirect loop',
    );
  });

  it('serialises deterministically', async () => {
    const s = await laneSession();
    const a = await parseIntendantSession(s.dir, { detail: 'full' });
    const b = await parseIntendantSession(s.dir, { detail: 'full' });
    if (a.record === null || b.record === null) throw new Error('no record');
    expect(serialiseRecord(finaliseRecord(a.record, { detail: 'full', elide: (t) => t }))).toBe(
      serialiseRecord(finaliseRecord(b.record, { detail: 'full', elide: (t) => t })),
    );
  });

  it('lists every message with its locator for the message index', async () => {
    const s = await laneSession();
    const { messages } = await parseIntendantSession(s.dir, { detail: 'full' });
    expect(messages.map((m) => [m.role, m.seq, m.cutKey, m.superseded, m.locator?.kind])).toEqual([
      ['user', 2, 2, false, 'native_message_id'],
      ['assistant', 3, 3, false, 'native_message_id'],
      ['assistant', 10, 10, false, 'native_message_id'],
      ['user', 11, 10, false, 'native_message_id'],
      ['user', 14, 14, false, 'native_message_id'],
    ]);
  });
});
