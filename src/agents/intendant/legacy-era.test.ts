import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { hash16 } from '../../fs/hash.js';
import { parseIntendantSession } from './parse-session.js';
import { FixtureSession } from './test-support/fixture.js';

// The machine ran two hours behind UTC: created_at is local, created_at_ms is UTC.
const naiveMs = Date.UTC(2026, 6, 19, 23, 58, 0);
const offset = 2 * 3600 * 1000;
const meta = {
  created_at: '2026-07-19T23:58:00',
  created_at_ms: naiveMs + offset,
  project_root: '/home/dev/webapp',
  task: 'Fix the login redirect loop (meta)',
  status: 'idle',
};

const task = 'Fix the login redirect loop';
const looking = 'Looking at the middleware.';
const followUp = 'also add a regression test';
const wholeFile = 'The cookie is dropped on the redirect.';
const long = `Here is the full plan. ${'step by step '.repeat(30)}`;

/** A session begun before the lane (no ts_ms), resumed after it with an epoch marker. */
async function resumedSession(withMarker: boolean): Promise<FixtureSession> {
  const home = join(await tempDir(), '.intendant');
  const s = await FixtureSession.create(home, 'thread-1', meta);
  s.raw(
    '{"ts":"23:59:01.000","event":"session_started","level":"info","message":"Session started: thread-1","data":{"session_id":"thread-1","task":"Fix the login redirect loop"}}',
  );
  await s.legacyModel('23:59:30.500', 1, looking);
  // Past midnight: the time of day runs backwards, so the date moves on.
  s.raw(
    '{"ts":"00:00:05.000","turn":2,"event":"steer_requested","level":"info","message":"Steer requested: try the other door","data":{"id":"steer-7","session_id":"thread-1","status":"pending","text":"try the other door"}}',
  );
  s.raw(
    '{"ts":"00:00:09.000","turn":2,"event":"steer_delivered","level":"info","message":"Steer delivered (at turn boundary)","data":{"id":"steer-7","mid_turn":false,"session_id":"thread-1","status":"delivered"}}',
  );
  s.raw(
    '{"ts":"00:00:10.000","turn":2,"event":"steer_requested","level":"info","message":"Steer requested: never mind","data":{"id":"steer-8","session_id":"thread-1","status":"pending","text":"never mind"}}',
  );
  s.raw(
    '{"ts":"00:01:00.000","turn":3,"event":"info","level":"info","message":"Round 2 follow-up: also add a regression test (1 attachment(s))"}',
  );
  s.raw('{"ts":"00:01:05.000","turn":3,"event":"info","level":"info","message":"Round two follow-up: not the strict shape"}');
  // A mirror of another session's response (a daemon log's copy): not this session's words or tokens.
  s.row({
    ts: '00:01:30.000',
    turn: 3,
    event: 'model_response',
    level: 'info',
    message: 'Running the auth tests now.',
    data: {
      content_length: 27,
      session_id: 'd2e3f4a5-0000-4000-8000-00000000c0de',
      source: 'codex',
      tokens: { cache_creation: 0, cached: 0, completion: 9, prompt: 800, total: 809 },
    },
  });
  await s.legacyModel('00:02:00.000', 3, wholeFile, { spanless: true });
  // Appended to turn 1's file after its first response: the file is no longer this row's length.
  await s.legacyModel('00:02:30.000', 1, long, { spanless: true });
  if (withMarker) {
    s.row({
      ts: '09:00:01.002',
      ts_ms: 1784538001002,
      event: 'conversation_message_epoch',
      level: 'info',
      message: 'Assigned seqs to 7 legacy conversation messages',
      data: {
        mapping: [
          [1, 'system', '9f1c2e3d4a5b6c7d'],
          [2, 'user', hash16(task)],
          [3, 'assistant', hash16(looking)],
          // The conversation held the steer wrapped, so its hash matches nothing reconstructed.
          [4, 'user', hash16(`[User] try the other door`)],
          [5, 'user', hash16(followUp)],
          [6, 'assistant', hash16(wholeFile)],
          [7, 'assistant', hash16(long)],
        ],
      },
    });
    // After the marker, legacy-shaped rows are diagnostics of lane messages: not read twice.
    s.raw(
      '{"ts":"09:00:02.000","ts_ms":1784538002000,"event":"session_started","level":"info","message":"Session started: thread-1","data":{"session_id":"thread-1","task":"continue with the tests"}}',
    );
    s.laneUser(1784538002100, 8, 'continue with the tests', { provenance: 'resume_task' });
    s.raw(
      '{"ts":"09:00:03.000","ts_ms":1784538003000,"turn":4,"event":"info","level":"info","message":"Round 3 follow-up: continue with the tests"}',
    );
    await s.laneAssistant(1784538010000, 4, 9, 'Tests added.');
    s.row({
      ts: '09:05:00.000',
      ts_ms: 1784538300000,
      turn: 4,
      event: 'conversation_rewound',
      level: 'info',
      message: 'Conversation rewound (tail_rollback): messages after seq 5 superseded',
      data: { cut_after_seq: 5, kind: 'tail_rollback', superseded_at_ms: 1784538300000 },
    });
    s.laneUser(1784538310000, 10, 'only the regression test, please', { turn: 5, provenance: 'follow_up' });
  }
  await s.save();
  return s;
}

describe('intendant legacy era', () => {
  it('reconstructs the user lane from session_started, delivered steers and follow-up lines, dating rows across midnight', async () => {
    const s = await resumedSession(false);
    const p = await parseIntendantSession(s.dir, { detail: 'full' });
    const record = p.record;
    if (record === null) throw new Error('no record');
    expect(record.turns.map((t) => [t.role, t.at, t.text])).toEqual([
      ['user', '2026-07-20T01:59:01.000Z', task],
      ['assistant', '2026-07-20T01:59:30.500Z', looking],
      ['user', '2026-07-20T02:00:09.000Z', 'try the other door'],
      ['user', '2026-07-20T02:01:00.000Z', followUp],
      // No span, but the sidecar's size is the row's content length: the whole file is the text.
      ['assistant', '2026-07-20T02:02:00.000Z', wholeFile],
      // No span and the file has grown past the row's length: the 200-character preview stands in.
      ['assistant', '2026-07-20T02:02:30.000Z', long.slice(0, 200)],
    ]);
    expect(record.totals).toMatchObject({ input_tokens: 150, output_tokens: 15 });
    expect(record.started_at).toBe('2026-07-20T01:59:01.000Z');
    const steer = p.messages[2];
    expect(steer?.locator).toEqual({ kind: 'native_event', line_no: 3, content_hash16: hash16('try the other door') });
  });

  it('falls back to the meta task when a legacy log never names one', async () => {
    const home = join(await tempDir(), '.intendant');
    const s = await FixtureSession.create(home, 'old-1', meta);
    await s.legacyModel('10:00:00.000', 1, looking);
    await s.save();
    const p = await parseIntendantSession(s.dir, { detail: 'full' });
    expect(p.record?.turns.map((t) => [t.role, t.at, t.text])).toEqual([
      ['user', '2026-07-20T01:58:00.000Z', 'Fix the login redirect loop (meta)'],
      // Dated on the meta's day (the original re-stamps created_at, so rows may precede it).
      ['assistant', '2026-07-19T12:00:00.000Z', looking],
    ]);
    expect(p.messages[0]?.locator).toEqual({
      kind: 'native_event',
      line_no: 0,
      content_hash16: hash16('Fix the login redirect loop (meta)'),
    });
  });

  it('splits the eras at the epoch marker, correlates legacy messages by hash and lets a later rewind cut them', async () => {
    const s = await resumedSession(true);
    const p = await parseIntendantSession(s.dir, { detail: 'full' });
    expect(p.problems).toEqual([]);
    expect(p.record?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', task],
      ['assistant', looking],
      ['user', 'try the other door'],
      ['user', followUp],
      ['assistant', long.slice(0, 200)],
      ['event', 'Conversation rewound (tail_rollback): messages after seq 5 superseded'],
      ['user', 'only the regression test, please'],
    ]);
    expect(p.messages.map((m) => [m.text.slice(0, 20), m.seq ?? null, m.superseded])).toEqual([
      [task.slice(0, 20), 2, false],
      [looking.slice(0, 20), 3, false],
      ['try the other door', null, false],
      [followUp.slice(0, 20), 5, false],
      [wholeFile.slice(0, 20), 6, true],
      [long.slice(0, 20), null, false],
      ['continue with the te', 8, true],
      ['Tests added.', 9, true],
      ['only the regression ', 10, false],
    ]);
  });
});
