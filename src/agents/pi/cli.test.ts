// End to end through the built CLI (`npm run build` first): scan lists the session once, show prints its record.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli.js';
import { copyCorpus, hasCorpus, tempDir } from '../../../test/support/temp.js';

const sessionId = 'd703a1a9-1b7b-4fb1-b512-c9738b1fe617';

async function layout(): Promise<{ home: string; env: Record<string, string>; path: string }> {
  const home = await tempDir();
  const piHome = join(home, 'pi-home');
  const path = join(piHome, 'sessions', '--Users-badlogic-workspaces-pi-mono--', `2025-11-20T23-33-50-805Z_${sessionId}.jsonl`);
  await copyCorpus('pi/loose/large-session.jsonl', path);
  return { home, env: { PI_CODING_AGENT_DIR: piHome }, path };
}

describe.skipIf(!hasCorpus)('agentlog with a Pi home', () => {
  it('scan --json lists the session once', async () => {
    const { home, env, path } = await layout();
    const r = await runCli(['scan', '--json'], home, env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      sessions: { agent: string; session_id: string; file: string; turns: number; tool_calls: number; repo: string }[];
    };
    const pi = out.sessions.filter((s) => s.agent === 'pi');
    expect(pi).toHaveLength(1);
    expect(pi[0]).toMatchObject({
      session_id: sessionId,
      file: path,
      turns: 550,
      tool_calls: 391,
      repo: '/Users/badlogic/workspaces/pi-mono',
    });
  });

  it('show <id> --json prints the record, and the file path finds the same one', async () => {
    const { home, env, path } = await layout();
    const byId = await runCli(['show', sessionId.slice(0, 8), '--json'], home, env);
    expect(byId.code).toBe(0);
    const record = JSON.parse(byId.stdout) as { agent: string; session_id: string; models: string[]; totals: { cost_usd: number } };
    expect(record).toMatchObject({ agent: 'pi', session_id: sessionId, models: ['claude-sonnet-4-5'] });
    expect(record.totals.cost_usd).toBeCloseTo(30.330198, 6);
    const byPath = await runCli(['show', path, '--json'], home, env);
    expect(byPath.stdout).toBe(byId.stdout);
  });
});
