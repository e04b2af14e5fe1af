// End to end: the built CLI lists and shows OpenCode sessions from a database and a JSON tree
// that hold the same session, with a subagent nested.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli.js';
import { copyCorpus, hasCorpus, tempDir } from '../../../test/support/temp.js';
import { assistantMessage, userMessage, writeDatabase, writeJsonTree, type FixtureSession } from './test-support/fixtures.js';

interface ScanJson {
  sessions: { agent: string; session_id: string; subagents: number; file: string }[];
  unreadable: unknown[];
}

function fixture(): FixtureSession[] {
  const t0 = 1_760_000_000_000;
  return [
    {
      id: 'ses_main',
      directory: '/work/app',
      title: 'Main',
      created: t0,
      updated: t0 + 9000,
      messages: [
        userMessage('msg_1', t0 + 1000, 'Look around'),
        assistantMessage('msg_2', t0 + 2000, [
          {
            id: 'prt_2_1',
            data: {
              type: 'tool',
              tool: 'task',
              callID: 'c',
              state: {
                status: 'completed',
                input: { description: 'Look', prompt: 'Look', subagent_type: 'general' },
                output: 'ok',
                metadata: { sessionId: 'ses_sub' },
              },
            },
          },
        ]),
      ],
    },
    {
      id: 'ses_sub',
      parentId: 'ses_main',
      directory: '/work/app',
      title: 'Look (@general subagent)',
      created: t0 + 3000,
      updated: t0 + 4000,
      messages: [
        userMessage('msg_10', t0 + 3000, 'Look'),
        assistantMessage('msg_11', t0 + 3500, [{ id: 'prt_11_1', data: { type: 'text', text: 'Seen.' } }]),
      ],
    },
  ];
}

describe.skipIf(!hasCorpus)('agentlog scan/show over OpenCode', () => {
  it('lists each session once across the database and the JSON tree, and shows one', async () => {
    const home = await tempDir();
    const dataHome = join(home, 'data');
    const opencode = join(dataHome, 'opencode');
    await mkdir(opencode, { recursive: true });
    writeDatabase(join(opencode, 'opencode.db'), fixture());
    await writeJsonTree(join(opencode, 'storage'), fixture());
    await copyCorpus(
      'opencode/storage_v2/session/proj_test/ses_s_stage0_small.json',
      join(opencode, 'storage', 'session', 'proj_test', 'ses_s_stage0_small.json'),
    );
    await copyCorpus('opencode/storage_v2/message/s_stage0_small', join(opencode, 'storage', 'message', 's_stage0_small'));
    await copyCorpus('opencode/storage_v2/part/m_user_small', join(opencode, 'storage', 'part', 'm_user_small'));
    await copyCorpus('opencode/storage_v2/part/m_assistant_small', join(opencode, 'storage', 'part', 'm_assistant_small'));
    const env = { XDG_DATA_HOME: dataHome };

    const scan = await runCli(['scan', '--agent', 'opencode', '--json'], home, env);
    expect(scan.code).toBe(0);
    const listed = JSON.parse(scan.stdout) as ScanJson;
    expect(listed.sessions.map((s) => [s.agent, s.session_id, s.subagents])).toEqual([
      ['opencode', 'ses_main', 1],
      ['opencode', 's_stage0_small', 0],
    ]);
    expect(listed.sessions[0]?.file).toBe(`${join(opencode, 'opencode.db')}#ses_main`);
    expect(listed.unreadable).toEqual([]);

    const show = await runCli(['show', 'ses_main', '--json'], home, env);
    expect(show.code).toBe(0);
    const record = JSON.parse(show.stdout) as {
      agent: string;
      session_id: string;
      turns: { tool_calls?: { subagent?: { id: string } }[] }[];
    };
    expect(record).toMatchObject({ agent: 'opencode', session_id: 'ses_main', repo: '/work/app' });
    expect(record.turns[1]?.tool_calls?.[0]?.subagent?.id).toBe('ses_sub');

    const byPath = await runCli(
      ['show', join(opencode, 'storage', 'session', 'proj_test', 'ses_s_stage0_small.json'), '--json'],
      home,
      env,
    );
    expect(byPath.code).toBe(0);
    expect(JSON.parse(byPath.stdout)).toMatchObject({ agent: 'opencode', session_id: 's_stage0_small' });
  });
});
