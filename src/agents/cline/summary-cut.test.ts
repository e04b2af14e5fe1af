// Cutting long tool outputs below full detail: what the cut keeps, and a task read cut reading
// exactly as the same task read whole (the full-detail read never cuts) at summary and messages.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { finaliseRecord } from '../../record/finalise.js';
import type { Detail } from '../../record/types.js';
import type { AgentReader } from '../types.js';
import { readConversation } from './conversation.js';
import { clineReader, rooCodeReader } from './reader.js';
import { cutMark, cutToolOutputs } from './summary-cut.js';
import { apiReq, assistantMessage, clineModel, environment, taskMessage, text, ui, writeTask } from './test-support/tasks.js';

const long = (seed: string, n = 400): string => Array.from({ length: n }, (_, i) => `${seed} line ${i} "quoted" \\ é 日本`).join('\n');

describe('cutToolOutputs', () => {
  it('cuts long text results and tool_result contents to a marked head, and keeps the rest as written', () => {
    const doc = [
      { role: 'user', content: [text(`[read_file for 'a.ts'] Result:\n${long('a')}`), text(environment('/w'))] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: long('b') }] },
      { role: 'user', content: [text("[read_file for 'short.ts'] Result:\nshort"), text(`[TASK RESUMPTION] ${long('c')}`)] },
      { role: 'assistant', content: [text(`said "\\"content\\":\\"" ${long('d')}`)] },
    ];
    const cut = cutToolOutputs(Buffer.from(JSON.stringify(doc)));
    expect(cut).toBeDefined();
    const parsed = JSON.parse(cut as string) as typeof doc;
    const first = parsed[0]?.content[0] as { text: string };
    const whole = `[read_file for 'a.ts'] Result:\n${long('a')}`;
    expect(first.text.endsWith(cutMark)).toBe(true);
    expect(whole.startsWith(first.text.slice(0, -1))).toBe(true);
    expect(first.text.length).toBeGreaterThan(600);
    const result = parsed[1]?.content[0] as { content: string };
    expect(result.content.endsWith(cutMark)).toBe(true);
    expect(long('b').startsWith(result.content.slice(0, -1))).toBe(true);
    // A short result, a text that is no result, an assistant's text and the environment stay whole.
    expect(parsed[2]).toEqual(doc[2]);
    expect(parsed[3]).toEqual(doc[3]);
    expect(parsed[0]?.content[1]).toEqual(doc[0]?.content[1]);
  });

  it('cuts nothing in a document of short outputs, or one whose strings do not close', () => {
    const doc = JSON.stringify([{ role: 'user', content: [text("[read_file for 'a.ts'] Result:\nok")] }]);
    expect(cutToolOutputs(Buffer.from(doc))).toBeUndefined();
    const torn = JSON.stringify([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: long('x') }] }]);
    expect(cutToolOutputs(Buffer.from(torn.slice(0, 3000)))).toBeUndefined();
  });
});

/** The record of a task read at `detail` (cut below full), and the same read whole (full detail) brought to `detail`. */
async function bothWays(reader: AgentReader, home: string, detail: Exclude<Detail, 'full'>): Promise<[unknown, unknown]> {
  const session = (await reader.discover(home)).sessions[0];
  if (session === undefined) throw new Error('no session');
  const opts = { detail, elide: (t: string) => t };
  const cut = await reader.parse(session, { detail });
  const whole = await reader.parse(session, { detail: 'full' });
  if (cut.record === null || whole.record === null) throw new Error('no record');
  const strip = (p: typeof cut) => ({ cwds: p.cwds, badLines: p.badLines, problems: p.problems });
  return [
    { record: finaliseRecord(cut.record, opts), ...strip(cut) },
    { record: finaliseRecord(whole.record, opts), ...strip(whole) },
  ];
}

/** Whether the conversation, read from the task's cut document, asks for the whole document. */
async function cutNeedsWhole(home: string, id: string): Promise<boolean> {
  const cut = cutToolOutputs(await readFile(join(home, 'tasks', id, 'api_conversation_history.json')));
  if (cut === undefined) throw new Error('nothing was cut');
  return readConversation({ messages: JSON.parse(cut) as unknown[], ui: null, full: false, cut: true }).needWhole;
}

const t0 = Date.UTC(2026, 9, 1, 9);
const readFileCall = (path: string) => text(`<read_file>\n<path>${path}</path>\n</read_file>`);
const call = (id: string, name: string, input: Record<string, unknown>) => ({ type: 'tool_use', id, name, input });
const result = (id: string, content: string) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] });

/** A Cline task whose second exchange is `exchange` (an assistant message and the user's answer). */
async function clineTask(exchange: unknown[]): Promise<string> {
  const home = join(await tempDir(), '.cline', 'data');
  await writeTask(home, '1760000000001', {
    api: [
      taskMessage('tidy the parser', '/work/app', t0),
      assistantMessage([readFileCall('a.ts'), readFileCall('b.ts')], clineModel('claude-sonnet-4-5')),
      {
        role: 'user',
        content: [text(`[read_file for 'a.ts'] Result:\n${long('a')}`), text(`[read_file for 'b.ts'] Result:\n${long('b')}`)],
      },
      ...exchange,
      assistantMessage([call('t1', 'read_file', { path: 'd.ts' })]),
      result('t1', long('f')),
    ],
    ui: [ui(t0, 'say', 'task', 'tidy the parser'), apiReq(t0 + 1000, 0, { tokensIn: 10, tokensOut: 5 })],
  });
  return home;
}

async function expectSameBothWays(reader: AgentReader, home: string): Promise<void> {
  for (const detail of ['summary', 'messages'] as const) {
    const [cut, whole] = await bothWays(reader, home, detail);
    expect(cut).toEqual(whole);
  }
}

describe('a task read with its outputs cut', () => {
  it('reads as the whole task from the heads of long text results and tool_result contents', async () => {
    const home = await clineTask([
      assistantMessage([text('<execute_command>\n<command>npm test</command>\n</execute_command>')]),
      { role: 'user', content: [text(`[execute_command for 'npm test'] Result:\n${long('e')}`), text(environment('/work/app'))] },
    ]);
    expect(await cutNeedsWhole(home, '1760000000001')).toBe(false);
    await expectSameBothWays(clineReader, home);
  });

  it.each([
    [
      'the person quoted near a long output start',
      `The user denied this operation and provided the following feedback:\n<feedback>\nnot that\n</feedback>\n${long('e')}`,
    ],
    ['an output whose head is blank', `${' '.repeat(3000)}${long('e')}`],
  ])('reads the whole document for %s', async (_, output) => {
    const home = await clineTask([
      assistantMessage([text('<execute_command>\n<command>npm test</command>\n</execute_command>')]),
      { role: 'user', content: [text(`[execute_command for 'npm test'] Result:\n${output}`), text(environment('/work/app'))] },
    ]);
    expect(await cutNeedsWhole(home, '1760000000001')).toBe(true);
    await expectSameBothWays(clineReader, home);
  });

  it('reads the whole document for an assistant text that looks like a long result', async () => {
    const home = await clineTask([
      assistantMessage([text(`[note] Result: ${long('d')}\n\n<execute_command>\n<command>npm test</command>\n</execute_command>`)]),
      { role: 'user', content: [text("[execute_command for 'npm test'] Result:\nok"), text(environment('/work/app'))] },
    ]);
    expect(await cutNeedsWhole(home, '1760000000001')).toBe(true);
    await expectSameBothWays(clineReader, home);
  });

  it.each([
    ['a long subtask result naming its child', 'n1', 'new_task', `${long('g', 30)}\nSubtask child completed.\n${long('h')}`],
    [
      'a long JSON status with feedback',
      'w1',
      'write_to_file',
      `{"status":"denied","feedback":"use b.ts instead","padding":"${long('j').replace(/["\\\n]/g, ' ')}"}`,
    ],
  ])('reads the whole Roo Code document for %s', async (_, id, name, output) => {
    const home = join(await tempDir(), '.config', 'Code', 'User', 'globalStorage', 'rooveterinaryinc.roo-cline');
    await writeTask(home, 'parent', {
      api: [
        taskMessage('split the work', '/work/roo', t0, 'user_message'),
        assistantMessage([call('r1', 'read_file', { path: 'a.ts' })]),
        result('r1', long('a')),
        assistantMessage([call(id, name, { mode: 'code', message: 'do the child', path: 'a.ts', content: long('i') })]),
        result(id, output),
      ],
      ui: [ui(t0, 'say', 'text', 'split the work')],
      historyItem: { id: 'parent', workspace: '/work/roo', mode: 'orchestrator' },
    });
    await writeTask(home, 'child', {
      api: [taskMessage('do the child', '/work/roo', t0 + 5000, 'user_message'), assistantMessage([text('done')])],
      ui: [ui(t0 + 5000, 'say', 'text', 'do the child')],
      historyItem: { id: 'child', parentTaskId: 'parent', workspace: '/work/roo', mode: 'code', task: 'do the child' },
    });
    expect(await cutNeedsWhole(home, 'parent')).toBe(true);
    await expectSameBothWays(rooCodeReader, home);
  });
});
