// `agentlog mcp`: a Model Context Protocol server on stdin/stdout, so a coding agent can search and
// read past sessions. stdout carries protocol messages only; anything else goes to stderr.
import type { CliContext } from '../context.js';
import type { ParsedArgs } from '../args.js';
import { timeZoneOf } from './usage.js';

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  // Loaded here, not at start-up: every other command would otherwise compile the SDK first.
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { createMcpServer } = await import('../../mcp/server.js');
  const timeZone = timeZoneOf(args, ctx);
  const server = createMcpServer(
    {
      agents: await ctx.agents(),
      ...(ctx.projectHomes === undefined ? {} : { learnedHomes: ctx.projectHomes }),
      stateRoot: ctx.stateRoot,
      userHome: ctx.userHome,
      readerVersion: ctx.version,
      timeZone,
      now: () => ctx.now(),
      log: (line) => ctx.stderr.write(`${line}\n`),
    },
    ctx.version,
  );
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  // A malformed line is answered (or dropped) by the SDK; note it on stderr, keep serving.
  transport.onerror = (error) => ctx.stderr.write(`agentlog mcp: ${error.message}\n`);
  await server.connect(transport);
  process.stdin.once('end', () => void server.close());
  await Promise.race([closed, ctx.interrupted()]);
  await server.close();
  return 0;
}
