// Every agent reader agentlog knows, in the order `claim` tries them. Adding an agent is one line.
import type { AgentId } from '../record/types.js';
import type { AgentReader } from './types.js';

export const readers: readonly AgentReader[] = [];

export function readerFor(id: AgentId): AgentReader | undefined {
  return readers.find((r) => r.id === id);
}
