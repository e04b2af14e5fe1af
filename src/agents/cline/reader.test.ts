// The Cline and Roo Code readers on task folders written as the extensions write them: typed text
// without injected context, XML and native tool calls paired with results, tool errors and
// denials, resumed tasks, condensed context, Roo Code subtasks nested, tokens by each agent's rule.
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import type { AgentReader, DiscoveredSession } from '../types.js';
import { DiscoveryCache } from '../../scan/discovery-cache.js';
import { clineReader, rooCodeReader } from './reader.js';
import { apiReq, assistantMessage, clineModel, environment, taskMessage, text, ui, writeTask } from './test-support/tasks.js';

async function only(reader: AgentReader, home: string): Promise<DiscoveredSession> {
  const found = await reader.discover(home);
  expect(found.problems).toEqual([]);
  expect(found.sessions).toHaveLength(1);
  return found.sessions[0] as DiscoveredSession;
}

describe('clineReader', () => {
  it('reads an XML-tool task: typed text only, tool results paired in order, errors and denials, feedback, resumption', async () => {
    const home = join(await tempDir(), '.cline', 'data');
    const t0 = Date.UTC(2026, 9, 1, 9);
    await writeTask(home, '1760000000001', {
      api: [
        taskMessage('rename parse to parseAll', '/work/app'),
        assistantMessage(
          [
            text(
              "<thinking>\nFind the callers first.\n</thinking>\n\nI'll read the file.\n\n<read_file>\n<path>src/a.ts</path>\n</read_file>",
            ),
          ],
          clineModel('claude-sonnet-4-5'),
        ),
        {
          role: 'user',
          content: [text("[read_file for 'src/a.ts'] Result:"), text('export const parse = 1;'), text(environment('/work/app'))],
        },
        assistantMessage([
          text(
            '<replace_in_file>\n<path>src/a.ts</path>\n<diff>\n------- SEARCH\nparse\n=======\nparseAll\n+++++++ REPLACE\n</diff>\n</replace_in_file>',
          ),
        ]),
        {
          role: 'user',
          content: [
            text(
              "[replace_in_file for 'src/a.ts'] Result:\nThe tool execution failed with the following error:\n<error>\nno match\n</error>",
            ),
            text(environment('/work/app')),
          ],
        },
        assistantMessage([
          text('<execute_command>\n<command>npm test</command>\n<requires_approval>false</requires_approval>\n</execute_command>'),
        ]),
        {
          role: 'user',
          content: [
            text(
              "[execute_command for 'npm test'] Result:\nThe user denied this operation and provided the following feedback:\n<feedback>\nrun only the parser tests\n</feedback>",
            ),
            text(environment('/work/app')),
          ],
        },
        assistantMessage([text('Understood, stopping here.')]),
        {
          role: 'user',
          content: [
            text(
              "[TASK RESUMPTION] This task was interrupted 2 hours ago. The current working directory is now '/work/app2'.\n\nNew instructions for task continuation:\n<user_message>\nnow update the docs\n</user_message>",
            ),
            text(environment('/work/app2')),
          ],
        },
        assistantMessage([text('Docs updated.')]),
      ],
      ui: [
        ui(t0, 'say', 'task', 'rename parse to parseAll', -1),
        apiReq(t0 + 1000, -1, { tokensIn: 10, tokensOut: 5, cacheWrites: 100, cacheReads: 0, cost: 0.01 }, clineModel('claude-sonnet-4-5')),
        ui(t0 + 2000, 'say', 'reasoning', 'Find the callers first.', 0),
        ui(t0 + 3000, 'say', 'tool', JSON.stringify({ tool: 'readFile', path: 'src/a.ts' }), 0),
        apiReq(t0 + 4000, 2, { tokensIn: 3, tokensOut: 7, cacheWrites: 10, cacheReads: 100, cost: 0.02 }),
        ui(t0 + 5000, 'say', 'error', 'no match', 2),
        apiReq(t0 + 6000, 4, { tokensIn: 2, tokensOut: 3 }),
        ui(t0 + 6500, 'say', 'user_feedback', 'run only the parser tests', 4),
        apiReq(t0 + 7000, 6, { tokensIn: 1, tokensOut: 1 }),
        ui(t0 + 8000, 'ask', 'resume_task', '', 7),
        apiReq(t0 + 9000, 8, { tokensIn: 4, tokensOut: 2 }),
        ui(t0 + 9500, 'say', 'deleted_api_reqs', JSON.stringify({ tokensIn: 1000, tokensOut: 100, cost: 0.5 }), 9),
      ],
      metadata: {
        files_in_context: [],
        model_usage: [{ ts: t0, model_id: 'claude-sonnet-4-5', model_provider_id: 'anthropic', mode: 'act' }],
      },
    });
    const session = await only(clineReader, home);
    expect(session).toMatchObject({ agent: 'cline', sessionId: '1760000000001' });
    const parsed = await clineReader.parse(session, { detail: 'full' });
    expect(parsed.badLines).toEqual([]);
    const rec = parsed.record;
    expect(rec?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'rename parse to parseAll'],
      ['reasoning', 'Find the callers first.'],
      ['assistant', "I'll read the file."],
      ['assistant', ''],
      ['assistant', ''],
      ['user', 'run only the parser tests'],
      ['assistant', 'Understood, stopping here.'],
      ['user', 'now update the docs'],
      ['assistant', 'Docs updated.'],
    ]);
    const calls = rec?.turns.flatMap((t) => t.tool_calls ?? []);
    expect(calls).toEqual([
      {
        name: 'read_file',
        path: 'src/a.ts',
        format: 'json',
        input: '{"path":"src/a.ts"}',
        output: 'export const parse = 1;',
        status: 'ok',
      },
      {
        name: 'replace_in_file',
        path: 'src/a.ts',
        format: 'diff',
        input: '------- SEARCH\nparse\n=======\nparseAll\n+++++++ REPLACE',
        output: 'The tool execution failed with the following error:\n<error>\nno match\n</error>',
        status: 'error',
      },
      expect.objectContaining({ name: 'execute_command', format: 'shell', input: 'npm test', status: 'interrupted' }),
    ]);
    expect(rec?.totals).toEqual({
      input_tokens: 10 + 3 + 2 + 1 + 4 + 1000,
      output_tokens: 5 + 7 + 3 + 1 + 2 + 100,
      cache_read_tokens: 100,
      cache_creation_tokens: 110,
      reasoning_tokens: 0,
      cost_usd: expect.closeTo(0.53, 6) as unknown as number,
    });
    expect(rec?.models).toEqual(['claude-sonnet-4-5']);
    expect(parsed.cwds).toEqual(['/work/app', '/work/app2']);
    expect(rec?.repo).toBe('/work/app');
    // Without `ts` on the messages, times come from the UI messages said at each conversation index.
    expect(rec?.turns[0]?.at).toBe(new Date(t0 + 1000).toISOString());
    expect(rec?.started_at).toBe(new Date(t0).toISOString());
    expect(rec?.ended_at).toBe(new Date(t0 + 9500).toISOString());

    const extract = await clineReader.messages.extract(session, null);
    expect(extract.records.filter((r) => r.role === 'user').map((r) => r.text)).toEqual([
      'rename parse to parseAll',
      'run only the parser tests',
      'now update the docs',
    ]);
  });

  it('pairs native tool_use blocks with tool_result blocks by id, and with text results in order', async () => {
    const home = join(await tempDir(), '.cline', 'data');
    const ts = Date.UTC(2026, 9, 2);
    await writeTask(home, '1760000000002', {
      api: [
        taskMessage('check the config', '/work/svc', ts),
        assistantMessage(
          [
            { type: 'thinking', thinking: 'Two reads.', signature: 'sig' },
            { type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'b.json' }, call_id: 'toolu_b' },
            { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a.json' }, call_id: 'toolu_a' },
          ],
          { ...clineModel('gpt-5'), ts: ts + 1, metrics: { tokens: { prompt: 10, completion: 2, cached: 0 } } },
        ),
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_a', content: [text('{"a":1}')] },
            { type: 'tool_result', tool_use_id: 'toolu_b', content: 'ENOENT', is_error: true },
          ],
          ts: ts + 2,
        },
        assistantMessage([{ type: 'tool_use', id: 'toolu_c', name: 'use_subagents', input: { prompt_1: 'scan' } }], { ts: ts + 3 }),
        { role: 'user', content: [text('[subagents] Result:\nSubagent results:\nTotal: 1'), text(environment('/work/svc'))], ts: ts + 4 },
      ],
      ui: [ui(ts, 'say', 'task', 'check the config', -1), apiReq(ts + 1, -1, { tokensIn: 10, tokensOut: 2 })],
    });
    const parsed = await clineReader.parse(await only(clineReader, home), { detail: 'full' });
    const rec = parsed.record;
    expect(rec?.turns.map((t) => t.role)).toEqual(['user', 'reasoning', 'assistant', 'assistant']);
    expect(rec?.turns[0]?.at).toBe(new Date(ts).toISOString());
    expect(rec?.turns.flatMap((t) => t.tool_calls ?? []).map((c) => [c.name, c.path, c.output, c.status])).toEqual([
      ['read_file', 'b.json', 'ENOENT', 'error'],
      ['read_file', 'a.json', '{"a":1}', 'ok'],
      ['use_subagents', undefined, 'Subagent results:\nTotal: 1', 'ok'],
    ]);
    expect(rec?.models).toEqual(['gpt-5']);
  });

  it('finds no home as nothing, reports a torn document as one bad record, and leaves Roo Code tasks to Roo Code', async () => {
    const user = await tempDir();
    expect(await clineReader.discover(join(user, 'missing'))).toEqual({ sessions: [], problems: [] });
    const home = join(user, '.cline', 'data');
    const dir = await writeTask(home, '1760000000003', { api: [], ui: [] });
    await writeFile(join(dir, 'api_conversation_history.json'), '[{"role":"user","content":[{"type":"te');
    const session = await only(clineReader, home);
    const parsed = await clineReader.parse(session, { detail: 'full' });
    expect(parsed.badLines).toEqual([{ path: join(dir, 'api_conversation_history.json'), count: 1 }]);
    expect(await clineReader.claim(dir)).toMatchObject({ agent: 'cline', sessionId: '1760000000003' });
    expect(await clineReader.claim(join(dir, 'ui_messages.json'))).toMatchObject({ sessionId: '1760000000003' });
    expect(await rooCodeReader.claim(dir)).toBeNull();
    const plain = join(user, 'notes');
    await mkdir(plain);
    expect(await clineReader.claim(plain)).toBeNull();
  });

  it('leaves a request dated past a Date’s range undated and reads the rest of the task (it failed whole: "Invalid time value")', async () => {
    const home = join(await tempDir(), '.cline', 'data');
    const t0 = Date.UTC(2026, 9, 1, 9);
    await writeTask(home, '1760000000002', {
      api: [
        taskMessage('say hello', '/work/app'),
        assistantMessage([text('Hello.')], clineModel('claude-sonnet-4-5')),
        { role: 'user', content: [text('<feedback>\nagain\n</feedback>')] },
        assistantMessage([text('Hello again.')], clineModel('claude-sonnet-4-5')),
      ],
      ui: [
        ui(t0, 'say', 'task', 'say hello', -1),
        apiReq(1e20, -1, { tokensIn: 10, tokensOut: 5 }),
        ui(t0 + 1000, 'say', 'text', 'Hello.', 0),
        apiReq(t0 + 2000, 2, { tokensIn: 20, tokensOut: 6 }),
        ui(t0 + 3000, 'say', 'text', 'Hello again.', 2),
      ],
    });
    const parsed = await clineReader.parse(await only(clineReader, home), { detail: 'full' });
    const rec = parsed.record;
    expect(rec?.turns.filter((t) => t.role === 'assistant').map((t) => [t.text, t.at])).toEqual([
      ['Hello.', new Date(t0 + 1000).toISOString()],
      ['Hello again.', new Date(t0 + 3000).toISOString()],
    ]);
    expect(rec?.turns[2]).toMatchObject({ role: 'user', at: null });
    expect([rec?.started_at, rec?.ended_at]).toEqual([new Date(t0).toISOString(), new Date(t0 + 3000).toISOString()]);
    expect(rec?.totals).toMatchObject({ input_tokens: 30, output_tokens: 11 });
  });
});

describe('rooCodeReader', () => {
  const rooHome = async (): Promise<string> =>
    join(await tempDir(), '.config', 'Code', 'User', 'globalStorage', 'rooveterinaryinc.roo-cline');

  it('nests a subtask under the new_task call that launched it, and lists it once', async () => {
    const home = await rooHome();
    const ts = Date.UTC(2026, 9, 3);
    const parent = '0199a000-0000-7000-8000-0000000000a1';
    const child = '0199a000-0000-7000-8000-0000000000b2';
    await writeTask(home, parent, {
      api: [
        taskMessage('write the release notes', '/work/rel', ts, 'user_message'),
        assistantMessage([{ type: 'tool_use', id: 'call_1', name: 'new_task', input: { mode: 'ask', message: 'collect the changes' } }], {
          ts: ts + 1,
        }),
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'call_1', content: `Subtask ${child} completed.\n\nResult:\nthree changes` }],
          ts: ts + 50,
        },
        assistantMessage([text('Notes written.')], { ts: ts + 51 }),
      ],
      ui: [
        ui(ts, 'say', 'text', 'write the release notes'),
        ui(
          ts + 1,
          'say',
          'api_req_started',
          JSON.stringify({ apiProtocol: 'anthropic', tokensIn: 1200, tokensOut: 30, cacheWrites: 200, cacheReads: 900, cost: 0.02 }),
        ),
        ui(ts + 50, 'say', 'subtask_result', 'three changes'),
        ui(
          ts + 51,
          'say',
          'api_req_started',
          JSON.stringify({ apiProtocol: 'anthropic', tokensIn: 5, tokensOut: 10, cacheWrites: 0, cacheReads: 1000 }),
        ),
      ],
      historyItem: {
        id: parent,
        number: 1,
        ts,
        task: 'write the release notes',
        tokensIn: 0,
        tokensOut: 0,
        totalCost: 0,
        workspace: '/work/rel',
        childIds: [child],
        status: 'completed',
      },
    });
    await writeTask(home, child, {
      api: [
        taskMessage('collect the changes', '/work/rel', ts + 2, 'user_message'),
        assistantMessage([text('three changes')], { ts: ts + 3 }),
      ],
      ui: [
        ui(ts + 2, 'say', 'text', 'collect the changes'),
        ui(ts + 3, 'say', 'api_req_started', JSON.stringify({ tokensIn: 300, tokensOut: 20, cacheReads: 100, cacheWrites: 0 })),
      ],
      historyItem: {
        id: child,
        parentTaskId: parent,
        rootTaskId: parent,
        number: 2,
        ts: ts + 2,
        task: 'collect the changes',
        tokensIn: 0,
        tokensOut: 0,
        totalCost: 0,
        mode: 'ask',
        status: 'completed',
        workspace: '/work/rel',
      },
    });
    const session = await only(rooCodeReader, home);
    expect(session).toMatchObject({ agent: 'roo_code', sessionId: parent, cwd: '/work/rel' });
    expect(session.files.map((f) => f.path.split('/').slice(-2).join('/'))).toEqual([
      `${parent}/api_conversation_history.json`,
      `${parent}/ui_messages.json`,
      `${parent}/history_item.json`,
      `${child}/api_conversation_history.json`,
      `${child}/ui_messages.json`,
      `${child}/history_item.json`,
    ]);
    const rec = (await rooCodeReader.parse(session, { detail: 'full' })).record;
    const launch = rec?.turns[1]?.tool_calls?.[0];
    expect(launch?.name).toBe('new_task');
    expect(launch?.subagent).toMatchObject({ id: child, name: 'ask', description: 'collect the changes', status: 'completed' });
    expect(launch?.subagent?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'collect the changes'],
      ['assistant', 'three changes'],
    ]);
    // Roo Code 3.29.5+ states the whole prompt in tokensIn; an older Anthropic figure smaller than its cache is already uncached.
    expect(rec?.totals).toMatchObject({
      input_tokens: 1200 - 900 - 200 + 5,
      output_tokens: 40,
      cache_read_tokens: 1900,
      cache_creation_tokens: 200,
    });
    expect(launch?.subagent?.totals).toMatchObject({ input_tokens: 200, cache_read_tokens: 100 });
    const tree = await rooCodeReader.tree(session);
    expect(tree.map((e) => e.relPath)).toContain(`tasks/${child}/api_conversation_history.json`);
    const extract = await rooCodeReader.messages.extract(session, null);
    expect(extract.records.map((r) => [r.role, r.text, r.subagent ?? false])).toEqual([
      ['user', 'write the release notes', false],
      ['user', 'collect the changes', true],
      ['assistant', 'three changes', true],
      ['assistant', 'Notes written.', false],
    ]);
  });

  it('reads a condensed context as an event, reasoning items, and JSON tool statuses with feedback', async () => {
    const home = await rooHome();
    const ts = Date.UTC(2026, 9, 4);
    await writeTask(home, '0199a000-0000-7000-8000-0000000000c3', {
      api: [
        { ...taskMessage('tidy the imports', '/work/x', ts, 'user_message'), condenseParent: 'cond-1' },
        {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: 'Look at each file.' }],
          encrypted_content: 'gAAA',
          ts: ts + 1,
          condenseParent: 'cond-1',
        },
        assistantMessage([{ type: 'tool_use', id: 'w1', name: 'write_to_file', input: { path: 'a.ts', content: 'x\ny' } }], {
          ts: ts + 2,
          condenseParent: 'cond-1',
        }),
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'w1', content: JSON.stringify({ status: 'denied', feedback: 'keep a.ts as is' }) }],
          ts: ts + 3,
          condenseParent: 'cond-1',
        },
        {
          role: 'user',
          content: [text('## Conversation Summary\nImports were reviewed.'), text(environment('/work/x', true))],
          ts: ts + 4,
          isSummary: true,
          condenseId: 'cond-1',
        },
        assistantMessage([text('Done.')], { ts: ts + 5 }),
      ],
      ui: [
        ui(ts, 'say', 'text', 'tidy the imports'),
        ui(ts + 4, 'say', 'condense_context', '', undefined, {
          contextCondense: { cost: 0.05, prevContextTokens: 9000, newContextTokens: 800, summary: '…' },
        }),
      ],
      historyItem: {
        id: '0199a000-0000-7000-8000-0000000000c3',
        number: 3,
        ts,
        task: 'tidy the imports',
        tokensIn: 0,
        tokensOut: 0,
        totalCost: 0,
      },
    });
    const rec = (await rooCodeReader.parse(await only(rooCodeReader, home), { detail: 'full' })).record;
    expect(rec?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'tidy the imports'],
      ['reasoning', 'Look at each file.'],
      ['assistant', ''],
      ['user', 'keep a.ts as is'],
      ['event', '## Conversation Summary\nImports were reviewed.'],
      ['assistant', 'Done.'],
    ]);
    expect(rec?.turns[2]?.tool_calls?.[0]).toMatchObject({ name: 'write_to_file', format: 'diff', input: '+x\n+y', status: 'interrupted' });
    expect(rec?.totals.cost_usd).toBeCloseTo(0.05);
  });
});

describe('roo code discovery through a discovery cache', () => {
  it('answers as from the disk, cold and warm, and reads a rewritten history entry again', async () => {
    const home = join(await tempDir(), '.config', 'Code', 'User', 'globalStorage', 'rooveterinaryinc.roo-cline');
    const parent = '0199a000-0000-7000-8000-0000000000c1';
    const child = '0199a000-0000-7000-8000-0000000000c2';
    const task = (id: string, parentTaskId?: string) =>
      writeTask(home, id, {
        api: [taskMessage('do it', '/work/app')],
        ui: [],
        historyItem: { id, workspace: '/work/app', ...(parentTaskId === undefined ? {} : { parentTaskId }) },
      });
    await task(parent);
    await task(child, parent);
    const old = Math.floor(Date.now() / 1000) - 3600;
    const item = join(home, 'tasks', child, 'history_item.json');
    for (const p of [join(home, 'tasks'), item, join(home, 'tasks', parent, 'history_item.json')]) await utimes(p, old, old);
    const cache = await DiscoveryCache.open(join(await tempDir(), 'cache.json'), 't', () => Date.now() + 60_000);
    const plain = await rooCodeReader.discover(home);
    expect(plain.sessions.map((s) => s.sessionId)).toEqual([parent]);
    expect(await rooCodeReader.discover(home, cache)).toEqual(plain);
    await cache.save();
    expect(await rooCodeReader.discover(home, cache)).toEqual(plain);
    expect(cache.stats).toMatchObject({ dirHits: 1, factHits: 2 });
    await cache.save();

    // The child no longer names a parent, its times put back (a coarse clock): listed on its own.
    await writeFile(item, JSON.stringify({ id: child, workspace: '/work/app' }, null, 2));
    await utimes(item, old, old);
    const after = await rooCodeReader.discover(home, cache);
    expect(after).toEqual(await rooCodeReader.discover(home));
    expect(after.sessions.map((s) => s.sessionId).sort()).toEqual([parent, child]);
  });
});
