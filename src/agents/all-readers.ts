// Every reader, loaded at once, for code that lists them synchronously (the package's export, the
// workers, the MCP tools' help). Async callers import `registry.ts` instead.
import type { AgentId } from '../record/types.js';
import { everyReader } from './registry.js';
import type { AgentReader } from './types.js';

// No top-level await: the CLI bundle is CommonJS, which has none (scripts/bundle.mjs).
export const readers: readonly AgentReader[] = everyReader;

export function readerFor(id: AgentId): AgentReader | undefined {
  return readers.find((r) => r.id === id);
}
