import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { replay } from './replay.js';
import type { ReplayEvent } from './replay-event.js';
import { SessionLog } from './session-log.js';

function only<K extends ReplayEvent['kind']>(events: ReplayEvent[], kind: K): Extract<ReplayEvent, { kind: K }>[] {
  return events.filter((e): e is Extract<ReplayEvent, { kind: K }> => e.kind === kind);
}

describe('replay: every writer method → line → UI event', () => {
  it('round-trips a whole session in order, starting with replay_start', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({
      stateRoot: root,
      projectRoot: '/p',
      task: 'Fix the login loop',
      provider: 'anthropic',
      model: 'claude-x',
      autonomy: 'auto',
    });
    const shot = { upload_id: 'u-1', name: 'a.png', mime: 'image/png', url: '/u/1' };
    log.userMessage({ provenance: 'task', text: 'Fix the login loop', attachments: [shot] });
    log.turnStart(1, { budgetPct: 1.5, remainingTokens: 1000 });
    log.reasoning({ summary: 'thinking about cookies', content: 'The cookie is missing because…' });
    log.modelResponseWithMessage({ content: 'Found it.', tokens: { prompt: 10, completion: 2 }, model: 'claude-x' });
    log.agentInput('{"commands":[{"function":"execAsAgent","nonce":1,"command":"ls"},{"function":"writeFile"}]}');
    log.agentOutput({ stdout: 'a\nb\n', stderr: 'warning: x', outputId: 'o1' });
    log.agentOutput({ stdout: '', stderr: '' });
    log.approval('file_write', 'writeFile: /tmp/test.rs', 'approved');
    log.info('[user] hello from the user');
    log.warn('[model] Thinking hard');
    log.error('boom');
    log.debug('detail');
    log.contextSnapshot({ source: 'native', label: 'req 1', raw: { messages: [] }, format: 'test.v1', itemCount: 2, tokenCount: 30 });
    log.sessionIdentity('child-1', 'codex', 'backend-1');
    log.sessionRelationship(log.sessionId, 'child-1', 'subagent');
    log.conversationRewound(1, 'tail_rollback');
    log.roundComplete(1, 1);
    log.writeSummary({ outcome: 'completed' });
    await log.close();

    const { events, problems, tornTail } = await replay(log.dir);
    expect(problems).toEqual([]);
    expect(tornTail).toBe(false);
    expect(events[0]).toMatchObject({
      kind: 'replay_start',
      session_id: log.sessionId,
      provider: 'anthropic',
      model: 'claude-x',
      autonomy: 'auto',
    });
    expect(events.map((e) => e.kind)).toEqual([
      'replay_start',
      'log', // Provider:
      'log', // Model:
      'log', // Autonomy:
      'user_message',
      'turn_start',
      'reasoning',
      'model_response',
      'agent_input',
      'agent_output',
      'agent_output',
      'approval',
      'log',
      'log',
      'log',
      'log',
      'context_snapshot',
      'session_identity',
      'session_relationship',
      'conversation_rewound',
      'round_complete',
      'session_end',
    ]);
    expect(only(events, 'user_message')[0]).toMatchObject({
      text: 'Fix the login loop',
      provenance: 'task',
      seq: 1,
      attachments: [shot],
      turn: null,
    });
    expect(only(events, 'turn_start')[0]).toMatchObject({ turn: 1, budget_pct: 1.5, remaining_tokens: 1000 });
    expect(only(events, 'reasoning')[0]).toMatchObject({
      content: 'The cookie is missing because…',
      summary: 'thinking about cookies',
      turn: 1,
    });
    expect(only(events, 'model_response')[0]).toMatchObject({
      content: 'Found it.',
      clipped: false,
      model: 'claude-x',
      tokens: { prompt: 10, completion: 2, total: 12, cached: 0, cache_creation: 0 },
    });
    expect(only(events, 'agent_input')[0]?.functions).toEqual(['execAsAgent', 'writeFile']);
    expect(only(events, 'agent_output')).toMatchObject([
      { stdout: 'a\nb\n', stderr: 'warning: x', output_id: 'o1' },
      { stdout: '', stderr: '' },
    ]);
    expect(only(events, 'approval')[0]).toMatchObject({ category: 'file_write', decision: 'approved', preview: 'writeFile: /tmp/test.rs' });
    expect(only(events, 'log').slice(3)).toMatchObject([
      { level: 'info', source: 'user', message: '[user] hello from the user' },
      { level: 'detail', source: 'server' },
      { level: 'error', source: 'system', message: 'boom' },
      { level: 'debug', message: 'detail' },
    ]);
    expect(only(events, 'context_snapshot')[0]).toMatchObject({
      source: 'native',
      label: 'req 1',
      format: 'test.v1',
      item_count: 2,
      token_count: 30,
      exact_replay_available: true,
    });
    expect(only(events, 'session_identity')[0]).toMatchObject({ session_id: 'child-1', source: 'codex', backend_session_id: 'backend-1' });
    expect(only(events, 'session_relationship')[0]).toMatchObject({
      parent_session_id: log.sessionId,
      child_session_id: 'child-1',
      relationship: 'subagent',
      ephemeral: false,
    });
    expect(only(events, 'conversation_rewound')[0]).toMatchObject({ cut_after_seq: 1, rewind_kind: 'tail_rollback' });
    expect(only(events, 'round_complete')[0]).toMatchObject({ round: 1, turns_in_round: 1 });
    expect(only(events, 'session_end')[0]).toMatchObject({ outcome: 'completed', total_turns: 1 });
    for (const e of events.slice(1)) expect(typeof e.ts_ms).toBe('number');
  });

  it('reads byte spans of an appended turn file, and falls back to the preview when the sidecar is gone', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    log.turnStart(1);
    log.modelResponseWithMessage({ content: 'one' });
    log.modelResponseWithMessage({ content: 'two ünïcode' });
    log.agentOutput({ stdout: 'first' });
    log.agentOutput({ stdout: 'second' });
    await log.close();
    let r = await replay(log.dir);
    expect(only(r.events, 'model_response').map((e) => e.content)).toEqual(['one', 'two ünïcode']);
    expect(only(r.events, 'agent_output').map((e) => e.stdout)).toEqual(['first', 'second']);
    rmSync(join(log.dir, 'turns', 'turn_001_stdout.txt'));
    r = await replay(log.dir);
    expect(only(r.events, 'agent_output').map((e) => e.stdout)).toEqual(['first', 'second']);
  });

  it('uses a legacy whole file only when its size matches content_length, else the preview', async () => {
    const root = await tempDir();
    const dir = join(root, 'legacy');
    mkdirSync(join(dir, 'turns'), { recursive: true });
    writeFileSync(join(dir, 'turns', 'turn_001_model.txt'), 'Response 1\nResponse 2');
    writeFileSync(join(dir, 'turns', 'turn_002_model.txt'), 'Whole');
    const line = (o: object): string => `${JSON.stringify(o)}\n`;
    writeFileSync(
      join(dir, 'session.jsonl'),
      line({
        ts: '10:00:00.000',
        turn: 1,
        event: 'model_response',
        message: 'Response 2',
        data: { content_length: 10 },
        file: 'turns/turn_001_model.txt',
      }) +
        line({
          ts: '10:00:01.000',
          turn: 2,
          event: 'model_response',
          message: 'Wh',
          data: { content_length: 5 },
          file: 'turns/turn_002_model.txt',
        }) +
        line({ ts: '10:00:02.000', event: 'info', message: 'Session attached: abc (codex)' }) +
        line({ ts: '10:00:03.000', event: 'info', level: 'info', message: 'Provider: openai extra' }) +
        'not json\n' +
        line({ ts: '10:00:04.000', event: 'mystery_event' }),
    );
    const r = await replay(dir);
    expect(only(r.events, 'model_response').map((e) => [e.content, e.ts_ms])).toEqual([
      ['Response 2', null],
      ['Whole', null],
    ]);
    expect(only(r.events, 'session_attached')[0]).toMatchObject({ session_id: 'abc', source: 'codex' });
    expect(r.events[0]).toMatchObject({ kind: 'replay_start', provider: 'openai', model: null, session_id: 'legacy' });
    expect(r.problems).toEqual([{ file: join(dir, 'session.jsonl'), line: 5, reason: 'not a JSON object' }]);
    expect(r.events.some((e) => (e as { kind: string }).kind === 'mystery_event')).toBe(false);
  });

  it('marks a rotated-away context snapshot as no longer exactly replayable, and tolerates a torn tail', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    log.contextSnapshot({ source: 'native', label: 'one', raw: 1, format: 'f' });
    log.contextSnapshot({ source: 'native', label: 'two', raw: 2, format: 'f' });
    await log.close();
    appendFileSync(join(log.dir, 'session.jsonl'), '{"ts":"10:00:00.000","event":"inf');
    const r = await replay(log.dir);
    expect(only(r.events, 'context_snapshot').map((e) => [e.label, e.exact_replay_available])).toEqual([
      ['one', false],
      ['two', true],
    ]);
    expect(r.tornTail).toBe(true);
    expect(r.problems).toEqual([]);
  });

  it('skips an empty reasoning row and assistant lane rows (their twin renders)', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    log.reasoning({});
    log.reasoning({ summary: 'only a summary' });
    log.modelResponseWithMessage({ content: 'x' });
    await log.close();
    const r = await replay(log.dir);
    expect(only(r.events, 'reasoning').map((e) => e.content)).toEqual(['only a summary']);
    expect(only(r.events, 'model_response')).toHaveLength(1);
    expect(only(r.events, 'user_message')).toHaveLength(0);
  });

  it('says which folder holds no log', async () => {
    const root = await tempDir();
    await expect(replay(root)).rejects.toMatchObject({ code: 'SessionNotFound' });
  });
});
