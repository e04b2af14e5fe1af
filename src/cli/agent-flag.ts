// Parses `--agent claude_code,codex`, accepting every spelling people type (claude-code, cc,
// "kimi code"): the same table the names overlay uses for its sources. The table comes from every
// reader, so it loads only when the flag is given.
import { agentIds, type AgentId } from '../record/types.js';
import { UsageError } from './args.js';

export async function parseAgentName(raw: string): Promise<AgentId> {
  const id = raw.trim() === '' ? undefined : (await import('../names/sources.js')).agentOfSource(raw);
  if (id === undefined) throw new UsageError(`unknown agent "${raw}"; known agents: ${agentIds.join(', ')}`);
  return id;
}

export async function parseAgentList(values: readonly string[]): Promise<AgentId[] | undefined> {
  if (values.length === 0) return undefined;
  const ids = await Promise.all(
    values
      .flatMap((v) => v.split(','))
      .filter((v) => v.trim() !== '')
      .map(parseAgentName),
  );
  return [...new Set(ids)];
}
