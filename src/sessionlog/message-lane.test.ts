import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { hash16 } from '../fs/hash.js';
import { readMetaSync } from './meta.js';
import { SessionLog } from './session-log.js';
import { readSpan } from './sidecar.js';

type Row = { event: string; turn?: number; message?: string; data?: Record<string, unknown>; file?: string };

function rows(dir: string): Row[] {
  return readFileSync(join(dir, 'session.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Row);
}

const lane = (dir: string): Row[] => rows(dir).filter((r) => r.event === 'conversation_message');

describe('the message lane', () => {
  it('writes user rows with exactly the documented data keys, raw text and a 200-character preview', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    const long = `${'é'.repeat(199)}😀tail`;
    log.userMessage({ provenance: 'task', text: long, content: `[New Task] ${long}` });
    log.turnStart(4);
    const q = log.conversation.addToolResult('c1', 'askHuman', 'Yes, keep the old cookie name');
    log.userMessage({ provenance: 'ask_human_answer', text: 'Yes, keep the old cookie name', refSeq: q });
    await log.close();
    const [task, answer] = lane(log.dir);
    expect(Object.keys(task?.data ?? {})).toEqual(['message_id', 'message_seq', 'provenance', 'role', 'text']);
    expect(task?.data).toMatchObject({ provenance: 'task', role: 'user', text: long, message_seq: 1 });
    expect(task).not.toHaveProperty('turn');
    expect(task?.message).toBe(`${'é'.repeat(199)}😀`);
    expect(Object.keys(answer?.data ?? {})).toEqual(['message_id', 'message_seq', 'provenance', 'ref_seq', 'role', 'text']);
    expect(answer).toMatchObject({ turn: 4, data: { ref_seq: q, message_seq: q + 1 } });
    // The conversation holds the wrapped form; the lane the raw text.
    expect(log.conversation.messages[0]?.content).toBe(`[New Task] ${long}`);
  });

  it('keeps attachment references on user rows, and omits the key when there are none', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    const shot = { upload_id: 'u-1', name: 'shot.png', mime: 'image/png', url: '/api/session/current/uploads/u-1/raw' };
    log.userMessage({ provenance: 'follow_up', text: 'see the screenshot', attachments: [shot] });
    log.userMessage({ provenance: 'steer', text: 'no attachments', attachments: [] });
    await log.close();
    const [withShot, without] = lane(log.dir);
    expect(withShot?.data?.attachments).toEqual([shot]);
    expect(Object.keys(withShot?.data ?? {})[0]).toBe('attachments');
    expect(without?.data).not.toHaveProperty('attachments');
  });

  it('writes model_response then conversation_message over one shared span, appended per turn', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    log.turnStart(1);
    const first = 'Found it: the middleware re-issues the 302 when the session cookie is missing.';
    log.modelResponseWithMessage({ content: first, tokens: { prompt: 5310, completion: 212, cached: 1024 }, model: 'm-1' });
    const second = 'Running the auth tests now. ✓';
    const r2 = log.modelResponseWithMessage({ content: second, toolCalls: [{ id: 'c1', name: 'exec', arguments: '{}' }] });
    await log.close();
    const r = rows(log.dir).filter((x) => x.event === 'model_response' || x.event === 'conversation_message');
    expect(r.map((x) => x.event)).toEqual(['model_response', 'conversation_message', 'model_response', 'conversation_message']);
    const [diag, canon, diag2, canon2] = r;
    expect(diag).toMatchObject({
      turn: 1,
      file: 'turns/turn_001_model.txt',
      data: {
        content_length: 78,
        model_offset: 0,
        model_bytes: 78,
        model: 'm-1',
        tokens: { prompt: 5310, completion: 212, total: 5522, cached: 1024, cache_creation: 0 },
      },
    });
    expect(canon).toMatchObject({
      file: diag?.file,
      data: { provenance: 'assistant', role: 'assistant', model_offset: 0, model_bytes: 78, message_seq: 1 },
    });
    expect(Object.keys(canon?.data ?? {}).sort()).toEqual([
      'message_id',
      'message_seq',
      'model_bytes',
      'model_offset',
      'provenance',
      'role',
    ]);
    expect(diag2?.data).toMatchObject({ model_offset: 79, model_bytes: Buffer.byteLength(second), tool_calls: ['exec'] });
    expect(canon2?.data).toMatchObject({ model_offset: 79, message_seq: r2.seq });
    expect(readSpan(log.dir, 'turns/turn_001_model.txt', 79, Buffer.byteLength(second))?.text).toBe(second);
    expect(readFileSync(join(log.dir, 'turns/turn_001_model.txt'), 'utf8')).toBe(`${first}\n${second}`);
  });

  it('writes conversation_rewound with the cut, dropping the tail without rewinding the counter', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    const seqs = [
      log.userMessage({ provenance: 'task', text: 'a' }).seq,
      log.modelResponseWithMessage({ content: 'b' }).seq,
      log.userMessage({ provenance: 'follow_up', text: 'c' }).seq,
    ];
    expect(seqs).toEqual([1, 2, 3]);
    expect(log.conversationRewound(1)).toBe(2);
    expect(log.userMessage({ provenance: 'follow_up', text: 'd' }).seq).toBe(4);
    await log.close();
    const cut = rows(log.dir).find((x) => x.event === 'conversation_rewound');
    expect(cut?.message).toBe('Conversation rewound (tail_rollback): messages after seq 1 superseded');
    expect(cut?.data).toMatchObject({ cut_after_seq: 1, kind: 'tail_rollback' });
    expect(cut?.data?.superseded_at_ms).toBe((cut as unknown as { ts_ms: number }).ts_ms);
  });

  it('never reuses a seq across a rewind, a save and a resume', async () => {
    const root = await tempDir();
    const dir = join(root, 'logs', 's');
    const a = await SessionLog.open({ dir, projectRoot: '/p', task: 't' });
    a.userMessage({ provenance: 'task', text: 'a' });
    a.modelResponseWithMessage({ content: 'b' });
    a.conversation.addToolResult('x', 'exec', 'out');
    a.conversationRewound(1);
    await a.close();
    expect(readMetaSync(dir)?.next_message_seq).toBe(4);
    const b = await SessionLog.open({ dir, projectRoot: '/p', task: 'more' });
    expect(b.conversation.messages.map((m) => m.seq)).toEqual([1]);
    expect(b.userMessage({ provenance: 'resume_task', text: 'c' }).seq).toBe(4);
    await b.close();
  });

  it('renumbers a legacy conversation 1..N once, with one epoch row; an all-assigned file is left alone', async () => {
    const root = await tempDir();
    const dir = join(root, 'logs', 'legacy');
    const a = await SessionLog.open({ dir, projectRoot: '/p', task: 't' });
    await a.close();
    const legacy = [
      { role: 'system', content: 'You are a helper.' },
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi there', seq: 0 },
    ];
    writeFileSync(join(dir, 'conversation.jsonl'), legacy.map((m) => `${JSON.stringify(m)}\n`).join(''));
    const b = await SessionLog.open({ dir, projectRoot: '/p', task: 't' });
    expect(b.conversation.messages.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(b.userMessage({ provenance: 'resume_task', text: 'go on' }).seq).toBe(4);
    await b.close();
    const c = await SessionLog.open({ dir, projectRoot: '/p', task: 't' });
    await c.close();
    const epochs = rows(dir).filter((x) => x.event === 'conversation_message_epoch');
    expect(epochs).toHaveLength(1);
    expect(epochs[0]?.message).toBe('Assigned seqs to 3 legacy conversation messages');
    expect(epochs[0]?.data?.mapping).toEqual([
      [1, 'system', hash16('You are a helper.')],
      [2, 'user', hash16('hello')],
      [3, 'assistant', hash16('hi there')],
    ]);
    const saved = readFileSync(join(dir, 'conversation.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { seq: number; content: string });
    expect(saved.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    expect(saved[3]?.content).toBe('go on');
  });

  it('keeps hash16 stable and content-sensitive', () => {
    expect(hash16('hello')).toBe('2cf24dba5fb0a30e');
    expect(hash16('hello')).toBe(hash16('hello'));
    expect(hash16('hello!')).not.toBe(hash16('hello'));
    expect(hash16('')).toHaveLength(16);
  });
});
