// The agentlog MCP server: four tools over past sessions (search, list, read, usage), each with a
// zod schema, a description written for a model, and structured output beside a text rendering.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isAgentlogError } from '../errors.js';
import { type McpDeps, ToolContext } from './context.js';
import { listSessions, listSessionsDescription, listSessionsInput, listSessionsOutput } from './list-sessions.js';
import { readSession, readSessionDescription, readSessionInput, readSessionOutput } from './read-session.js';
import { searchMessages, searchMessagesDescription, searchMessagesInput, searchMessagesOutput } from './search-messages.js';
import { sessionUsage, sessionUsageDescription, sessionUsageInput, sessionUsageOutput } from './session-usage.js';

/** Runs a tool body; its structured result also goes out as text, for clients that read only text. */
async function answer<T extends Record<string, unknown>>(work: () => Promise<T>, text?: (value: T) => string): Promise<CallToolResult> {
  try {
    const value = await work();
    return { content: [{ type: 'text', text: text?.(value) ?? JSON.stringify(value) }], structuredContent: value };
  } catch (error) {
    // Our own errors say what to do; anything else is wrapped so the model still learns what failed.
    const message = isAgentlogError(error) ? error.message : `agentlog failed: ${error instanceof Error ? error.message : String(error)}`;
    return { content: [{ type: 'text', text: message }], isError: true };
  }
}

export function createMcpServer(deps: McpDeps, version: string): McpServer {
  const ctx = new ToolContext(deps);
  const server = new McpServer({ name: 'agentlog', version }, { capabilities: { tools: {} } });
  const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
  server.registerTool(
    'search_messages',
    {
      title: 'Search past agent sessions',
      description: searchMessagesDescription,
      inputSchema: searchMessagesInput,
      outputSchema: searchMessagesOutput,
      annotations: readOnly,
    },
    (args) => answer(() => searchMessages(ctx, args)),
  );
  server.registerTool(
    'list_sessions',
    {
      title: 'List past agent sessions',
      description: listSessionsDescription,
      inputSchema: listSessionsInput,
      outputSchema: listSessionsOutput,
      annotations: readOnly,
    },
    (args) => answer(() => listSessions(ctx, args)),
  );
  server.registerTool(
    'read_session',
    {
      title: 'Read a past agent session',
      description: readSessionDescription,
      inputSchema: readSessionInput,
      outputSchema: readSessionOutput,
      annotations: readOnly,
    },
    (args) =>
      answer(
        () => readSession(ctx, args),
        (v) => v.markdown,
      ),
  );
  server.registerTool(
    'session_usage',
    {
      title: 'Token usage and cost',
      description: sessionUsageDescription,
      inputSchema: sessionUsageInput,
      outputSchema: sessionUsageOutput,
      annotations: readOnly,
    },
    (args) => answer(() => sessionUsage(ctx, args)),
  );
  return server;
}
