// Parses `--agent claude_code,codex` (accepting the names people type: claude-code, cc, "kimi code").
import { agentIds, type AgentId } from '../record/types.js';
import { UsageError } from './args.js';

const aliases: Record<string, AgentId> = {
  claude: 'claude_code',
  claudecode: 'claude_code',
  cc: 'claude_code',
  codex: 'codex',
  kimi: 'kimi',
  kimicode: 'kimi',
  pi: 'pi',
  intendant: 'intendant',
  gemini: 'gemini',
  geminicli: 'gemini',
  opencode: 'opencode',
};

export function parseAgentName(raw: string): AgentId {
  const key = raw.trim().toLowerCase().replace(/[\s_-]+/g, '');
  const id = aliases[key];
  if (id === undefined) throw new UsageError(`unknown agent "${raw}"; known agents: ${agentIds.join(', ')}`);
  return id;
}

export function parseAgentList(values: readonly string[]): AgentId[] | undefined {
  if (values.length === 0) return undefined;
  const ids = values.flatMap((v) => v.split(',')).filter((v) => v.trim() !== '').map(parseAgentName);
  return [...new Set(ids)];
}
