// Parses `--agent claude_code,codex`, accepting every spelling people type (claude-code, cc,
// "kimi code"): the same table the names overlay uses for its sources.
import { agentOfSource } from '../names/sources.js';
import { agentIds, type AgentId } from '../record/types.js';
import { UsageError } from './args.js';

export function parseAgentName(raw: string): AgentId {
  const id = raw.trim() === '' ? undefined : agentOfSource(raw);
  if (id === undefined) throw new UsageError(`unknown agent "${raw}"; known agents: ${agentIds.join(', ')}`);
  return id;
}

export function parseAgentList(values: readonly string[]): AgentId[] | undefined {
  if (values.length === 0) return undefined;
  const ids = values
    .flatMap((v) => v.split(','))
    .filter((v) => v.trim() !== '')
    .map(parseAgentName);
  return [...new Set(ids)];
}
