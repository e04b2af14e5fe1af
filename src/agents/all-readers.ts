// Every reader, loaded at once, for code that lists them synchronously (the package's export, the
// workers, the MCP tools' help). Async callers import `registry.ts` instead.
import type { AgentId } from '../record/types.js';
import { loadReaders } from './registry.js';
import type { AgentReader } from './types.js';

export const readers: readonly AgentReader[] = await loadReaders();

export function readerFor(id: AgentId): AgentReader | undefined {
  return readers.find((r) => r.id === id);
}
