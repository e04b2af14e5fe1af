import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { intendantReader } from './index.js';
import { parseIntendantSession } from './parse-session.js';
import { FixtureSession, tod } from './test-support/fixture.js';

describe('intendant drift', () => {
  it('counts a torn last line, bad lines and unknown events, and reports a corrupt meta, without throwing', async () => {
    const home = join(await tempDir(), '.intendant');
    const s = await FixtureSession.create(home, 'drift', null);
    await writeFile(join(s.dir, 'session_meta.json'), '{"session_id": "drift", "project_root": ');
    s.laneUser(1_000, 1, 'hello', { turn: 1 });
    s.raw('not json at all');
    s.raw('{"ts":"00:00:01.500","no_event":true}');
    s.raw('["an", "array"]');
    // An empty or non-string event is no row, though the rest of the line reads like telemetry.
    s.raw('{"ts":"00:00:01.550","ts_ms":1550,"event":"","level":"info"}');
    s.raw('{"ts":"00:00:01.560","ts_ms":1560,"event":7,"level":"info"}');
    s.row({ ts: tod(1_600), ts_ms: 1_600, event: 'hologram_projected', level: 'info', message: 'from a future version' });
    s.row({ ts: tod(1_700), ts_ms: 1_700, event: 'voice_frame', level: 'debug' });
    await s.laneAssistant(2_000, 1, 2, 'hi there');
    const spine = await s.save('{"ts":"00:00:03.000","ts_ms":3000,"event":"conversation_message","level":"info","message":"half a li');
    const p = await parseIntendantSession(s.dir, { detail: 'full' });
    expect(p.record?.turns.map((t) => t.text)).toEqual(['hello', 'hi there']);
    expect(p.tornTail).toBe(true);
    // Five bad lines plus the torn tail.
    expect(p.badLines).toEqual([{ path: spine, count: 6 }]);
    expect([...p.unknownEvents]).toEqual([['hologram_projected', 1]]);
    expect(p.problems).toEqual([
      { path: join(s.dir, 'session_meta.json'), kind: 'unparsed', reason: expect.stringMatching(/session_meta\.json is not valid JSON/) },
    ]);
    expect(p.record?.repo).toBe('');
  });

  it('gives no record for an empty spine and reads a spine with no conversation as an empty session', async () => {
    const home = join(await tempDir(), '.intendant');
    const empty = await FixtureSession.create(home, 'empty', { task: 'never started' });
    await empty.save();
    expect((await parseIntendantSession(empty.dir, { detail: 'full' })).record).toBeNull();
    const quiet = await FixtureSession.create(home, 'quiet', {});
    quiet.raw(
      '{"ts":"14:03:27.512","ts_ms":1784455407512,"event":"session_start","level":"info","message":"Session started at 2026-07-19 14:03:27"}',
    );
    await quiet.save();
    const p = await parseIntendantSession(quiet.dir, { detail: 'full' });
    expect(p.record?.turns).toEqual([]);
    expect(p.record?.started_at).toBe('2026-07-19T10:03:27.512Z');
  });

  it('marks calls still waiting when the session was interrupted, and keeps orphan output as a call', async () => {
    const home = join(await tempDir(), '.intendant');
    const s = await FixtureSession.create(home, 'cut-short', { task: 't', status: 'interrupted' });
    s.laneUser(1_000, 1, 'run both', { turn: 1 });
    await s.agentInput(2_000, 1, [
      { function: 'execAsAgent', nonce: 1, command: 'sleep 1' },
      { function: 'execAsAgent', nonce: 2, command: 'sleep 999' },
    ]);
    await s.agentOutput(3_000, 1, '', '', { exit_code: 0 });
    s.row({ ts: tod(3_200), ts_ms: 3_200, turn: 1, event: 'interrupted', level: 'warn' });
    s.row({ ts: tod(3_500), ts_ms: 3_500, turn: 2, event: 'agent_started', level: 'info', message: 'git status' });
    await s.agentOutput(4_000, 2, 'On branch main', '', { source: 'codex' });
    await s.save();
    const record = (await intendantReader.parse((await intendantReader.claim(s.dir)) ?? fail(), { detail: 'full' })).record;
    expect(record?.turns.map((t) => [t.role, t.text, t.tool_calls])).toEqual([
      ['user', 'run both', undefined],
      [
        'assistant',
        '',
        [
          { name: 'execAsAgent', format: 'shell', input: 'sleep 1', status: 'ok', exit_code: 0 },
          { name: 'execAsAgent', format: 'shell', input: 'sleep 999', status: 'interrupted' },
        ],
      ],
      ['event', 'interrupted', undefined],
      ['assistant', '', [{ name: 'command', format: 'shell', input: 'git status', output: 'On branch main', status: 'ok' }]],
    ]);
  });

  it('marks calls left waiting as interrupted when the meta says the session was', async () => {
    const home = join(await tempDir(), '.intendant');
    const s = await FixtureSession.create(home, 'killed', { task: 't', status: 'interrupted' });
    s.laneUser(1_000, 1, 'run', { turn: 1 });
    await s.agentInput(2_000, 1, [{ function: 'execPty', nonce: 1, command: 'tail -f log' }]);
    await s.save();
    const record = (await parseIntendantSession(s.dir, { detail: 'full' })).record;
    expect(record?.turns[1]?.tool_calls).toEqual([{ name: 'execPty', format: 'shell', input: 'tail -f log', status: 'interrupted' }]);
  });
});

function fail(): never {
  throw new Error('not claimed');
}
