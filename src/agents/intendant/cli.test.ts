// End to end through the built CLI (run `npm run build` first), INTENDANT_HOME inside a temp home.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli.js';
import { tempDir } from '../../../test/support/temp.js';
import { FixtureSession } from './test-support/fixture.js';

interface ScanRow {
  agent: string;
  session_id: string;
  turns: number;
  tool_calls: number;
  subagents: number;
  repo: string;
  totals: { input_tokens: number };
  totals_with_subagents: { input_tokens: number };
}

async function home(): Promise<{ home: string; env: Record<string, string> }> {
  const root = await tempDir();
  const ihome = join(root, 'state', 'intendant');
  const parent = await FixtureSession.create(ihome, '7a1b2c3d-0000-4000-8000-000000000001', {
    project_root: join(root, 'code', 'app'),
    name: 'Fix auth',
    task: 'Fix auth',
    status: 'completed',
  });
  parent.laneUser(1_784_455_407_600, 1, 'Fix auth', { turn: 1 });
  await parent.laneAssistant(1_784_455_408_000, 1, 2, 'Asking a researcher.');
  parent.relationship(1_784_455_409_000, parent.id, 'child-research');
  await parent.laneAssistant(1_784_455_420_000, 2, 3, 'Fixed.');
  await parent.save();
  const child = await FixtureSession.create(ihome, 'child-research', {
    project_root: join(root, 'code', 'app'),
    task: 'Find the auth code',
    role: 'research',
    status: 'completed',
  });
  await child.laneAssistant(1_784_455_410_000, 1, 1, 'It is in src/auth.ts', { prompt: 40, completion: 4, cached: 0, cache_creation: 0 });
  await child.save();
  const other = await FixtureSession.create(ihome, 'b8d0c4e1-2a9f-4c33-8e0d-6f1a2b3c4d5e', {
    project_root: join(root, 'code', 'web'),
    task: 'Refactor',
  });
  other.laneUser(1_784_455_000_000, 1, 'Refactor');
  await other.save();
  return { home: root, env: { INTENDANT_HOME: ihome } };
}

describe('intendant through the CLI', () => {
  it('scan --json lists each session once, the child inside its parent', async () => {
    const { home: root, env } = await home();
    const r = await runCli(['scan', '--json'], root, env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { sessions: ScanRow[]; roots: { agent: string; path: string; sessions: number }[] };
    const mine = out.sessions.filter((s) => s.agent === 'intendant');
    expect(mine.map((s) => s.session_id)).toEqual(['7a1b2c3d-0000-4000-8000-000000000001', 'b8d0c4e1-2a9f-4c33-8e0d-6f1a2b3c4d5e']);
    expect(mine[0]).toMatchObject({
      repo: '~/code/app',
      turns: 3,
      tool_calls: 1,
      subagents: 1,
      totals: { input_tokens: 200 },
      totals_with_subagents: { input_tokens: 240 },
    });
    expect(out.roots).toContainEqual({ agent: 'intendant', path: env.INTENDANT_HOME, sessions: 2 });
  });

  it('show <id> --json prints the record, subagent nested', async () => {
    const { home: root, env } = await home();
    const r = await runCli(['show', '7a1b2c3d', '--json'], root, env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const record = JSON.parse(r.stdout) as {
      agent: string;
      session_id: string;
      detail: string;
      turns: {
        role: string;
        text: string;
        tool_calls?: { name: string; output?: string; subagent?: { id: string; name: string; turns: unknown[] } }[];
      }[];
    };
    expect(record).toMatchObject({ agent: 'intendant', session_id: '7a1b2c3d-0000-4000-8000-000000000001', detail: 'full' });
    expect(record.turns.map((t) => t.text)).toEqual(['Fix auth', 'Asking a researcher.', 'Fixed.']);
    const call = record.turns[1]?.tool_calls?.[0];
    expect(call).toMatchObject({ name: 'subagent', output: 'It is in src/auth.ts', subagent: { id: 'child-research', name: 'research' } });
    // By path too: the folder or its spine.
    const byPath = await runCli(
      ['show', join(env.INTENDANT_HOME as string, 'logs', 'b8d0c4e1-2a9f-4c33-8e0d-6f1a2b3c4d5e', 'session.jsonl'), '--json'],
      root,
      env,
    );
    expect(byPath.code).toBe(0);
    expect(JSON.parse(byPath.stdout)).toMatchObject({ agent: 'intendant', session_id: 'b8d0c4e1-2a9f-4c33-8e0d-6f1a2b3c4d5e' });
  });
});
