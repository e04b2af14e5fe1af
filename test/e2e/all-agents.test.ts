// One temporary home holding all seven agents' sessions: `scan --json` lists each exactly once and
// `show` reads every one of them.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionLog } from '../../src/sessionlog/index.js';
import { runCli } from '../support/cli.js';
import { copyCorpus, tempDir } from '../support/temp.js';
import { hasCorpus } from '../../test/support/corpus.js';

interface Row {
  agent: string;
  session_id: string;
  turns: number;
}

async function sevenAgentHome(home: string): Promise<Record<string, string>> {
  const claude = join(home, '.claude', 'projects');
  await copyCorpus('claude/projects/-sample-project', join(claude, '-sample-project'));
  await copyCorpus('claude/projects/-subagent-demo', join(claude, '-subagent-demo'));
  await copyCorpus('codex/sessions', join(home, '.codex', 'sessions'));

  const kimiSession = join(home, '.kimi-code', 'sessions', 'wd_project_ac3bb318f98e', 'session_3c1f2d8e-1b2a-4c3d-8e9f-0a1b2c3d4e5f');
  await copyCorpus('kimi/loose/assistant_tools.state.json', join(kimiSession, 'state.json'));
  await copyCorpus('kimi/loose/assistant_tools.wire.jsonl', join(kimiSession, 'agents', 'main', 'wire.jsonl'));
  await copyCorpus('kimi/loose/subagent_agent-0.wire.jsonl', join(kimiSession, 'agents', 'agent-0', 'wire.jsonl'));

  await copyCorpus(
    'pi/loose/large-session.jsonl',
    join(home, '.pi', 'agent', 'sessions', '--work-pi--', '2025-11-20T23-33-50-805Z_pi-corpus.jsonl'),
  );

  const chats = join(home, '.gemini', 'tmp', '0b7dfb1274ee51b336813b17f2ddab1f56b6591f723e7314126bbd502c69e9c9', 'chats');
  await copyCorpus('gemini/loose/small.json', join(chats, 'session-2026-01-16T18-34-3739ef95.json'));
  await copyCorpus('gemini/loose/jsonl_v040.jsonl', join(chats, 'session-2026-04-29T21-39-gemini_s.jsonl'));

  const storage = join(home, '.local', 'share', 'opencode', 'storage');
  await copyCorpus(
    'opencode/storage_v2/session/proj_test/ses_s_stage0_small.json',
    join(storage, 'session', 'proj_test', 'ses_s_stage0_small.json'),
  );
  await copyCorpus('opencode/storage_v2/message/s_stage0_small', join(storage, 'message', 's_stage0_small'));
  await copyCorpus('opencode/storage_v2/part/m_user_small', join(storage, 'part', 'm_user_small'));
  await copyCorpus('opencode/storage_v2/part/m_assistant_small', join(storage, 'part', 'm_assistant_small'));

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

  return {
    KIMI_CODE_HOME: join(home, '.kimi-code'),
    PI_CODING_AGENT_DIR: join(home, '.pi', 'agent'),
    INTENDANT_HOME: intendant,
    XDG_DATA_HOME: join(home, '.local', 'share'),
  };
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
    expect([...agents].sort()).toEqual(['claude_code', 'codex', 'gemini', 'intendant', 'kimi', 'opencode', 'pi']);
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
