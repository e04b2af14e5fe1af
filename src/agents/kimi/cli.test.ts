// End to end through the built CLI (`npm run build` first): scan lists the session once, show prints its record.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli.js';
import { copyCorpus, hasCorpus, tempDir } from '../../../test/support/temp.js';

const sessionId = 'session_1bcbe023-4f7e-4971-9dc9-43b8756045b0';

async function layout(): Promise<{ home: string; env: Record<string, string>; dir: string }> {
  const home = await tempDir();
  const kimiHome = join(home, 'kimi-home');
  const dir = join(kimiHome, 'sessions', 'wd_project_ac3bb318f98e', sessionId);
  await copyCorpus('kimi/loose/assistant_tools.state.json', join(dir, 'state.json'));
  await copyCorpus('kimi/loose/assistant_tools.wire.jsonl', join(dir, 'agents', 'main', 'wire.jsonl'));
  await copyCorpus('kimi/loose/subagent_agent-0.wire.jsonl', join(dir, 'agents', 'agent-0', 'wire.jsonl'));
  return { home, env: { KIMI_CODE_HOME: kimiHome }, dir };
}

describe.skipIf(!hasCorpus)('agentlog with a Kimi Code home', () => {
  it('scan --json lists the session once', async () => {
    const { home, env, dir } = await layout();
    const r = await runCli(['scan', '--json'], home, env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      sessions: {
        agent: string;
        session_id: string;
        file: string;
        turns: number;
        tool_calls: number;
        subagents: number;
        repo: string;
        models: string[];
      }[];
      unreadable: unknown[];
    };
    const kimi = out.sessions.filter((s) => s.agent === 'kimi');
    expect(kimi).toHaveLength(1);
    expect(kimi[0]).toMatchObject({
      session_id: sessionId,
      file: dir,
      tool_calls: 19,
      subagents: 1,
      repo: '/private/tmp/as-agent-lab/kimi/project',
      models: ['kimi-k2.7-code'],
    });
    expect(out.unreadable).toEqual([]);
  });

  it('show <id> --json prints the record, and a folder path finds the same one', async () => {
    const { home, env, dir } = await layout();
    const byId = await runCli(['show', sessionId, '--json'], home, env);
    expect(byId.code).toBe(0);
    const record = JSON.parse(byId.stdout) as {
      agent: string;
      session_id: string;
      turns: { tool_calls?: { name: string; subagent?: { id: string } }[] }[];
    };
    expect(record).toMatchObject({ agent: 'kimi', session_id: sessionId, schema_version: 3 });
    expect(record.turns.flatMap((t) => t.tool_calls ?? []).find((c) => c.name === 'Agent')?.subagent?.id).toBe('agent-0');
    const byPath = await runCli(['show', dir, '--json'], home, env);
    expect(byPath.stdout).toBe(byId.stdout);
  });
});
