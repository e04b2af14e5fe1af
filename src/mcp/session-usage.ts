// The `session_usage` tool: token and cost totals from `agentlog usage` (the scan cache's buckets).
import { z } from 'zod';
import { AgentlogError } from '../errors.js';
import { agentIds } from '../record/types.js';
import { usageReport } from '../usage/collect.js';
import { isDay } from '../usage/local-day.js';
import { pricingTable } from '../usage/pricing.js';
import { reportKinds } from '../usage/report.js';
import type { ToolContext } from './context.js';

const day = z.string().refine(isDay, 'a day written YYYY-MM-DD');

export const sessionUsageInput = {
  since: day.optional().describe('First local day included (YYYY-MM-DD).'),
  until: day.optional().describe('Last local day included (YYYY-MM-DD).'),
  by: z.enum(reportKinds).optional().describe('Rows per daily (default), monthly, session or model.'),
  agent: z.enum(agentIds).optional().describe('Only this agent.'),
};

const rowSchema = z.object({
  period: z.string(),
  agent: z.enum(agentIds).optional(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheCreationTokens: z.number(),
  cacheReadTokens: z.number(),
  totalTokens: z.number(),
  totalCost: z.number(),
  modelsUsed: z.array(z.string()),
  unpricedModels: z.array(z.string()),
});

export const sessionUsageOutput = {
  by: z.enum(reportKinds),
  rows: z.array(rowSchema),
  totals: rowSchema.omit({ period: true, agent: true, modelsUsed: true }),
  timezone: z.string(),
  pricing: z.object({ table: z.string(), taken: z.string() }),
};

type Args = { [K in keyof typeof sessionUsageInput]: z.infer<(typeof sessionUsageInput)[K]> };

export const sessionUsageDescription =
  'Token counts and estimated cost of past coding-agent sessions on this machine, per local day, month, session or model: input, output, cache write and cache read tokens, total, estimated USD cost (the cost an agent logged where it logs one, else agentlog’s price table), and models the table cannot price (listed in unpricedModels, never counted as free). Use it to answer "how much did I use this week?" or "which model cost the most?".';

export async function sessionUsage(ctx: ToolContext, args: Args): Promise<z.infer<z.ZodObject<typeof sessionUsageOutput>>> {
  if (args.since !== undefined && args.until !== undefined && args.since > args.until)
    throw new AgentlogError('BadRange', 'usage', `since ${args.since} is after until ${args.until}`);
  const kind = args.by ?? 'daily';
  const report = await usageReport({
    agents: args.agent === undefined ? ctx.deps.agents : ctx.deps.agents.filter((a) => a.reader.id === args.agent),
    stateRoot: ctx.deps.stateRoot,
    userHome: ctx.deps.userHome,
    readerVersion: ctx.deps.readerVersion,
    ...(ctx.deps.learnedHomes === undefined ? {} : { learnedHomes: ctx.deps.learnedHomes }),
    kind,
    timeZone: ctx.deps.timeZone,
    byAgent: false,
    ...(args.since !== undefined ? { since: args.since } : {}),
    ...(args.until !== undefined ? { until: args.until } : {}),
  });
  return {
    by: kind,
    rows: report.rows.map(({ modelBreakdowns: _m, reasoningTokens: _r, lastActivity: _l, ...row }) => row),
    totals: (({ reasoningTokens: _r, ...t }) => t)(report.totals),
    timezone: report.timeZone,
    pricing: { table: pricingTable.name, taken: pricingTable.taken },
  };
}
