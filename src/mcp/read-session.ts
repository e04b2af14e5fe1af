// The `read_session` tool: one session as compact Markdown (the `show --markdown` renderer), cut to
// a byte budget, windowed around a search hit when its locator is given.
import { z } from 'zod';
import { renderRecordMarkdown } from '../cli/render/record-markdown.js';
import { AgentlogError } from '../errors.js';
import { sessionName } from '../names/session-names.js';
import { finaliseRecord } from '../record/finalise.js';
import { makeHomeElider } from '../record/home-elide.js';
import { agentIds, detailLevels } from '../record/types.js';
import { fixedAgents, resolveIdTarget } from '../scan/resolve.js';
import type { ToolContext } from './context.js';
import { locatorKey, locatorSchema } from './locator-schema.js';
import { windowText } from './window.js';

export const readSessionDefaults = { maxBytes: 24 * 1024, minBytes: 2 * 1024, maxMaxBytes: 256 * 1024 } as const;

export const readSessionInput = {
  agent: z.enum(agentIds).describe('The agent of the session (from search_messages or list_sessions).'),
  session_id: z.string().min(1).describe('The session id, or a prefix only one session of that agent has.'),
  detail: z
    .enum(detailLevels)
    .optional()
    .describe(
      'messages (default): what was said and each tool call’s name; full: tool inputs and outputs too; summary: the first request only.',
    ),
  around_locator: locatorSchema
    .optional()
    .describe('A hit’s `locator` from search_messages: the text returned is centred on that message.'),
  max_bytes: z
    .number()
    .int()
    .min(readSessionDefaults.minBytes)
    .max(readSessionDefaults.maxMaxBytes)
    .optional()
    .describe(`At most this many bytes of Markdown (default ${readSessionDefaults.maxBytes}).`),
};

export const readSessionOutput = {
  agent: z.enum(agentIds),
  session_id: z.string(),
  markdown: z.string(),
  total_bytes: z.number(),
  left_out_before: z.number(),
  left_out_after: z.number(),
  anchor_found: z.boolean().nullable(),
};

type Args = { [K in keyof typeof readSessionInput]: z.infer<(typeof readSessionInput)[K]> };

export const readSessionDescription =
  'Reads one past coding-agent session as compact Markdown: a header (repo, branch, times, models, tokens), then every user and assistant message in order, with tool calls and subagents’ work nested where they happened. Give `around_locator` (a hit’s locator from search_messages) to get the part of a long session around that hit; without it you get the beginning. The text never exceeds `max_bytes`; a bracketed line says how many bytes were left out before or after, so you can call again with a larger max_bytes or another locator.';

/** The byte offset in `markdown` where the located message's text starts, or null. */
async function anchorOf(ctx: ToolContext, args: Args, markdown: string): Promise<number | null> {
  const locator = args.around_locator;
  if (locator === undefined) return null;
  const { reader, session } = await resolveIdTarget(
    args.session_id,
    fixedAgents(ctx.deps.agents.filter((a) => a.reader.id === args.agent)),
  );
  if (reader.messages === undefined) return null;
  const extract = await reader.messages.extract(session, null);
  const want = locatorKey(locator);
  const record = extract.records.find((r) => locatorKey(r.locator) === want);
  if (record === undefined) return null;
  const elide = makeHomeElider(ctx.deps.userHome);
  // The renderer quotes subagents' lines: look for the message's longest first line, then shorter cuts.
  const lines = elide(record.text)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const first = lines[0];
  if (first === undefined) return null;
  for (const len of [120, 60, 24]) {
    const at = markdown.indexOf(first.slice(0, len));
    if (at !== -1) return Buffer.byteLength(markdown.slice(0, at), 'utf8');
  }
  return null;
}

export async function readSession(ctx: ToolContext, args: Args): Promise<z.infer<z.ZodObject<typeof readSessionOutput>>> {
  const agents = ctx.deps.agents.filter((a) => a.reader.id === args.agent);
  const { reader, session } = await resolveIdTarget(args.session_id, fixedAgents(agents));
  const detail = args.detail ?? 'messages';
  const parsed = await reader.parse(session, { detail });
  if (parsed.record === null)
    throw new AgentlogError(
      'NotASession',
      'not_found',
      `${session.path} holds no ${reader.displayName} session any more: list_sessions shows what exists`,
    );
  const record = finaliseRecord(parsed.record, { detail, elide: makeHomeElider(ctx.deps.userHome) });
  const name = await sessionName(ctx.deps.stateRoot, reader.id, session.sessionId, session.path);
  const markdown = renderRecordMarkdown(record, name);
  const anchor = await anchorOf(ctx, args, markdown);
  const max = args.max_bytes ?? readSessionDefaults.maxBytes;
  const hint =
    args.around_locator !== undefined && anchor === null
      ? 'the locator was not found in this session, so this is its beginning'
      : 'call read_session again with a larger max_bytes or around_locator';
  const w = windowText(markdown, max, anchor, hint);
  return {
    agent: record.agent,
    session_id: record.session_id,
    markdown: w.text,
    total_bytes: w.total_bytes,
    left_out_before: w.left_out_before,
    left_out_after: w.left_out_after,
    anchor_found: args.around_locator === undefined ? null : anchor !== null,
  };
}
