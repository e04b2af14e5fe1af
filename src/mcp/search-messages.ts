// The `search_messages` tool: the hits of `agentlog search --json`, flattened, at most 20 a call,
// paged by an opaque cursor that remembers the index page and how far into it the last call read.
import { z } from 'zod';
import { readers } from '../agents/all-readers.js';
import { agentIds } from '../record/types.js';
import { search } from '../search/query.js';
import { AgentlogError } from '../errors.js';
import type { ToolContext } from './context.js';
import { locatorSchema } from './locator-schema.js';

export const searchMessagesInput = {
  query: z
    .string()
    .min(1)
    .max(256)
    .describe('Words that must all occur in one message (case- and accent-insensitive), e.g. "flaky test retry".'),
  agent: z.enum(agentIds).optional().describe('Only this agent’s sessions.'),
  repo: z.string().min(1).optional().describe('Only sessions whose working directory contains this text, e.g. "agentlog" or "~/src/api".'),
  limit: z.number().int().min(1).max(20).optional().describe('Hits per call, 1–20 (default 10).'),
  include_superseded: z.boolean().optional().describe('Also return messages that were rewound, undone or abandoned (default false).'),
  cursor: z.string().optional().describe('The `cursor` a previous call returned, for the next hits of the same query.'),
};

const hitSchema = z.object({
  agent: z.enum(agentIds),
  session_id: z.string(),
  repo: z.string().nullable(),
  role: z.enum(['user', 'assistant']),
  time: z.string(),
  subagent: z.boolean(),
  superseded: z.boolean(),
  snippet: z.string(),
  locator: locatorSchema,
});

export const searchMessagesOutput = {
  hits: z.array(hitSchema),
  cursor: z.string().nullable(),
  state: z.enum(['ready', 'building', 'partial']),
  note: z.string().nullable(),
};

type Args = { [K in keyof typeof searchMessagesInput]: z.infer<(typeof searchMessagesInput)[K]> };
type Hit = z.infer<typeof hitSchema>;

const cursorSchema = z.object({ c: z.string().nullable(), s: z.number().int().nonnegative() });

function decodeCursor(raw: string): { c: string | null; s: number } {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
  } catch (error) {
    throw new AgentlogError('BadCursor', 'usage', 'the cursor is not one search_messages returned: call it again without a cursor', {
      cause: error,
    });
  }
}

const encodeCursor = (c: string | null, s: number): string => Buffer.from(JSON.stringify({ c, s }), 'utf8').toString('base64url');

export const searchMessagesDescription =
  'Full-text search over what was said in past coding-agent sessions on this machine (' +
  readers.map((r) => r.displayName).join(', ') +
  '): user and assistant messages, subagents included, newest sessions first. Use it to find earlier decisions, fixes or discussions ("where did we fix the flaky upload test?"). Every word of `query` must occur in the same message. Each hit gives the agent, session id, repo, role, time and a snippet, plus a `locator`: pass agent, session_id and that locator to read_session to read the conversation around the hit. When `cursor` is not null, call again with it for more hits.';

/** Runs the search, flattening session groups into hits and filtering by repo. */
export async function searchMessages(ctx: ToolContext, args: Args): Promise<z.infer<z.ZodObject<typeof searchMessagesOutput>>> {
  const limit = args.limit ?? 10;
  let { c, s } = args.cursor === undefined ? { c: null as string | null, s: 0 } : decodeCursor(args.cursor);
  await ctx.index.get();
  // The repo of each hit comes from the session catalog; a first, cold scan of it is not worth
  // delaying a search for unless the caller filters by repo.
  const catalog = args.repo !== undefined ? await ctx.catalog.get() : ctx.catalog.peek();
  const repoNeedle = args.repo?.toLowerCase();
  const hits: Hit[] = [];
  let state: 'ready' | 'building' | 'partial' = 'ready';
  let next: string | null = null;
  // A repo filter can empty whole pages: read on, a few pages at most per call.
  for (let page = 0; page < 5; page++) {
    const body = await search(
      {
        q: args.query,
        ...(args.agent !== undefined ? { agents: [args.agent] } : {}),
        includeSuperseded: args.include_superseded ?? false,
        includeSubagents: true,
        limit: 20,
        cursor: c,
        windowDays: 0,
      },
      { root: ctx.root, cache: ctx.cache, now: ctx.deps.now },
    );
    if (body.state !== 'ready') state = body.state;
    const flat: Hit[] = [];
    for (const g of body.sessions) {
      const row = catalog?.byKey.get(g.session_key) ?? null;
      if (repoNeedle !== undefined && (row === null || !row.repo.toLowerCase().includes(repoNeedle))) continue;
      for (const h of g.hits)
        flat.push({
          agent: g.agent,
          session_id: g.session_id,
          repo: row?.repo ?? null,
          role: h.role,
          time: new Date(h.ts_ms).toISOString(),
          subagent: h.subagent,
          superseded: h.superseded,
          snippet: h.snippet,
          locator: h.locator,
        });
    }
    const room = limit - hits.length;
    const rest = flat.slice(s);
    hits.push(...rest.slice(0, room));
    next = null;
    if (rest.length > room) {
      next = encodeCursor(c, s + room);
      break;
    }
    if (body.cursor === null) break;
    c = body.cursor;
    s = 0;
    next = encodeCursor(c, 0);
    if (hits.length >= limit) break;
  }
  const note =
    state === 'building'
      ? 'the search index is still empty: try again in a moment'
      : state === 'partial'
        ? 'the search ran out of time or budget; call again (with the cursor if given) for the rest'
        : hits.length === 0
          ? 'no message matches every word; try fewer or other words'
          : null;
  return { hits, cursor: next, state, note };
}
