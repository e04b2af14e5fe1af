// One temporary home holding all seven agents' sessions: `scan --json` lists each exactly once and
// `show` reads every one of them.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentIds } from '../../src/record/types.js';
import { SessionLog } from '../../src/sessionlog/index.js';
import * as qwen from '../../src/agents/qwen/test-support/chat.js';
import * as copilot from '../../src/agents/copilot/test-support/events.js';
import * as droid from '../../src/agents/droid/test-support/session.js';
import { runCli } from '../support/cli.js';
import { corpusAgentHome } from '../support/corpus-home.js';
import { tempDir } from '../support/temp.js';
import { hasCorpus } from '../../test/support/corpus.js';
import { homeFixtures } from '../conformance/homes.js';
import * as crush from '../../src/agents/crush/test-support/fixtures.js';
import * as goose from '../../src/agents/goose/test-support/fixtures.js';
import * as cursor from '../../src/agents/cursor/test-support/fixtures.js';

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

  // Qwen Code: a chat in the shape its ChatRecordingService writes, under ~/.qwen.
  await qwen.writeChat(
    join(home, '.qwen'),
    new qwen.Chat('7a0e0000-0000-4000-8000-00000000000a').user('q1', 1, 'rename the lexer').assistant('q2', 2, [qwen.say('Renamed it.')]),
  );

  // Crush: a project's `.crush/crush.db`, listed in projects.json of its global data directory.
  await crush.writeCrushProject(join(home, '.local', 'share', 'crush'), join(home, 'code', 'crush-app'), [
    {
      id: 'c0ffee00-0000-4000-8000-0000000000e2',
      title: 'rename',
      at: 1_790_000_000,
      messages: [crush.user('u1', 1_790_000_001, 'rename the parser'), crush.assistant('a1', 1_790_000_002, [crush.text('Renamed.')])],
    },
  ]);
  // GitHub Copilot CLI: a session folder under ~/.copilot/session-state.
  await copilot.writeSession(
    join(home, '.copilot'),
    new copilot.Events('c0b10000-0000-4000-8000-0000000000aa').start(0).user(1, 'rename the lexer').assistant(2, 'Renamed it.'),
  );

  // Factory Droid: a session and its settings under ~/.factory/sessions.
  await droid.writeSession(
    join(home, '.factory'),
    new droid.Session('d0d00000-0000-4000-8000-0000000000aa')
      .user('d1', 1, 'rename the lexer')
      .assistant('d2', 2, [droid.say('Renamed it.')]),
  );

  // Goose: a session in its sessions.db, and a legacy JSONL session beside it.
  const gooseHome = join(home, '.local', 'share', 'goose');
  const gooseSession = (id: string): goose.GooseSessionFixture => ({
    id,
    name: 'rename',
    workingDir: '/work/app',
    createdAt: '2026-10-01 10:00:00',
    messages: [
      goose.user(`${id}u`, 1_790_000_001, 'rename the parser'),
      goose.assistant(`${id}a`, 1_790_000_002, [goose.text('Renamed.')]),
    ],
  });
  await goose.writeGooseDatabase(gooseHome, [gooseSession('20261001_1')]);
  await goose.writeLegacySession(gooseHome, gooseSession('20250301_120000'));

  // Cursor Agent: a JSONL agent transcript.
  await cursor.writeTranscript(join(home, '.cursor'), 'home-u-code-app', 'b1b2c3d4-0000-4000-8000-0000000000e2', [
    cursor.user('rename the parser'),
    cursor.assistant('Renamed.'),
  ]);

  return { ...agentEnv, INTENDANT_HOME: intendant };
}

describe.skipIf(!hasCorpus)('a home with every agent', () => {
  it('lists every session exactly once and shows each', async () => {
    const home = await tempDir();
    const env = await sevenAgentHome(home);
    const scan = await runCli(['scan', '--json'], home, env);
    expect(scan.code, scan.stderr).toBe(0);
    const report = JSON.parse(scan.stdout) as { sessions: Row[]; unreadable: unknown[] };
    const keys = report.sessions.map((s) => `${s.agent}:${s.session_id}`);
    expect(new Set(keys).size).toBe(keys.length);
    const agents = new Set(report.sessions.map((s) => s.agent));
    // Every reader in the registry has a session in this home, so an agent added without one fails here.
    expect([...agents].sort()).toEqual([...agentIds].sort());
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
