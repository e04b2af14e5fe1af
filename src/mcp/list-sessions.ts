// The `list_sessions` tool: recent sessions from the scan cache, filtered by agent, repo, day and words.
import { z } from 'zod';
import { agentIds } from '../record/types.js';
import { AgentlogError } from '../errors.js';
import { totalTokens } from '../cli/render/format.js';
import type { ToolContext } from './context.js';

export const listSessionsInput = {
  agent: z.enum(agentIds).optional().describe('Only this agent’s sessions.'),
  repo: z.string().min(1).optional().describe('Only sessions whose working directory contains this text.'),
  since: z.string().optional().describe('Only sessions active on or after this day or time (YYYY-MM-DD or ISO 8601).'),
  query: z
    .string()
    .min(1)
    .optional()
    .describe('Only sessions whose name, first request, repo or id contains this text (case-insensitive).'),
  limit: z.number().int().min(1).max(100).optional().describe('At most this many sessions, newest first (default 20).'),
};

const sessionSchema = z.object({
  agent: z.enum(agentIds),
  session_id: z.string(),
  name: z.string().nullable(),
  first_ask: z.string().nullable(),
  repo: z.string(),
  branch: z.string().nullable(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  turns: z.number(),
  subagents: z.number(),
  models: z.array(z.string()),
  tokens: z.number(),
});

export const listSessionsOutput = { sessions: z.array(sessionSchema), matching: z.number() };

type Args = { [K in keyof typeof listSessionsInput]: z.infer<(typeof listSessionsInput)[K]> };

export const listSessionsDescription =
  'Lists past coding-agent sessions on this machine, newest first: agent, session id, the name a person gave it, the first request, repo and branch, start and end time, turns, subagents, models and total tokens. Use it to find a session by what it was about or where it ran ("sessions in the api repo since Monday"), then read one with read_session. Filters combine; `query` matches the name, first request, repo or id, not the whole conversation (use search_messages for that).';

function sinceMs(since: string): number {
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(since) ? `${since}T00:00:00Z` : since);
  if (Number.isNaN(ms))
    throw new AgentlogError('BadSince', 'usage', `since must be a day (YYYY-MM-DD) or an ISO 8601 time, not "${since}"`);
  return ms;
}

export async function listSessions(ctx: ToolContext, args: Args): Promise<z.infer<z.ZodObject<typeof listSessionsOutput>>> {
  const from = args.since === undefined ? null : sinceMs(args.since);
  const { rows } = await ctx.catalog.get();
  const repo = args.repo?.toLowerCase();
  const words = args.query?.toLowerCase();
  const matching = rows.filter((r) => {
    if (args.agent !== undefined && r.agent !== args.agent) return false;
    if (repo !== undefined && !r.repo.toLowerCase().includes(repo)) return false;
    if (from !== null) {
      const last = Date.parse(r.ended_at ?? r.started_at ?? '');
      if (Number.isNaN(last) || last < from) return false;
    }
    if (words !== undefined) {
      const hay = [r.name ?? '', r.first_ask ?? '', r.repo, r.session_id].join('\n').toLowerCase();
      if (!hay.includes(words)) return false;
    }
    return true;
  });
  const sessions = matching.slice(0, args.limit ?? 20).map((r) => ({
    agent: r.agent,
    session_id: r.session_id,
    name: r.name,
    first_ask: r.first_ask,
    repo: r.repo,
    branch: r.branch,
    started_at: r.started_at,
    ended_at: r.ended_at,
    turns: r.turns,
    subagents: r.subagents,
    models: r.models,
    tokens: totalTokens(r.totals_with_subagents),
  }));
  return { sessions, matching: matching.length };
}
