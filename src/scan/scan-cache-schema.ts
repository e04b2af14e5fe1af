// The scan cache file's full schema, loaded only for a file whose digest does not match what `save`
// wrote (edited or damaged): an unchanged scan trusts its own file and never loads zod (scan-cache.ts).
import { z } from 'zod';
import { type FileProblem, problemKinds } from '../agents/types.js';
import { agentIds } from '../record/types.js';
import { usageBucketsSchema } from '../usage/buckets-schema.js';
import type { CachedEntry } from './scan-cache.js';
import type { SessionRow } from './session-row.js';

const count = z.number().int().nonnegative();
const totalsSchema = z.object({
  input_tokens: count,
  output_tokens: count,
  cache_read_tokens: count,
  cache_creation_tokens: count,
  reasoning_tokens: count,
  cost_usd: z.number().nullable(),
});
const rowSchema = z.object({
  agent: z.enum(agentIds),
  session_id: z.string(),
  name: z.string().nullable(),
  repo: z.string(),
  branch: z.string().nullable(),
  first_ask: z.string().nullable(),
  models: z.array(z.string()),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  turns: count,
  tool_calls: count,
  totals: totalsSchema,
  totals_with_subagents: totalsSchema,
  subagents: count,
  file: z.string(),
  home: z.string(),
  bad_lines: count,
}) satisfies z.ZodType<SessionRow>;
const problemSchema = z.object({ path: z.string(), kind: z.enum(problemKinds), reason: z.string() }) satisfies z.ZodType<FileProblem>;
const badLinesSchema = z.object({ path: z.string(), count: count });
const entrySchema = z.object({
  key: z.string(),
  row: rowSchema.nullable(),
  problems: z.array(problemSchema),
  cwds: z.array(z.string()),
  bad_lines: z.array(badLinesSchema),
  usage: usageBucketsSchema.nullable(),
}) satisfies z.ZodType<CachedEntry>;
const cacheFileSchema = z.object({
  version: z.number(),
  readerVersion: z.string(),
  digest: z.string(),
  entries: z.record(z.string(), entrySchema),
});

/** The entries of a scan cache file checked in full, or where and why the file is not one. */
export function checkedEntries(json: unknown): { entries: Record<string, CachedEntry> } | { where: string } {
  const parsed = cacheFileSchema.safeParse(json);
  if (parsed.success) return { entries: parsed.data.entries };
  const issue = parsed.error.issues[0];
  return { where: issue === undefined ? '' : ` at ${issue.path.join('.') || 'the top'}: ${issue.message}` };
}
