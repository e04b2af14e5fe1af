// One temporary home laid out as six agents lay out theirs (Claude Code, Codex, Kimi Code, Pi,
// Gemini CLI, OpenCode), filled from the real-log corpus: the tests that need every reader's real
// files at once (all agents, usage totals, the MCP server) share it instead of each copying its own.
import { join } from 'node:path';
import { copyCorpus } from './temp.js';

/** Copies the corpus sessions into `home`; answers the agent-home variables that are not derived from HOME. */
export async function corpusAgentHome(home: string): Promise<Record<string, string>> {
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
    join(home, '.pi', 'agent', 'sessions', '--work-pi--', '2025-11-20T23-33-50-805Z_pi.jsonl'),
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

  return {
    KIMI_CODE_HOME: join(home, '.kimi-code'),
    PI_CODING_AGENT_DIR: join(home, '.pi', 'agent'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
  };
}
