// One temporary home holding all seven agents' sessions: `scan --json` lists each exactly once and
// `show` reads every one of them.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionLog } from '../../src/sessionlog/index.js';
import { runCli } from '../support/cli.js';
import { corpusAgentHome } from '../support/corpus-home.js';
import { tempDir } from '../support/temp.js';
import { hasCorpus } from '../../test/support/corpus.js';
import { homeFixtures } from '../conformance/homes.js';

interface Row {
  agent: string;
  session_id: string;
  turns: number;
}

async function sevenAgentHome(home: string): Promise<Record<string, string>> {
  const agentEnv = await corpusAgentHome(home);

  // Intendant: a session written by our own session-log library.
  const intendant = join(home, '.intendant');
  await mkdir(intendant, { recursive: true });
  const log = await SessionLog.open({ stateRoot: intendant, projectRoot: '/work/app', task: 'rename the parser' });
  log.userMessage({ provenance: 'task', text: 'rename the parser' });
  log.turnStart(1);
  log.modelResponseWithMessage({ content: 'Renamed it in src/parser.ts.' });
  log.writeSummary({ outcome: 'completed' });
  await log.close();
  await writeFile(join(home, 'README'), 'seven agents\n');
  // Agents without corpus logs: homes written in their real shape by the conformance fixtures.
  await homeFixtures.cline.write(join(home, '.cline', 'data'));
  await homeFixtures.roo_code.write(join(home, '.config', 'Code', 'User', 'globalStorage', 'rooveterinaryinc.roo-cline'));
  await homeFixtures.aider.write(home);

  return { ...agentEnv, INTENDANT_HOME: intendant };
}

describe.skipIf(!hasCorpus)('a home with all seven agents', () => {
  it('lists every session exactly once and shows each', async () => {
    const home = await tempDir();
    const env = await sevenAgentHome(home);
    const scan = await runCli(['scan', '--json'], home, env);
    expect(scan.code, scan.stderr).toBe(0);
    const report = JSON.parse(scan.stdout) as { sessions: Row[]; unreadable: unknown[] };
    const keys = report.sessions.map((s) => `${s.agent}:${s.session_id}`);
    expect(new Set(keys).size).toBe(keys.length);
    const agents = new Set(report.sessions.map((s) => s.agent));
    expect([...agents].sort()).toEqual([
      'aider',
      'claude_code',
      'cline',
      'codex',
      'gemini',
      'intendant',
      'kimi',
      'opencode',
      'pi',
      'roo_code',
    ]);
    expect(report.unreadable).toEqual([]);

    for (const agent of agents) {
      const row = report.sessions.find((s) => s.agent === agent) as Row;
      const show = await runCli(['show', row.session_id, '--agent', agent, '--json'], home, env);
      expect(show.code, `${agent}: ${show.stderr}`).toBe(0);
      const record = JSON.parse(show.stdout) as { agent: string; session_id: string; turns: unknown[] };
      expect(record.agent).toBe(agent);
      expect(record.session_id).toBe(row.session_id);
      expect(record.turns.length).toBe(row.turns);
    }
  });
});
