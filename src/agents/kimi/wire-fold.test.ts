import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { kimiReader, readKimiSession, wireMessages, defaultKimiBounds } from './index.js';
import { at, iso, prompt, step, writeSession, type WireRecord } from './test-support/wire.js';

async function parse(wires: Record<string, WireRecord[]>, tails?: Record<string, string>) {
  const home = join(await tempDir(), '.kimi-code');
  const dir = await writeSession(home, 'session_fold', { wires, tails });
  const session = (await kimiReader.claim(dir))!;
  return { dir, parsed: await kimiReader.parse(session, { detail: 'full' }), logs: await readKimiSession(dir, defaultKimiBounds) };
}

const undo = (count: number, s: number): WireRecord => ({ type: 'context.undo', count, time: at(s) });

describe('context.undo', () => {
  it('removes the undone prompt and its answer from the turns and keeps them as superseded messages', async () => {
    const { parsed, logs } = await parse({
      main: [
        prompt('first question', 1),
        ...step('s1', 2, { text: 'first answer' }),
        prompt('second question', 3),
        ...step('s2', 4, { text: 'abandoned answer', calls: [{ id: 'Bash_0', name: 'Bash', args: { command: 'ls' }, output: 'a\n' }] }),
        undo(1, 5),
        prompt('second question, better', 6),
        ...step('s3', 7, { text: 'kept answer' }),
      ],
    });
    const r = parsed.record!;
    expect(r.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'first question'],
      ['assistant', 'first answer'],
      ['user', 'second question, better'],
      ['assistant', 'kept answer'],
    ]);
    // The undone model call was still billed: its usage stays in the totals.
    expect(r.totals.input_tokens).toBe(30);
    const messages = [...wireMessages(logs.logs.get('main')!)];
    expect(messages.map((m) => [m.recordId, m.role, m.text, m.superseded?.at ?? null])).toEqual([
      ['main:line-1', 'user', 'first question', null],
      ['main:s1-text', 'assistant', 'first answer', null],
      ['main:line-7', 'user', 'second question', iso(5)],
      ['main:s2-text', 'assistant', 'abandoned answer', iso(5)],
      ['main:line-16', 'user', 'second question, better', null],
      ['main:s3-text', 'assistant', 'kept answer', null],
    ]);
  });

  it('undoes several turns at once but never past a compaction', async () => {
    const { parsed } = await parse({
      main: [
        prompt('one', 1),
        ...step('s1', 2, { text: 'answer one' }),
        { type: 'context.apply_compaction', summary: 'so far', compactedCount: 2, time: at(3) },
        prompt('two', 4),
        ...step('s2', 5, { text: 'answer two' }),
        prompt('three', 6),
        ...step('s3', 7, { text: 'answer three' }),
        undo(5, 8),
        prompt('four', 9),
      ],
    });
    expect(parsed.record!.turns.map((t) => t.text)).toEqual(['one', 'answer one', 'context compacted', 'four']);
  });

  it('a redone turn can be undone again without touching the earlier revision twice', async () => {
    const { logs } = await parse({
      main: [prompt('a', 1), undo(1, 2), prompt('b', 3), undo(1, 4), prompt('c', 5)],
    });
    const messages = [...wireMessages(logs.logs.get('main')!)];
    expect(messages.map((m) => [m.text, m.superseded?.at ?? null])).toEqual([
      ['a', iso(2)],
      ['b', iso(4)],
      ['c', null],
    ]);
  });
});

describe('wire drift', () => {
  it('reads a torn last line as not yet written and counts a broken middle line', async () => {
    const { parsed, dir } = await parse(
      { main: [prompt('hello', 1), ...step('s1', 2, { text: 'hi there' })] },
      { main: 'not json at all\n{"type":"turn.prompt","input":[{"type":"text","text":"half' },
    );
    expect(parsed.record!.turns.map((t) => t.text)).toEqual(['hello', 'hi there']);
    expect(parsed.badLines).toEqual([{ path: join(dir, 'agents', 'main', 'wire.jsonl'), count: 1 }]);
    expect(parsed.problems).toEqual([]);
  });

  it('keeps steers and cancels, skips injections, and marks the cancelled call interrupted', async () => {
    const { parsed } = await parse({
      main: [
        prompt('fix it', 1),
        {
          type: 'context.append_message',
          message: {
            role: 'user',
            content: [{ type: 'text', text: '<system-reminder>plan mode</system-reminder>' }],
            origin: { kind: 'injection', variant: 'plan_mode' },
          },
          time: at(1),
        },
        ...step('s1', 2, { calls: [{ id: 'Bash_0', name: 'Bash', args: { command: 'make' } }] }).filter(
          (r) => r['type'] !== 'context.append_loop_event' || (r['event'] as WireRecord)['type'] !== 'step.end',
        ),
        { type: 'turn.steer', input: 'also run the tests', origin: { kind: 'user' }, time: at(3) },
        { type: 'turn.cancel', time: at(4) },
        { type: 'some.future_record', payload: 1, time: at(5) },
        prompt('<system-reminder>x</system-reminder>', 6),
      ],
    });
    const r = parsed.record!;
    expect(r.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'fix it'],
      ['assistant', ''],
      ['user', 'also run the tests'],
      ['event', 'interrupted'],
    ]);
    expect(r.turns[1]?.tool_calls).toEqual([{ name: 'Bash', format: 'shell', input: 'make', status: 'interrupted' }]);
  });

  it('reads user turns from append_message in wires written without a prompt lane', async () => {
    const { parsed } = await parse({
      main: [
        { type: 'context.append_message', message: { role: 'user', content: [{ type: 'text', text: 'old style' }] }, time: at(1) },
        {
          type: 'context.append_message',
          message: {
            role: 'assistant',
            content: [{ type: 'text', text: 'old answer' }],
            toolCalls: [{ id: 'c1', name: 'Read', arguments: '{"path":"a.txt"}' }],
          },
          time: at(2),
        },
        {
          type: 'context.append_message',
          message: { role: 'tool', toolCallId: 'c1', content: [{ type: 'text', text: 'contents' }] },
          time: at(3),
        },
      ],
    });
    const r = parsed.record!;
    expect(r.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'old style'],
      ['assistant', 'old answer'],
    ]);
    expect(r.turns[1]?.tool_calls).toEqual([
      { name: 'Read', format: 'json', path: 'a.txt', input: '{"path":"a.txt"}', output: 'contents', status: 'ok' },
    ]);
  });

  it('holds no session when the main wire has nothing in it', async () => {
    const { parsed } = await parse({ main: [{ type: 'metadata', protocol_version: '1.4', created_at: at(0) }] });
    expect(parsed.record).toBeNull();
  });
});

describe('the span of a wire', () => {
  it('runs from the earliest to the latest line, times written as epoch ms and as text alike, in any order', async () => {
    const { logs } = await parse({
      main: [
        prompt('go', 5),
        { type: 'llm.request', model: 'k2', time: at(2) },
        { type: 'llm.request', model: 'k2', time: iso(9) },
        { type: 'llm.request', model: 'k2', time: at(1) },
        { type: 'llm.request', model: 'k2', time: at(12) },
      ],
    });
    expect(logs.logs.get('main')?.span).toEqual({ started_at: iso(1), ended_at: iso(12) });
    const ms = await parse({ main: [prompt('go', 5), { type: 'llm.request', time: at(7) }, { type: 'llm.request', time: at(3) }] });
    expect(ms.logs.logs.get('main')?.span).toEqual({ started_at: iso(3), ended_at: iso(7) });
  });
});
