// End to end: the built CLI finds aider's history in a project another agent's session ran in,
// from the very scan that saw that project (a cold scan lists what the next one lists), and shows a
// run as the record.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli.js';
import { tempDir } from '../../../test/support/temp.js';
import { assistantMessage, taskMessage, text, writeTask } from '../cline/test-support/tasks.js';
import { ai, banner, header, tool, user } from './test-support/history.js';

interface ScanJson {
  sessions: { agent: string; session_id: string; repo: string; turns: number }[];
  unreadable: unknown[];
}

/**
 * A home with one aider run in `code/app`, a repository nothing names but a Cline task that ran in
 * a subfolder of it (aider keeps its file at the git root).
 */
async function homeWithAiderInAnotherAgentsProject(): Promise<string> {
  const home = await tempDir();
  const repo = join(home, 'code', 'app');
  await mkdir(join(repo, 'src'), { recursive: true });
  await writeFile(
    join(repo, '.aider.chat.history.md'),
    `${header('2026-10-05 10:00:00')}${banner('gpt-5')}${user('add a test for parse')}${ai('Added tests/test_parse.py.')}${tool('Tokens: 2.4k sent, 310 received.')}`,
  );
  await writeTask(join(home, '.cline', 'data'), '1760000000009', {
    api: [taskMessage('fix the parser', join(repo, 'src')), assistantMessage([text('Fixed.')])],
    ui: [],
  });
  return home;
}

describe('agentlog scan/show over aider runs in known projects', () => {
  it('looks in the projects the sessions it reads ran in, and shows a run', async () => {
    const home = await homeWithAiderInAnotherAgentsProject();

    const first = JSON.parse((await runCli(['scan', '--json'], home)).stdout) as ScanJson;
    expect(first.sessions.map((s) => s.agent).sort()).toEqual(['aider', 'cline']);
    const second = await runCli(['scan', '--json'], home);
    expect(second.code, second.stderr).toBe(0);
    const listed = JSON.parse(second.stdout) as ScanJson;
    expect(listed).toEqual(first);
    expect(listed.unreadable).toEqual([]);
    const run = listed.sessions.find((s) => s.agent === 'aider');
    expect(run).toMatchObject({ session_id: expect.stringMatching(/^20261005T100000-/), repo: '~/code/app', turns: 2 });

    const show = await runCli(['show', run?.session_id ?? '', '--agent', 'aider', '--json'], home);
    expect(show.code, show.stderr).toBe(0);
    const record = JSON.parse(show.stdout) as {
      models: string[];
      turns: { role: string; text: string }[];
      totals: { input_tokens: number };
    };
    expect(record.models).toEqual(['gpt-5']);
    expect(record.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'add a test for parse'],
      ['assistant', 'Added tests/test_parse.py.'],
    ]);
    expect(record.totals.input_tokens).toBe(2400);
  });

  it('usage counts the runs from its first, cold run, as the next run does', async () => {
    const home = await homeWithAiderInAnotherAgentsProject();

    const cold = await runCli(['usage', 'session', '--json'], home);
    expect(cold.code, cold.stderr).toBe(0);
    const warm = await runCli(['usage', 'session', '--json'], home);
    expect(JSON.parse(cold.stdout)).toEqual(JSON.parse(warm.stdout));
    expect((JSON.parse(cold.stdout) as { totals: { inputTokens: number } }).totals.inputTokens).toBe(2400);
  });
});
